"""Tournaments: the document of an open one, its prize pool's chips, and its results.

The prize pool is a round (``pool_round_id``): fees are 'bet' rows on it, prizes
'payout' rows, and cancelling voids it, refunding every fee once (see the migration).

The two tournament achievements are read from the results as recorded, in the
transaction that records them: surviving an elimination hand with the smallest stack
from tournament_eliminations, winning from tournament_places. Results are recorded
once, so a tournament resumed after a restart awards nothing twice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from db.models import VoidResult
from db.ops.achievements import award_each
from db.ops.chips import LEDGER_INSERT, credit_up_to
from db.ops.rounds import open_round, stake, void_round
from db.ops.shoes import reveal_seed
from db.statements import Many, Op, Query


@dataclass(frozen=True, slots=True)
class StoredTournament:
    """An open tournament as stored: where, whose, its pool round and its document."""

    tournament_id: int
    guild_id: int
    channel_id: int
    host_id: int
    pool_round_id: int
    state_json: str


@dataclass(frozen=True, slots=True)
class Place:
    """A player's final place in a finished tournament."""

    user_id: int
    channel_id: int
    place: int
    chips: int
    out_after: int | None
    prize: int


@dataclass(frozen=True, slots=True)
class EliminationRow:
    """One player's stacks at one elimination hand of one table."""

    channel_id: int
    hand_no: int
    user_id: int
    chips_before: int
    chips_after: int
    eliminated: bool


_SAVE = (
    "UPDATE tournaments SET state_json = ?, updated_at = ?"
    " WHERE id = ? AND status = 'open' RETURNING pool_round_id"
)


@dataclass(frozen=True, slots=True)
class Finished:
    """What finishing a tournament did."""

    #: Every prize winner's new balance.
    balances: dict[int, int]
    #: The achievements new to each player (winning it).
    awarded: dict[int, tuple[str, ...]]
    #: Prize chips the chip ceiling kept from each player (recorded as the pool round's
    #: ``unrefunded``, so its books still add up).
    unpaid: dict[int, int] = field(default_factory=dict)


#: Players who survived an elimination hand they began with the smallest stack of their
#: table (ties included), in the order of the tables, hands and players' ids.
_SURVIVORS = (
    "SELECT e.user_id FROM tournament_eliminations AS e"
    " WHERE e.tournament_id = ? AND e.eliminated = 0 AND e.chips_before = ("
    "SELECT MIN(m.chips_before) FROM tournament_eliminations AS m"
    " WHERE m.tournament_id = e.tournament_id AND m.channel_id = e.channel_id"
    " AND m.hand_no = e.hand_no)"
    " ORDER BY e.channel_id, e.hand_no, e.user_id"
)


def _award(
    tournament_id: int,
    guild_id: int,
    earned: Mapping[int, tuple[str, ...]],
    found: tuple[str, str | None],
    now: int,
) -> Op[dict[int, tuple[str, ...]]]:
    """Award each player their ``earned`` keys, then ``found``'s key (if not None) to every
    player its query (on the tournament's id) finds; the achievements new to each player."""
    pairs = [(user_id, key) for user_id in sorted(earned) for key in earned[user_id]]
    sql, key = found
    if key is not None:
        rows = yield Query(sql, (tournament_id,))
        pairs.extend((int(row[0]), key) for row in rows)
    return (yield from award_each(guild_id, pairs, f"tournament {tournament_id}", now))


class TournamentClosed(Exception):
    """The tournament has finished or been cancelled: nothing more can change it."""


def save(tournament_id: int, state_json: str, now: int) -> Op[int]:
    """Replace the open tournament's document; its pool round's id."""
    rows = yield Query(_SAVE, (state_json, now, tournament_id))
    if not rows:
        raise TournamentClosed(tournament_id)
    return int(rows[0][0])


def create(
    guild_id: int,
    channel_id: int,
    host_id: int,
    format_json: str,
    commitment: str,
    state_json: str,
    now: int,
) -> Op[tuple[int, int]]:
    """A new open tournament, its pool round on the committed shoe; (id, pool round id)."""
    pool = yield from open_round(guild_id, channel_id, format_json, commitment, now)
    rows = yield Query(
        "INSERT INTO tournaments (guild_id, channel_id, host_id, pool_round_id, state_json,"
        " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (guild_id, channel_id, host_id, pool, state_json, now, now),
    )
    return int(rows[0][0]), pool


def pay_in(
    tournament_id: int, guild_id: int, user_id: int, amount: int, state_json: str, now: int
) -> Op[int | None]:
    """Save the document and, if ``amount``, take it into the pool (a 'bet' row); the
    player's new balance, or None when nothing was taken. InsufficientChips: nothing."""
    pool = yield from save(tournament_id, state_json, now)
    if not amount:
        return None
    balance = yield from stake(guild_id, user_id, amount, "bet", pool, now)
    return balance


def record_elimination(
    tournament_id: int,
    guild_id: int,
    rows: Sequence[EliminationRow],
    state_json: str | None,
    now: int,
    survivor_key: str | None = None,
    earned: Mapping[int, tuple[str, ...]] | None = None,
) -> Op[dict[int, tuple[str, ...]]]:
    """Save the document after a hand with its elimination's stacks (``rows``, if it was
    an elimination hand); then award what the hand's cards ``earned`` each player, and
    ``survivor_key`` to whoever survived an elimination hand begun with the smallest
    stack. The achievements new to each player. ``state_json``: the document, if it changed
    (else the tournament must still be open)."""
    if state_json is not None:
        yield from save(tournament_id, state_json, now)
    else:
        found = yield Query(
            "SELECT 1 FROM tournaments WHERE id = ? AND status = 'open'", (tournament_id,)
        )
        if not found:
            raise TournamentClosed(tournament_id)
    if rows:
        yield Many(
            "INSERT INTO tournament_eliminations (tournament_id, guild_id, channel_id,"
            " hand_no, user_id, chips_before, chips_after, eliminated, at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT DO NOTHING",
            [
                (
                    tournament_id,
                    guild_id,
                    row.channel_id,
                    row.hand_no,
                    row.user_id,
                    row.chips_before,
                    row.chips_after,
                    int(row.eliminated),
                    now,
                )
                for row in rows
            ],
        )
    survivors = (_SURVIVORS, survivor_key if rows else None)
    return (yield from _award(tournament_id, guild_id, earned or {}, survivors, now))


def _close(tournament_id: int, status: str, state_json: str, now: int) -> Op[int]:
    rows = yield Query(
        "UPDATE tournaments SET status = ?, state_json = ?, updated_at = ?, closed_at = ?"
        " WHERE id = ? AND status = 'open' RETURNING pool_round_id",
        (status, state_json, now, now, tournament_id),
    )
    if not rows:
        raise TournamentClosed(tournament_id)
    return int(rows[0][0])


def _record_places(
    tournament_id: int, guild_id: int, places: Sequence[Place], now: int
) -> Op[None]:
    """Record every player's final place (once: finish closes the tournament first)."""
    yield Many(
        "INSERT INTO tournament_places (tournament_id, guild_id, user_id, channel_id, place,"
        " chips, out_after, prize, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                tournament_id,
                guild_id,
                p.user_id,
                p.channel_id,
                p.place,
                p.chips,
                p.out_after,
                p.prize,
                now,
            )
            for p in places
        ],
    )


def finish(
    tournament_id: int,
    guild_id: int,
    places: Sequence[Place],
    reveal: tuple[str, str] | None,
    state_json: str,
    now: int,
    winner_key: str | None = None,
) -> Op[Finished]:
    """Pay the prizes ('payout' rows on the pool round), record the places, settle the pool
    round, reveal the shoe's seed (``reveal``: commitment, seed), award ``winner_key`` to
    the player in first place and close the tournament, once."""
    pool = yield from _close(tournament_id, "finished", state_json, now)
    balances: dict[int, int] = {}
    unpaid: dict[int, int] = {}
    paid = 0
    for place in sorted(places, key=lambda p: p.user_id):
        if place.prize:
            # A prize is paid up to the chip ceiling, as a cash round's payout is.
            balance, credited = yield from credit_up_to(guild_id, place.user_id, place.prize, now)
            balances[place.user_id] = balance
            if credited < place.prize:
                unpaid[place.user_id] = place.prize - credited
            paid += credited
            if credited:
                yield Query(
                    LEDGER_INSERT,
                    (guild_id, place.user_id, credited, balance, "payout", pool, None, None, now),
                )
    rows = yield Query("SELECT staked FROM rounds WHERE id = ?", (pool,))
    kept = sum(unpaid.values())
    if int(rows[0][0]) != paid + kept:
        raise ValueError(f"the prizes ({paid + kept}) must pay out the whole pool ({rows[0][0]})")
    yield Query(
        "UPDATE rounds SET status = 'settled', paid = ?, unrefunded = ?, closed_at = ?"
        " WHERE id = ?",
        (paid, kept, now, pool),
    )
    yield from _record_places(tournament_id, guild_id, places, now)
    if reveal is not None:
        yield from reveal_seed(reveal[0], reveal[1], now)
    winner = "SELECT user_id FROM tournament_places WHERE tournament_id = ? AND place = 1"
    awarded = yield from _award(tournament_id, guild_id, {}, (winner, winner_key), now)
    return Finished(balances, awarded, unpaid)


def cancel(
    tournament_id: int, reason: str, reveal: tuple[str, str] | None, state_json: str, now: int
) -> Op[VoidResult]:
    """Close the tournament and void its pool round: every fee refunded, once."""
    pool = yield from _close(tournament_id, "cancelled", state_json, now)
    result = yield from void_round(pool, reason, now)
    if reveal is not None:
        yield from reveal_seed(reveal[0], reveal[1], now)
    return result


def open_tournaments(guild_ids: Sequence[int] | None = None) -> Op[list[StoredTournament]]:
    """Every open tournament (of ``guild_ids``, when given), oldest first."""
    rows = yield Query(
        "SELECT id, guild_id, channel_id, host_id, pool_round_id, state_json FROM tournaments"
        " WHERE status = 'open' ORDER BY id"
    )
    if guild_ids is not None:
        wanted = set(guild_ids)
        rows = [row for row in rows if int(row[1]) in wanted]
    return [
        StoredTournament(int(a), int(b), int(c), int(d), int(e), str(f))
        for a, b, c, d, e, f in rows
    ]


def places(tournament_id: int) -> Op[list[Place]]:
    """A finished tournament's places, first place first."""
    rows = yield Query(
        "SELECT user_id, channel_id, place, chips, out_after, prize FROM tournament_places"
        " WHERE tournament_id = ? ORDER BY place",
        (tournament_id,),
    )
    return [
        Place(int(u), int(c), int(p), int(n), None if o is None else int(o), int(z))
        for u, c, p, n, o, z in rows
    ]


def eliminations(tournament_id: int) -> Op[list[EliminationRow]]:
    """Every elimination hand's stacks, by table, hand and seat order of the players' ids."""
    rows = yield Query(
        "SELECT channel_id, hand_no, user_id, chips_before, chips_after, eliminated"
        " FROM tournament_eliminations WHERE tournament_id = ?"
        " ORDER BY channel_id, hand_no, user_id",
        (tournament_id,),
    )
    return [
        EliminationRow(int(c), int(h), int(u), int(b), int(a), bool(e)) for c, h, u, b, a, e in rows
    ]


def pool_balance(pool_round_id: int) -> Op[int]:
    """The chips in the pool."""
    rows = yield Query("SELECT staked FROM rounds WHERE id = ?", (pool_round_id,))
    return int(rows[0][0]) if rows else 0


def fees(pool_round_id: int) -> Op[Mapping[int, int]]:
    """What each player put in the pool."""
    rows = yield Query(
        "SELECT user_id, -SUM(delta) FROM ledger WHERE round_id = ? AND kind = 'bet'"
        " GROUP BY user_id",
        (pool_round_id,),
    )
    return {int(u): int(n) for u, n in rows}
