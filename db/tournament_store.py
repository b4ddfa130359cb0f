"""The store's operations on tournaments: ``Store.tournaments`` (see db.ops.tournaments)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from db import checks
from db.competition import KEY_LIMIT
from db.models import TableWrite, VoidResult
from db.ops import tournaments as ops
from db.ops.rounds import settle_round
from db.ops.table_state import along_with
from db.ops.tournaments import (
    EliminationRow,
    Finished,
    Place,
    StoredTournament,
    TournamentClosed,
)
from db.statements import Op, Run
from db.table_store import checked_write

__all__ = [
    "EliminationRow",
    "Finished",
    "Place",
    "StoredTournament",
    "TournamentClosed",
    "TournamentStore",
]


def _key(name: str, key: str | None) -> str | None:
    """An achievement's key, checked, or None."""
    return None if key is None else checks.text(name, key, limit=KEY_LIMIT)


class TournamentStore:
    """Creating, saving, paying and closing tournaments, and reading their results.

    Each method checks its arguments (ValueError, nothing touched), then runs one
    operation of ``db.ops.tournaments`` in a transaction of its own through ``run``.
    TournamentClosed: the tournament has already finished or been cancelled.
    """

    def __init__(self, run: Run, now: Callable[[], int]) -> None:
        self._run = run
        self._now = now

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        format_json: str,
        commitment: str,
        state_json: str,
    ) -> tuple[int, int]:
        """A new open tournament whose pool round is dealt from the committed shoe
        ``commitment`` (recorded now, before any card); (tournament id, pool round id)."""
        g, c = checks.snowflake("guild_id", guild_id), checks.snowflake("channel_id", channel_id)
        h = checks.snowflake("host_id", host_id)
        fmt, state = (
            checks.json_text("format_json", format_json),
            checks.json_text("state_json", state_json),
        )
        shoe, now = checks.text("commitment", commitment), self._now()
        return await self._run(lambda: ops.create(g, c, h, fmt, shoe, state, now), write=True)

    async def save(self, tournament_id: int, state_json: str) -> None:
        """Replace the open tournament's document."""
        t, state = (
            checks.whole("tournament_id", tournament_id),
            checks.json_text("state_json", state_json),
        )
        now = self._now()
        await self._run(lambda: ops.save(t, state, now), write=True)

    async def pay_in(
        self,
        tournament_id: int,
        guild_id: int,
        user_id: int,
        amount: int,
        state_json: str,
        *,
        table: TableWrite | None = None,
    ) -> int | None:
        """Save the document, taking ``amount`` (if any) from the player into the prize pool
        in the same transaction, with ``table`` (the tournament table's new document, the
        player seated); their new balance. InsufficientChips: nothing changes."""
        t, g = checks.whole("tournament_id", tournament_id), checks.snowflake("guild_id", guild_id)
        u, n = checks.snowflake("user_id", user_id), checks.whole("amount", amount)
        state, now = checks.json_text("state_json", state_json), self._now()
        write = checked_write(table)
        return await self._run(
            lambda: along_with(ops.pay_in(t, g, u, n, state, now), write, (), now), write=True
        )

    async def settle_hand(
        self,
        round_id: int,
        round_json: str,
        table: TableWrite,
        tournament_id: int,
        guild_id: int,
        rows: Sequence[EliminationRow],
        *,
        survivor_key: str | None = None,
        earned: Mapping[int, tuple[str, ...]] | None = None,
        state_json: str | None = None,
    ) -> dict[int, tuple[str, ...]]:
        """A tournament hand is over, in one transaction: its round settled (tournament
        chips: no economy chip moves), the table's new document (the stacks), the
        elimination's stacks (``rows``), the achievements (as ``record_elimination``) and
        the tournament's document when it changed; the achievements new to each player."""
        r, state = checks.whole("round_id", round_id), checks.json_text("round_json", round_json)
        t, g = checks.whole("tournament_id", tournament_id), checks.snowflake("guild_id", guild_id)
        write, now, listed = checked_write(table), self._now(), list(rows)
        doc = None if state_json is None else checks.json_text("state_json", state_json)
        key = _key("survivor_key", survivor_key)
        cards = {
            checks.snowflake("user_id", user): tuple(
                checks.text("earned", key, limit=KEY_LIMIT) for key in keys
            )
            for user, keys in (earned or {}).items()
        }

        def settle() -> Op[dict[int, tuple[str, ...]]]:
            yield from settle_round(r, {}, [], state, now)
            return (yield from ops.record_elimination(t, g, listed, doc, now, key, cards))

        return await self._run(lambda: along_with(settle(), write, (), now), write=True)

    async def record_elimination(
        self,
        tournament_id: int,
        guild_id: int,
        rows: Sequence[EliminationRow],
        state_json: str,
        *,
        survivor_key: str | None = None,
        earned: Mapping[int, tuple[str, ...]] | None = None,
    ) -> dict[int, tuple[str, ...]]:
        """Save the document after a hand with its elimination's stacks (``rows``: none
        unless it was an elimination hand), award what the hand's cards ``earned`` each
        player and ``survivor_key`` (the achievement for surviving an elimination hand
        begun with the smallest stack), in one transaction; the achievements new to
        each player."""
        t, g = checks.whole("tournament_id", tournament_id), checks.snowflake("guild_id", guild_id)
        state, now, listed = checks.json_text("state_json", state_json), self._now(), list(rows)
        key = _key("survivor_key", survivor_key)
        cards = {
            checks.snowflake("user_id", user): tuple(
                checks.text("earned", key, limit=KEY_LIMIT) for key in keys
            )
            for user, keys in (earned or {}).items()
        }
        return await self._run(
            lambda: ops.record_elimination(t, g, listed, state, now, key, cards), write=True
        )

    async def finish(
        self,
        tournament_id: int,
        guild_id: int,
        places: Sequence[Place],
        reveal: tuple[str, str] | None,
        state_json: str,
        *,
        winner_key: str | None = None,
    ) -> Finished:
        """Pay the prizes, record the places, reveal the seed, award ``winner_key`` (the
        achievement for winning) to first place and close, in one transaction."""
        t, g = checks.whole("tournament_id", tournament_id), checks.snowflake("guild_id", guild_id)
        state, now, listed = checks.json_text("state_json", state_json), self._now(), list(places)
        key = _key("winner_key", winner_key)
        return await self._run(
            lambda: ops.finish(t, g, listed, reveal, state, now, key), write=True
        )

    async def cancel(
        self, tournament_id: int, reason: str, reveal: tuple[str, str] | None, state_json: str
    ) -> VoidResult:
        """Close the tournament and refund every fee, once."""
        t, why = checks.whole("tournament_id", tournament_id), checks.text("reason", reason)
        state, now = checks.json_text("state_json", state_json), self._now()
        return await self._run(lambda: ops.cancel(t, why, reveal, state, now), write=True)

    async def open_tournaments(
        self, guild_ids: Sequence[int] | None = None
    ) -> list[StoredTournament]:
        """Every open tournament (of ``guild_ids``: a shard's servers), oldest first."""
        wanted = None if guild_ids is None else [checks.snowflake("guild_id", g) for g in guild_ids]
        return await self._run(lambda: ops.open_tournaments(wanted), write=False)

    async def places(self, tournament_id: int) -> list[Place]:
        """A finished tournament's final places, first place first."""
        t = checks.whole("tournament_id", tournament_id)
        return await self._run(lambda: ops.places(t), write=False)

    async def eliminations(self, tournament_id: int) -> list[EliminationRow]:
        """Every elimination hand's stacks, per table and hand."""
        t = checks.whole("tournament_id", tournament_id)
        return await self._run(lambda: ops.eliminations(t), write=False)

    async def fees(self, pool_round_id: int) -> Mapping[int, int]:
        """What each player put into the pool."""
        r = checks.whole("pool_round_id", pool_round_id)
        return await self._run(lambda: ops.fees(r), write=False)
