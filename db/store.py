"""The ``Store`` interface: every operation the table service and the cogs call.

Each public method checks its arguments first (ValueError, nothing touched),
then runs one transaction on the backend (a stake or a journal append may share its
transaction with other tables' through ``db.group_commit``, each as if alone).
Backends supply ``_transact`` and ``close``; the operations themselves live in
``db.ops`` and are shared. Chips, rounds and settings are the store's own methods; the
rest are its parts (see ``__init__``), each running its transactions through ``_run``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from types import TracebackType
from typing import Any, Self, TypeVar

from db import checks, migrate, writable
from db.bridge_store import BridgeStore
from db.coach_store import CoachStore
from db.competition import Competition
from db.group_commit import GroupCommit
from db.models import (
    Account,
    DailyResult,
    GuildSettings,
    HandResult,
    SettleResult,
    SideBetResult,
    Staked,
    TableAction,
    TableWrite,
    VoidResult,
    to_micros,
)
from db.observer import StoreObserver, observed
from db.ops import chips, rounds, settings
from db.ops.achievements import RoundAwards, settle_awarding
from db.ops.table_state import along_with, open_table_round
from db.play_store import PlayLimitsStore
from db.report_store import ReportStore
from db.shoe_store import ShoeStore
from db.stakes import stake_op
from db.statements import Op
from db.table_store import TableStates, checked_write
from db.tournament_store import TournamentStore

T = TypeVar("T")
Clock = Callable[[], datetime]


def system_clock() -> datetime:
    """Now, in UTC."""
    return datetime.now(UTC)


class Store(ABC):
    """Chips, ledger, rounds, shoes, guild settings and durable tables, in one database."""

    def __init__(self, clock: Clock | None = None) -> None:
        self._clock = clock or system_clock
        #: Told of every transaction and round closed, when set (the bot's metrics).
        self.observer: StoreObserver | None = None
        #: The writes of a round's path, many tables' committed together (db.group_commit).
        self._group = GroupCommit(lambda write: self._run(write, write=True), self._rolled_back)
        #: The open tables' documents and journals.
        self.tables = TableStates(self._run, self._group, self._now)
        #: Tournaments: their documents, prize pools and results.
        self.tournaments = TournamentStore(self._run, self._now)
        #: Seasons and achievements.
        self.competition = Competition(self._run, self._now)
        #: Players' own limits, self-exclusion, the no-value notice, linked accounts.
        self.play = PlayLimitsStore(self._run, self._now)
        #: Shoes' commitments and revealed seeds.
        self.shoes = ShoeStore(self._run, self._now)
        #: Rounds, leaderboards, a player's record and ledger, as reports read them.
        self.reports = ReportStore(self._run)
        #: The coach: graded rounds and decisions, their figures, teach mode.
        self.coach = CoachStore(self._run, self._group, self._now)
        #: A server's bridge to UnbelievaBoat and the transfers between the two books.
        self.bridge = BridgeStore(self._run, self._now)

    # -- backend -------------------------------------------------------------

    @abstractmethod
    async def _transact(self, op: Callable[[], Op[T]], *, write: bool) -> T:
        """Run the operation ``op()`` in one transaction and return its result."""

    async def _run(self, op: Callable[[], Op[T]], *, write: bool) -> T:
        """Every operation's one way in: the backend's transaction, timed for the observer."""
        observer = self.observer
        if observer is None:
            return await self._transact(op, write=write)
        return await observed(observer, lambda named: self._transact(named, write=write), op)

    def _rolled_back(self, error: Exception) -> bool:
        """Whether ``error`` from a write transaction means nothing of it was committed."""
        return True

    @abstractmethod
    async def close(self) -> None:
        """Close the connections. The store cannot be used afterwards."""

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    def _now(self) -> int:
        return to_micros(self._clock())

    async def _migrate(self, dialect: migrate.Dialect) -> None:
        """Apply every migration the database lacks (each backend's ``open`` calls this)."""
        migrations, now = migrate.load_migrations(), self._now()
        await self._run(lambda: migrate.migrate(migrations, dialect, now), write=True)

    # -- accounts and chips --------------------------------------------------

    async def ensure_account(self, guild_id: int, user_id: int) -> Account:
        """The player's account; a new one gets the guild's starting chips (a 'grant' row)."""
        g, u, now = (
            checks.snowflake("guild_id", guild_id),
            checks.snowflake("user_id", user_id),
            self._now(),
        )
        return await self._run(lambda: chips.ensure_account(g, u, now), write=True)

    async def balance(self, guild_id: int, user_id: int) -> int:
        """The player's balance (creating the account with its starting chips if new)."""
        g, u, now = (
            checks.snowflake("guild_id", guild_id),
            checks.snowflake("user_id", user_id),
            self._now(),
        )
        return await self._run(lambda: chips.balance(g, u, now), write=True)

    async def read_balance(self, guild_id: int, user_id: int) -> int:
        """The player's balance, or the starting chips a new account would have: a read,
        which opens no account (``balance`` does)."""
        g, u = checks.snowflake("guild_id", guild_id), checks.snowflake("user_id", user_id)
        return await self._run(lambda: chips.read_balance(g, u), write=False)

    async def stake(
        self,
        guild_id: int,
        user_id: int,
        amount: int,
        kind: str,
        round_id: int,
        *,
        table: TableWrite | None = None,
        actions: Sequence[TableAction] = (),
        headroom: int = 0,
        side_amount: int = 0,
    ) -> int:
        """Take a stake for an open round of this guild; the new balance.

        ``kind`` is 'bet', 'double', 'split' or 'insurance'. Raises
        InsufficientChips (balance, amount) or RoundClosed / UnknownRound, writing nothing.
        ``table`` and ``actions`` (the table's new document, the decision that costs the
        stake) commit in the same transaction, so the table never disagrees with the ledger.
        ``headroom`` is the most the stake could win: if the balance before the stake
        plus that would pass MAX_BALANCE, BalanceLimitExceeded, writing nothing.
        ``side_amount``: side bets staked in the same transaction (a 'side_bet' ledger row).
        """
        stake = (guild_id, user_id, amount, kind, round_id)
        op = stake_op(stake, table, actions, (headroom, side_amount, False), self._now())
        # Stakes of many tables at once share a transaction (db.group_commit), each as if alone.
        staked: tuple[int, bool] = await self._group.submit(op)
        return staked[0]

    async def stake_bet(
        self,
        guild_id: int,
        user_id: int,
        amount: int,
        round_id: int,
        *,
        table: TableWrite | None = None,
        headroom: int = 0,
        side_amount: int = 0,
        notice: bool = False,
    ) -> Staked:
        """``stake`` of a bet (kind 'bet'); with ``notice``, the player's no-value notice is
        marked seen in the same transaction, which says whether it was the first time."""
        stake = (guild_id, user_id, amount, "bet", round_id)
        op = stake_op(stake, table, (), (headroom, side_amount, notice), self._now())
        balance, first = await self._group.submit(op)
        return Staked(balance, first)

    async def adjust(
        self, guild_id: int, user_id: int, amount: int, actor_id: int, reason: str
    ) -> int:
        """An admin's grant (amount > 0) or take (amount < 0); the new balance.

        A take larger than the balance raises InsufficientChips and writes
        nothing (it is never clamped). A grant past MAX_BALANCE raises
        BalanceLimitExceeded.
        """
        g, u = checks.snowflake("guild_id", guild_id), checks.snowflake("user_id", user_id)
        n, a = checks.signed_amount("amount", amount), checks.snowflake("actor_id", actor_id)
        why, now = checks.text("reason", reason, empty=True), self._now()
        return await self._run(lambda: chips.adjust(g, u, n, a, why, now), write=True)

    async def claim_daily(self, guild_id: int, user_id: int) -> DailyResult:
        """Credit the guild's daily amount if a full period has passed since the last claim."""
        g, u, now = (
            checks.snowflake("guild_id", guild_id),
            checks.snowflake("user_id", user_id),
            self._now(),
        )
        return await self._run(lambda: chips.claim_daily(g, u, now), write=True)

    # -- rounds --------------------------------------------------------------

    async def open_round(
        self,
        guild_id: int,
        channel_id: int,
        rules_json: str,
        commitment: str,
        *,
        message_id: int | None = None,
        table: TableWrite | None = None,
    ) -> int:
        """Open a round dealt from the shoe with ``commitment`` (recorded if new); its id.

        A shoe whose seed has been revealed cannot deal another round (ValueError).
        ``message_id`` (the table message, as ``set_round_message``) and ``table`` (the
        table's document, saved with the new round's id as its ``round_id``) commit in
        the same transaction: a table opens each round in one trip to the database.
        """
        g, c = checks.snowflake("guild_id", guild_id), checks.snowflake("channel_id", channel_id)
        rules_text = checks.json_text("rules_json", rules_json)
        shoe, now, write = checks.text("commitment", commitment), self._now(), checked_write(table)
        m = None if message_id is None else checks.snowflake("message_id", message_id)
        # With other tables' writes in one transaction (db.group_commit), as if alone.
        round_id: int = await self._group.submit(
            lambda: open_table_round(g, c, rules_text, shoe, now, m, write)
        )
        return round_id

    async def save_round_state(self, round_id: int, state_json: str) -> None:
        """Replace the open round's saved state (opaque JSON text); RoundClosed if closed."""
        r, state = checks.whole("round_id", round_id), checks.json_text("state_json", state_json)
        await self._run(lambda: rounds.save_round_state(r, state), write=True)

    async def set_round_message(self, round_id: int, message_id: int) -> None:
        """Remember the round's table message, so it can be edited after a restart."""
        r, m = checks.whole("round_id", round_id), checks.snowflake("message_id", message_id)
        await self._run(lambda: rounds.set_round_message(r, m), write=True)

    async def settle_round(
        self,
        round_id: int,
        payouts: Mapping[int, int],
        hand_results: Sequence[HandResult],
        state_json: str,
        *,
        table: TableWrite | None = None,
        awards: RoundAwards | None = None,
        side_bets: Sequence[SideBetResult] = (),
    ) -> SettleResult:
        """Credit every nonzero payout ('payout' rows), record the hands, mark the round settled.

        ``payouts`` maps each player to every chip credited to them for the
        round (returned stakes included). Per player, the hand results'
        ``wagered`` must add up to the player's stakes in the round and their
        ``payout`` to ``payouts[player]``; otherwise ValueError, nothing written.
        A second call for a closed round changes nothing: ``already_settled=True``.
        ``table`` (the table's document after settlement) commits in the same transaction,
        and so do ``awards``, the round's achievements (each new one in ``awarded``).
        ``side_bets``: the side bets settled now (Buster), their payouts credited as
        'side_payout' rows; their stakes count with the hands' in the check above, as do those
        of the side bets ``deal_side_bets`` settled.
        """
        r, state = checks.whole("round_id", round_id), checks.json_text("state_json", state_json)
        paid = {
            checks.snowflake("payout player", u): checks.payout(f"payout to {u}", n)
            for u, n in payouts.items()
        }
        hands = [checks.hand_result(h) for h in hand_results]
        side = [checks.side_bet_result(b) for b in side_bets]
        now, write = self._now(), checked_write(table)
        if awards is not None:
            checks.snowflake("awards guild_id", awards.guild_id)

        def settle() -> Op[SettleResult]:
            settled = rounds.settle_round(r, paid, hands, state, now, side)
            return along_with(settle_awarding(settled, r, awards, now), write, (), now)

        # With other tables' writes in one transaction (db.group_commit), as if alone.
        result: SettleResult = await self._group.submit(settle)
        if self.observer is not None and not result.already_settled:
            self.observer.round_settled(
                sum(h.wagered for h in hands) + sum(b.wagered for b in side),
                sum(paid.values()) + sum(b.payout for b in side),
            )
        return result

    async def deal_side_bets(
        self, deal: TableAction, side_bets: Sequence[SideBetResult]
    ) -> SettleResult:
        """Append the round's deal to its journal and settle the side bets the deal decides.

        The 'side_payout' rows, the side bets' results and the deal row commit in one
        transaction, so a stop right after the deal pays them once: a resumed round replays
        its deal and leaves them be. The round stays open; a void refunds every other stake.
        RoundClosed when the round is not open, ValueError (nothing written) when its deal's
        side bets are settled already or wager more than their stakes.
        """
        r = checks.whole("round_id", deal.round_id)
        side, now = [checks.side_bet_result(b) for b in side_bets], self._now()
        result: SettleResult = await self._group.submit(
            lambda: along_with(rounds.settle_side_bets(r, side, now), None, [deal], now)
        )
        if self.observer is not None and not result.already_settled:
            self.observer.side_bets_settled(
                sum(b.wagered for b in side), sum(b.payout for b in side)
            )
        return result

    async def void_round(
        self, round_id: int, reason: str, *, table: TableWrite | None = None
    ) -> VoidResult:
        """Refund the stakes of an open round ('refund' rows) and mark it void, exactly once.

        The stakes of side bets settled at the deal (``deal_side_bets``) are not refunded.

        ``table`` (the table's document afterwards) commits in the same transaction.
        """
        r, why, now = checks.whole("round_id", round_id), checks.text("reason", reason), self._now()
        write = checked_write(table)
        result = await self._run(
            lambda: along_with(rounds.void_round(r, why, now), write, (), now), write=True
        )
        if self.observer is not None and not result.already_closed:
            self.observer.round_voided(sum(result.refunds.values()))
        return result

    async def recover(
        self, guild_ids: Sequence[int] | None = None, reason: str = "the bot restarted"
    ) -> list[VoidResult]:
        """Void every open round (of ``guild_ids``, if given) that no open table is playing.

        Call at start-up: these are rounds of a database from before durable tables,
        or a round opened just before a stop and not yet in its table's document.
        Each round is its own transaction; a round voided meanwhile is left out.
        """
        wanted = None if guild_ids is None else [checks.snowflake("guild_id", g) for g in guild_ids]
        ids = await self._run(lambda: rounds.open_round_ids(wanted), write=False)
        owned = await self.tables.owned_round_ids()
        ids = [round_id for round_id in ids if round_id not in owned]
        results = [await self.void_round(round_id, reason) for round_id in ids]
        return [result for result in results if not result.already_closed]

    # -- the database, and guild settings -----------------------------------

    async def schema_version(self) -> int:
        """The newest schema migration applied to this database."""
        return await self._run(migrate.schema_version, write=False)

    async def check_writable(self) -> None:
        """Write a row and roll it back; StoreConfigError, saying what is wrong, if the
        database takes no writes. Changes nothing."""
        await writable.check(self._transact, self._write_refused)

    def _write_refused(self, error: Exception) -> str:
        """Why the database refused the probe's write, in words (a backend may say more)."""
        return f"the database refused a write ({type(error).__name__}: {error})"

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings, defaults for anything never set."""
        g = checks.snowflake("guild_id", guild_id)
        return await self._run(lambda: settings.read_settings(g), write=False)

    async def set_guild_settings(self, guild_id: int, **changes: Any) -> GuildSettings:
        """Change some settings (names as in GuildSettings); the settings afterwards.

        An unknown name, a value out of range, or min_bet above max_bet raises
        ValueError and changes nothing.
        """
        g = checks.snowflake("guild_id", guild_id)
        checked = settings.check_changes(changes)
        if not checked:
            return await self.get_guild_settings(g)
        now = self._now()
        return await self._run(lambda: settings.write_settings(g, checked, now), write=True)
