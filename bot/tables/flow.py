"""How a table moves through a round: open betting, deal, act, settle, shuffle, close.

Every step here runs while the caller holds the table's lock; the caller then
makes the new snapshot and publishes it (changes.py).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from functools import lru_cache

import db
from bot.clock import Clock
from bot.engine import Rules, Shoe, Verdict
from bot.i18n import _
from bot.tables import chip_limit
from bot.tables.achievements import announcements, round_awards
from bot.tables.durable import rules_dict, table_write
from bot.tables.journal import (
    TIMEOUT,
    apply_decision,
    begin_round,
    deal_round,
    decision,
    set_deadlines,
    side_stakes,
)
from bot.tables.journal import names as seat_names
from bot.tables.registry import TableRegistry
from bot.tables.results import (
    hand_results,
    payouts_of,
    result_lines,
    shuffle_notice,
    unpaid_line,
)
from bot.tables.side_bets import (
    SETTLED_AT_DEAL,
    outcome_lines,
    side_bet_outcomes,
    side_bet_results,
)
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


def duration_text(seconds: float) -> str:
    """A configured time as people say it: ``30 s``, ``1 min``, ``2 min 30 s``, ``1 h 5 min``."""
    whole = max(1, round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [f"{hours} h" if hours else "", f"{minutes} min" if minutes else ""]
    parts.append(f"{secs} s" if secs else "")
    return " ".join(part for part in parts if part)


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

    # ----------------------------------------------------------- the document

    def _names(self, table: Table) -> dict[str, str]:
        return seat_names(table)

    def write(self, table: Table, *, between_rounds: bool = False) -> db.TableWrite:
        """The table's stored document, to commit with the change that produced it."""
        return table_write(table, self.shard_count, between_rounds=between_rounds)

    async def save(self, table: Table) -> None:
        """Make a change that moves no chips durable (a join, a leave, a new round)."""
        await self._store.save_table(self.write(table))

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
        table.round_no += 1
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
            table.deadline = deadline_before
            for seat, (bet, spots, deadline) in zip(table.seats, seats_before, strict=True):
                seat.bet, seat.spots, seat.deadline = bet, spots, deadline
            for seat, side in zip(table.seats, sides_before, strict=True):
                seat.side = side
            raise

    def remove_leavers(self, table: Table) -> None:
        table.seats = [seat for seat in table.seats if not seat.leaving]
        if table.seats and table.seat_of(table.host_id) is None:
            # The host left: the longest-seated player hosts from now on.
            table.host_id = table.seats[0].player.user_id

    async def _betting_timed_out(self, table: Table) -> None:
        """The bet timer ended: deal for those who bet, or void an empty round."""
        if any(seat.spots for seat in table.seats):
            await self.deal(table)
            return
        if table.round_id is not None:
            write = self.write(table, between_rounds=True)
            await self._store.void_round(table.round_id, "nobody bet", table=write)
            table.round_id = None
        idle = self._clock.now() - table.idle_since
        if idle >= table.timers.idle_close_s:
            idle_for = duration_text(table.timers.idle_close_s)
            await self.close(table, _("Closed after {time} without bets.", time=idle_for))
            return
        await self.open_betting(table)

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
            await self._store.append_actions([row])
        begin_round(table, round_)
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
        """Players past their deadline: insurance declined, or every hand stood."""
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
        rows = [decision(table, pid, TIMEOUT, now) for pid in late]
        await self._store.append_actions(rows)
        for row in rows:
            apply_decision(table, row)
        if round_.is_finished:
            await self.settle(table)

    # ----------------------------------------------------------- settlement

    async def settle(self, table: Table) -> None:
        """Pay the finished round in one transaction with the table's new document, then
        shuffle if due and bet again."""
        round_ = table.round
        assert round_ is not None
        assert table.round_id is not None
        settlement = round_.settlement()
        bets = {seat.pid: seat.bet for seat in table.seats if seat.spots}
        side = side_bet_outcomes(round_, table.side_bets, side_stakes(table), settled=True)
        # 21+3 and Perfect Pairs were paid with the deal: only Buster is paid now.
        settled_now = [outcome for outcome in side if outcome.bet not in SETTLED_AT_DEAL]
        spots = {seat.pid: seat.spots for seat in table.seats}
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

        def settled(unpaid: dict[str, int]) -> db.TableWrite:
            names = self._names(table)
            side_lines = outcome_lines(side, names, spots)
            table.last_results = result_lines(settlement, names, unpaid, side_lines=side_lines)
            table.last_summary = result_lines(
                settlement, names, unpaid, detailed=False, side_lines=side_lines
            )
            return self.write(table, between_rounds=True)

        awarded = await self._pay(
            table.round_id,
            payouts_of(settlement),
            hand_results(settlement, bets),
            round_.to_json(),
            settled,
            round_awards(table.guild_id, round_),
            side_bet_results(settled_now),
        )
        table.round_id = None
        # Shown in the Latest line while the next round is bet (saved with its document).
        table.events = announcements(awarded, self._names(table))
        await self.next_round(table)

    async def next_round(self, table: Table) -> None:
        """After a settlement: a new shoe when the cut card came out, then betting; or the
        close a stop asked for while the round was played."""
        if table.closing:
            await self.close(table, table.closing)
            return
        if table.shoe.cut_card_reached:
            await self._new_shoe(table)
        await self.open_betting(table)

    async def _pay(
        self,
        round_id: int,
        payouts: dict[int, int],
        hands: list[db.HandResult],
        state_json: str,
        settled: Callable[[dict[str, int]], db.TableWrite],
        awards: db.RoundAwards,
        side_bets: list[db.SideBetResult],
    ) -> dict[int, tuple[str, ...]]:
        """Settle the round; a player the ceiling stops is paid up to it, nobody else changes.

        ``settled(unpaid)``: the table's document afterwards, committed with the payouts
        and the round's ``awards``; it is told the chips that did not fit, per player id
        (none unless chips reached a player from elsewhere during the round: bets are
        checked against the ceiling). Returns the achievements new to each player.
        """
        unpaid: dict[str, int] = {}
        while True:
            try:
                write = settled(unpaid)
                result = await self._store.settle_round(
                    round_id,
                    payouts,
                    hands,
                    state_json,
                    table=write,
                    awards=awards,
                    side_bets=side_bets,
                )
                return result.awarded
            except db.BalanceLimitExceeded as error:
                who, over = error.user_id, chip_limit.over_the_limit(error)
                if who is None or over <= 0:
                    raise
                unpaid[str(who)] = unpaid.get(str(who), 0) + over
                log.warning("round %s: %s chips over the limit not paid to %s", round_id, over, who)
                payouts, hands, side_bets = chip_limit.capped(payouts, hands, side_bets, who, over)

    async def _new_shoe(self, table: Table) -> None:
        """Retire the shoe (reveal its seed), start a new one, announce action and standing."""
        old = table.shoe
        if old.seed:
            # A stacked test shoe has no seed to reveal.
            table.previous_shoe = await self._store.reveal_seed(old.commitment, old.seed.hex())
            table.previous_decks = old.decks
            self._registry.retired_decks[old.commitment] = old.decks
        table.shoe = self.new_shoe_for(table.rules)
        await self._store.open_shoe(table.guild_id, table.channel_id, table.shoe.commitment)
        staying = [seat for seat in table.seats if not seat.leaving]
        table.shuffle_notice = shuffle_notice(staying, table.shoe.commitment)

    # ----------------------------------------------------------- closing

    async def close(self, table: Table, reason: str) -> None:
        """Void and refund an open round (once), mark the table closed, stop its timer.

        The table's document is marked closed in the refund's transaction: it never resumes.
        """
        before = (table.round_id, table.phase, table.closed_reason, table.deadline)
        seat_deadlines = [seat.deadline for seat in table.seats]
        round_id, table.round_id = table.round_id, None
        table.phase = TablePhase.CLOSED
        table.closed_reason = reason
        table.deadline = None
        for seat in table.seats:
            seat.deadline = None
        try:
            if round_id is not None:
                voided = await self._store.void_round(round_id, reason, table=self.write(table))
                names = self._names(table)
                for user_id, over in voided.unpaid.items():
                    log.warning("round %s: %s chips over the limit not refunded", round_id, over)
                    table.events.append(unpaid_line(names.get(str(user_id), "?"), over))
            else:
                await self._store.close_table(table.table_id)
        except BaseException:
            # Closed only once it commits: a table whose close failed is still open.
            table.round_id, table.phase, table.closed_reason, table.deadline = before
            for seat, deadline in zip(table.seats, seat_deadlines, strict=True):
                seat.deadline = deadline
            raise
        self._registry.forget(table)

    async def on_time(self, table: Table) -> None:
        """The table's timer is due: bets or decisions ran out."""
        now = self._clock.now()
        if table.phase is TablePhase.BETTING:
            if table.deadline is not None and table.deadline <= now:
                await self._betting_timed_out(table)
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
