"""How a table moves through a round: open betting, deal, act, settle, shuffle, close.

Every step here runs while the caller holds the table's lock; the caller then
makes the new snapshot and publishes it (changes.py).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from functools import lru_cache
from typing import Any

import db
from bot.clock import Clock
from bot.engine import Rules, Settlement, Shoe, Verdict
from bot.i18n import _, joined
from bot.tables import chip_limit
from bot.tables.cash import CashMode
from bot.tables.durable import rules_dict, table_write
from bot.tables.journal import (
    SettledRound,
    apply_decision,
    begin_round,
    deal_round,
    set_deadlines,
    side_stakes,
)
from bot.tables.journal import names as seat_names
from bot.tables.modes import GameMode
from bot.tables.registry import TableRegistry
from bot.tables.results import unpaid_line
from bot.tables.side_bets import side_bet_outcomes, side_bet_results
from bot.tables.snapshot import TablePhase
from bot.tables.table import Table

log = logging.getLogger(__name__)

#: Builds the shoe for a table's rules; tests pass one that deals stacked cards.
ShoeFactory = Callable[[Rules], Shoe]


#: Why a table closed when its last player stood up.
EVERYONE_LEFT = _("Everyone left the table.")


def fresh_shoe(rules: Rules) -> Shoe:
    """A new shoe for ``rules``, seeded from the operating system's CSPRNG."""
    return Shoe.fresh(rules.decks, rules.penetration)


@lru_cache(maxsize=256)
def _rules_json(rules: Rules) -> str:
    """The rules as a round records them, written once per rule set."""
    return json.dumps(rules_dict(rules), sort_keys=True)


class RoundFlow:
    """The steps of a round, for the players' changes, the timers and a resumed table.

    Each step runs under the table's lock (the caller holds it) and commits what it
    changes through the store; the caller makes the new snapshot.
    """

    def __init__(
        self,
        store: db.Store,
        clock: Clock,
        registry: TableRegistry,
        shoe_factory: ShoeFactory | None = None,
    ) -> None:
        self._store = store
        self._clock = clock
        self._registry = registry
        self.new_shoe_for: ShoeFactory = shoe_factory or fresh_shoe
        #: SHARD_COUNT of this process (1 unsharded), stored with each table.
        self.shard_count = 1
        #: Told of each round once its settlement is committed, with its journal (the coach).
        self.on_settled: list[Callable[[SettledRound], None]] = []
        #: Asked what to tell a player who just sat down ("": nothing), after the seat is
        #: committed and outside the table's lock (the bridge's buy-in).
        self.on_seat_taken: list[Callable[[Table, int], Awaitable[str]]] = []
        #: Told (table, user id) as a player leaves the seats: at once without chips in
        #: play, else once their round is settled, or as the table closes.
        self.on_seat_left: list[Callable[[Table, int], None]] = []
        #: Each game mode's policy by its key (a table's document names its mode).
        self.modes: dict[str, GameMode] = {CashMode.key: CashMode(store, clock, registry)}

    def mode_of(self, table: Table) -> GameMode:
        """The policy of the table's game mode."""
        return self.modes[table.mode]

    def load_mode_state(self, mode: str, data: Any) -> Any:
        """A stored table's mode state (ValueError if this process has no such mode)."""
        policy = self.modes.get(mode)
        if policy is None:
            raise ValueError(f"game mode {mode!r} is not running here")
        return policy.load_state(data)

    # ----------------------------------------------------------- the document

    def _names(self, table: Table) -> dict[str, str]:
        return seat_names(table)

    def write(self, table: Table, *, between_rounds: bool = False) -> db.TableWrite:
        """The table's stored document, to commit with the change that produced it."""
        state = self.mode_of(table).dump_state(table.mode_state)
        return table_write(table, self.shard_count, state, between_rounds=between_rounds)

    async def save(self, table: Table) -> None:
        """Make a change that moves no chips durable (a join, a leave, a new round)."""
        await self._store.tables.save_table(self.write(table))

    # ----------------------------------------------------------- betting

    async def open_betting(self, table: Table) -> None:
        """Remove leavers, open the next round in the store, start the bet timer."""
        self.remove_leavers(table)
        if not table.seats:
            await self.close(table, EVERYONE_LEFT)
            return
        now = self._clock.now()
        before = (table.round_no, table.phase, table.round, table.insurance_offered)
        seats_before = [(seat.bet, seat.spots, seat.deadline) for seat in table.seats]
        deadline_before = table.deadline
        shoe_before = table.shoe
        table.round_no += 1
        shoe = self.mode_of(table).round_shoe(table, self.new_shoe_for)
        if shoe is not None:
            table.shoe = shoe
        table.phase = TablePhase.BETTING
        table.round = None
        table.insurance_offered = False
        table.deadline = now + table.timers.bet_s
        sides_before = [seat.side for seat in table.seats]
        for seat in table.seats:
            seat.bet = seat.spots = 0
            seat.side = {}
            seat.deadline = None
        try:
            # The round, its message and the table's new document: one transaction.
            table.round_id = await self._store.open_round(
                table.guild_id,
                table.channel_id,
                _rules_json(table.rules),
                table.shoe.commitment,
                message_id=table.message_id,
                table=self.write(table),
            )
        except BaseException:
            table.round_no, table.phase, table.round, table.insurance_offered = before
            table.shoe = shoe_before
            table.deadline = deadline_before
            for seat, (bet, spots, deadline) in zip(table.seats, seats_before, strict=True):
                seat.bet, seat.spots, seat.deadline = bet, spots, deadline
            for seat, side in zip(table.seats, sides_before, strict=True):
                seat.side = side
            raise

    def remove_leavers(self, table: Table) -> None:
        leavers = [seat.player.user_id for seat in table.seats if seat.leaving]
        table.seats = [seat for seat in table.seats if not seat.leaving]
        if table.seats and table.seat_of(table.host_id) is None:
            # The host left: the longest-seated player hosts from now on.
            table.host_id = table.seats[0].player.user_id
        self._seats_left(table, leavers)

    async def seat_taken(self, table: Table, user_id: int) -> str:
        """What the seat's listeners tell the player who just sat down ("": nothing)."""
        notes = []
        for listener in self.on_seat_taken:
            try:
                notes.append(await listener(table, user_id))
            except Exception:
                log.exception("a seat listener failed at table %s", table.table_id)
        said = [note for note in notes if note]
        return joined(said, "\n") if said else ""

    def _seats_left(self, table: Table, user_ids: list[int]) -> None:
        for user_id in user_ids:
            for listener in self.on_seat_left:
                try:
                    listener(table, user_id)
                except Exception:
                    log.exception("a seat listener failed at table %s", table.table_id)

    # ----------------------------------------------------------- the deal

    async def deal(self, table: Table) -> None:
        """Deal to every player who bet, in seat order (the deal is the journal's first row).

        The side bets the deal decides (21+3, Perfect Pairs) are paid in the deal's own
        transaction: settled before anyone acts, kept whatever becomes of the round."""
        round_, row = deal_round(table, self._clock.now())
        early = side_bet_outcomes(round_, table.side_bets, side_stakes(table), settled=False)
        unpaid: dict[int, int] = {}
        if early:
            unpaid = await self._deal_side_bets(row, side_bet_results(early))
        else:
            await self._store.tables.append_actions([row])
        begin_round(table, round_, row)
        names = self._names(table)
        table.events.extend(unpaid_line(names[str(u)], n) for u, n in unpaid.items())
        await self._after_play(table, set())

    async def _deal_side_bets(
        self, row: db.TableAction, results: list[db.SideBetResult]
    ) -> dict[int, int]:
        """Commit the deal with its side bets' payouts; the chips the ceiling kept from each
        player (none unless chips reached them from elsewhere since their bet)."""
        unpaid: dict[int, int] = {}
        while True:
            try:
                await self._store.deal_side_bets(row, results)
                return unpaid
            except db.BalanceLimitExceeded as error:
                who, over = error.user_id, chip_limit.over_the_limit(error)
                if who is None or over <= 0:
                    raise
                unpaid[who] = unpaid.get(who, 0) + over
                log.warning(
                    "round %s: %s chips over the limit not paid to %s", row.round_id, over, who
                )
                results = chip_limit.cut_payouts(results, who, over)

    async def _after_play(self, table: Table, acted: set[str]) -> None:
        """Set phases and deadlines after the round changed; settle it when it is over."""
        round_ = table.round
        assert round_ is not None
        if round_.is_finished:
            await self.settle(table)
            return
        set_deadlines(table, acted, self._clock.now())

    async def apply(self, table: Table, row: db.TableAction, verdict: Verdict) -> None:
        """Apply a judged (legal), paid-for, journaled decision; settle if it ends the round."""
        apply_decision(table, row, verdict)
        round_ = table.round
        assert round_ is not None
        if round_.is_finished:
            await self.settle(table)

    async def _action_timed_out(self, table: Table) -> None:
        """Players past their deadline: the mode says what their timer does."""
        round_ = table.round
        assert round_ is not None
        now = self._clock.now()
        late = [
            seat.pid for seat in table.seats if seat.deadline is not None and seat.deadline <= now
        ]
        if (
            table.phase is TablePhase.INSURANCE
            and table.deadline is not None
            and table.deadline <= now
        ):
            late = [pid for pid in round_.players_to_act() if pid not in late] + late
        await self.mode_of(table).decisions_due(self, table, late)
        if round_.is_finished:
            await self.settle(table)

    # ----------------------------------------------------------- settlement

    async def settle(self, table: Table) -> None:
        """Pay the finished round as the table's mode does, and go on."""
        await self.mode_of(table).settle(self, table)

    def round_over(self, table: Table, settlement: Settlement) -> None:
        """The table's side of a finished round, before it is paid: each seat's tally, last
        bets and idle time; the round leaves the table."""
        # Idle time counts from the end of the last round played, not from its bets.
        table.idle_since = self._clock.now()
        for seat in table.seats:
            if seat.spots:
                seat.standing.record(settlement)
                seat.last_net = settlement.player(seat.pid).net
                table.last_bets[seat.player.user_id] = (seat.bet, seat.spots)
                table.last_side_bets[seat.player.user_id] = dict(seat.side)
            seat.deadline = None
        table.events = []
        table.round = None

    def settled(self, table: Table, round_id: int) -> None:
        """A mode committed the settlement of the table's round ``round_id``: tell whoever
        listens, with the round's journal (which the table lets go of)."""
        journal, table.journal = tuple(table.journal), []
        if not self.on_settled:
            return
        settled = SettledRound(round_id, table.guild_id, table.rules, journal)
        for listener in self.on_settled:
            listener(settled)

    async def next_round(self, table: Table) -> None:
        """After a settlement: what the table's mode does next (cash: bet again)."""
        await self.mode_of(table).next_round(self, table)

    # ----------------------------------------------------------- closing

    async def close(self, table: Table, reason: str) -> None:
        """Void and refund an open round (once), mark the table closed, stop its timer.

        The table's document is marked closed in the refund's transaction: it never resumes.
        Without an open round (the last one was paid) the seats' stakes are cleared: a
        closed table shows a seat's stake as refunded, and none was.
        """
        before = (table.round_id, table.phase, table.closed_reason, table.deadline)
        seats_before = [(seat.deadline, seat.bet, seat.spots) for seat in table.seats]
        round_id, table.round_id = table.round_id, None
        table.phase = TablePhase.CLOSED
        table.closed_reason = reason
        table.deadline = None
        for seat in table.seats:
            seat.deadline = None
            if round_id is None:
                seat.bet = seat.spots = 0
        try:
            if round_id is not None:
                voided = await self._store.void_round(round_id, reason, table=self.write(table))
                names = self._names(table)
                for user_id, over in voided.unpaid.items():
                    log.warning("round %s: %s chips over the limit not refunded", round_id, over)
                    table.events.append(unpaid_line(names.get(str(user_id), "?"), over))
            else:
                await self._store.tables.close_table(table.table_id)
        except BaseException:
            # Closed only once it commits: a table whose close failed is still open.
            table.round_id, table.phase, table.closed_reason, table.deadline = before
            for seat, (deadline, bet, spots) in zip(table.seats, seats_before, strict=True):
                seat.deadline, seat.bet, seat.spots = deadline, bet, spots
            raise
        self._registry.forget(table)
        self._seats_left(table, [seat.player.user_id for seat in table.seats])

    async def on_time(self, table: Table) -> None:
        """The table's timer is due: bets or decisions ran out."""
        now = self._clock.now()
        if table.phase is TablePhase.BETTING:
            if table.deadline is not None and table.deadline <= now:
                await self.mode_of(table).bets_closed(self, table)
        elif table.round is not None:
            due = table.next_due()
            if due is not None and due <= now:
                await self._action_timed_out(table)

    async def carry_on(self, table: Table, *, write: bool = False) -> None:
        """The step a rebuilt table was stopped before: betting after a settlement, the
        settlement after the last decision (else, with ``write``, its document saved)."""
        if table.round_id is None:
            await self.next_round(table)  # stopped between settlement and betting
        elif table.round is not None and table.round.is_finished:
            await self.settle(table)  # stopped after the last decision
        elif write:
            await self.save(table)

    def rearm(self, table: Table) -> None:
        """Deadlines still ahead keep their time; one that passed meanwhile starts afresh."""
        now = self._clock.now()
        if table.deadline is not None and table.deadline <= now:
            full = (
                table.timers.bet_s if table.phase is TablePhase.BETTING else table.timers.action_s
            )
            table.deadline = now + full
        for seat in table.seats:
            if seat.deadline is not None and seat.deadline <= now:
                seat.deadline = now + table.timers.action_s
