"""How a table moves through a round: open betting, deal, act, settle, shuffle, close.

Every step here runs while the caller holds the table's lock, and ends with
``_changed`` (a new snapshot, timers rescheduled). Publishing happens outside
the lock, in the service's public methods and in the timer task.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable

import db
from bot.clock import Clock
from bot.engine import Action, Round, RoundPhase, Rules, Shoe, Verdict
from bot.log_context import bind
from bot.shown_names import shown_name
from bot.tables import chip_limit
from bot.tables.results import (
    event_lines,
    hand_results,
    payouts_of,
    result_lines,
    shuffle_notice,
)
from bot.tables.snapshot import TablePhase, TableSnapshot
from bot.tables.snapshot_builder import build_snapshot
from bot.tables.table import Table

log = logging.getLogger(__name__)

Publish = Callable[[TableSnapshot], Awaitable[None]]
#: Builds the shoe for a table's rules; tests pass one that deals stacked cards.
ShoeFactory = Callable[[Rules], Shoe]


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


class TableFlow:
    """The round steps shared by the public service methods and the timers."""

    def __init__(
        self,
        store: db.Store,
        clock: Clock,
        publish: Publish | None,
        shoe_factory: ShoeFactory | None,
    ) -> None:
        self._store = store
        self._clock = clock
        self._publish = publish
        self._shoe_factory = shoe_factory or fresh_shoe
        self._tables: dict[str, Table] = {}
        self._by_channel: dict[int, str] = {}
        #: Decks of shoes this process retired, so /blackjack fairness can name them.
        self._retired_decks: dict[str, int] = {}
        #: Tables closed in this process, so their old buttons say so (not "restarted").
        self._closed_ids: set[str] = set()

    # ----------------------------------------------------------- snapshots

    def _changed(self, table: Table) -> TableSnapshot:
        """A new snapshot (version + 1) and the timer set for the next due time."""
        table.version += 1
        table.snapshot = build_snapshot(table, table.version)
        self._reschedule(table)
        return table.snapshot

    async def _emit(self, snapshot: TableSnapshot) -> None:
        """Hand a snapshot to the Discord layer; its failures are logged, never raised."""
        if self._publish is None:
            return
        try:
            await self._publish(snapshot)
        except Exception:
            log.exception("publishing table %s v%s failed", snapshot.table_id, snapshot.version)

    def _names(self, table: Table) -> dict[str, str]:
        """Each seated player's name as the table's texts show it (see ``shown_name``)."""
        return {seat.pid: shown_name(seat.player.name) for seat in table.seats}

    # ----------------------------------------------------------- betting

    async def _open_betting(self, table: Table) -> None:
        """Remove leavers, open the next round in the store, start the bet timer."""
        self._remove_leavers(table)
        if not table.seats:
            await self._close(table, "Everyone left the table.")
            return
        now = self._clock.now()
        table.round_id = await self._store.open_round(
            table.guild_id,
            table.channel_id,
            json.dumps(table.rules.to_dict(), sort_keys=True),
            table.shoe.commitment,
        )
        if table.message_id is not None:
            await self._store.set_round_message(table.round_id, table.message_id)
        table.round_no += 1
        table.phase = TablePhase.BETTING
        table.round = None
        table.insurance_offered = False
        table.deadline = now + table.timers.bet_s
        for seat in table.seats:
            seat.bet = seat.spots = 0
            seat.deadline = None

    def _remove_leavers(self, table: Table) -> None:
        table.seats = [seat for seat in table.seats if not seat.leaving]
        if table.seats and table.seat_of(table.host_id) is None:
            # The host left: the longest-seated player hosts from now on.
            table.host_id = table.seats[0].player.user_id

    async def _betting_timed_out(self, table: Table) -> None:
        """The bet timer ended: deal for those who bet, or void an empty round."""
        if any(seat.spots for seat in table.seats):
            await self._deal(table)
            return
        if table.round_id is not None:
            await self._store.void_round(table.round_id, "nobody bet")
            table.round_id = None
        idle = self._clock.now() - table.idle_since
        if idle >= table.timers.idle_close_s:
            idle_for = duration_text(table.timers.idle_close_s)
            await self._close(table, f"Closed after {idle_for} without bets.")
            return
        await self._open_betting(table)

    # ----------------------------------------------------------- the deal

    async def _deal(self, table: Table) -> None:
        """Deal to every player who bet, in seat order."""
        assert table.round_id is not None
        bets = [(seat.pid, [seat.bet] * seat.spots) for seat in table.seats if seat.spots]
        round_ = Round.deal(table.rules, table.shoe, bets)
        table.round = round_
        table.shuffle_notice = ()
        table.last_results = table.last_summary = ()
        for seat in table.seats:
            seat.last_net = None
        table.insurance_offered = round_.phase is RoundPhase.INSURANCE
        table.events = event_lines(round_.events, self._names(table))
        await self._store.save_round_state(table.round_id, round_.to_json())
        await self._after_play(table, set())

    async def _after_play(self, table: Table, acted: set[str]) -> None:
        """Set phases and deadlines after the round changed; settle it when it is over.

        ``acted``: players whose timer restarts (they just acted); a player whose
        decision is new (play started after insurance) gets a fresh timer too.
        """
        round_ = table.round
        assert round_ is not None
        if round_.is_finished:
            await self._settle(table)
            return
        now = self._clock.now()
        new_phase = (
            TablePhase.INSURANCE if round_.phase is RoundPhase.INSURANCE else TablePhase.PLAYING
        )
        phase_started = new_phase is not table.phase
        table.phase = new_phase
        to_act = set(round_.players_to_act())
        if phase_started:
            table.deadline = (
                now + table.timers.action_s if new_phase is TablePhase.INSURANCE else None
            )
        for seat in table.seats:
            if seat.pid not in to_act:
                seat.deadline = None
            elif phase_started or seat.pid in acted or seat.deadline is None:
                seat.deadline = now + table.timers.action_s

    async def _apply(self, table: Table, verdict: Verdict) -> None:
        """Apply a judged (legal) and paid-for action, and save the round."""
        round_ = table.round
        assert round_ is not None
        assert table.round_id is not None
        pid = verdict.player_id
        events = round_.play(verdict)
        table.events.extend(event_lines(events, self._names(table)))
        # The saved round is the durable point a restarted bot resumes the round from, so
        # it is written before the click is answered. (Until resuming is built, start-up
        # only voids open rounds, and nothing reads it back.)
        await self._store.save_round_state(table.round_id, round_.to_json())
        await self._after_play(table, {pid})

    async def _action_timed_out(self, table: Table) -> None:
        """Players past their deadline: insurance declined, or every hand stood."""
        round_ = table.round
        assert round_ is not None
        assert table.round_id is not None
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
        for pid in late:
            if round_.is_finished:
                break
            if round_.phase is RoundPhase.INSURANCE:
                # Timing out of the insurance question declines it; play goes on as usual.
                if Action.NO_INSURANCE in round_.legal_actions(pid):
                    events = round_.act(pid, Action.NO_INSURANCE)
                else:
                    events = []
            else:
                events = round_.stand_all(pid)
            table.events.extend(event_lines(events, self._names(table)))
        await self._store.save_round_state(table.round_id, round_.to_json())
        for seat in table.seats:
            if seat.pid in late:
                seat.deadline = None
        await self._after_play(table, set())

    # ----------------------------------------------------------- settlement

    async def _settle(self, table: Table) -> None:
        """Pay the finished round in one transaction, then shuffle if due and bet again."""
        round_ = table.round
        assert round_ is not None
        assert table.round_id is not None
        settlement = round_.settlement()
        bets = {seat.pid: seat.bet for seat in table.seats if seat.spots}
        unpaid = await self._pay(
            table.round_id,
            payouts_of(settlement),
            hand_results(settlement, bets),
            round_.to_json(),
        )
        table.round_id = None
        # Idle time counts from the end of the last round played, not from its bets.
        table.idle_since = self._clock.now()
        for seat in table.seats:
            if seat.spots:
                seat.standing.record(settlement)
                seat.last_net = settlement.player(seat.pid).net
                table.last_bets[seat.player.user_id] = (seat.bet, seat.spots)
        names = self._names(table)
        table.last_results = result_lines(settlement, names, unpaid)
        table.last_summary = result_lines(settlement, names, unpaid, detailed=False)
        table.events = []
        table.round = None
        for seat in table.seats:
            seat.deadline = None
        if table.shoe.cut_card_reached:
            await self._new_shoe(table)
        await self._open_betting(table)

    async def _pay(
        self,
        round_id: int,
        payouts: dict[int, int],
        hands: list[db.HandResult],
        state_json: str,
    ) -> dict[str, int]:
        """Settle the round; a player the ceiling stops is paid up to it, nobody else changes.

        The chips that did not fit, per player id (empty unless chips reached a
        player from elsewhere during the round: bets are checked against the ceiling).
        """
        unpaid: dict[str, int] = {}
        while True:
            try:
                await self._store.settle_round(round_id, payouts, hands, state_json)
                return unpaid
            except db.BalanceLimitExceeded as error:
                who = error.user_id
                if who is None or str(who) in unpaid:
                    raise
                room = max(0, error.limit - error.balance)
                unpaid[str(who)] = payouts[who] - room
                log.warning("round %s: %s is paid %s short of the chip limit", round_id, who, room)
                payouts, hands = chip_limit.capped(payouts, hands, who, room)

    async def _new_shoe(self, table: Table) -> None:
        """Retire the shoe (reveal its seed), start a new one, announce action and standing."""
        old = table.shoe
        if old.seed:
            # A stacked test shoe has no seed to reveal.
            table.previous_shoe = await self._store.reveal_seed(old.commitment, old.seed.hex())
            table.previous_decks = old.decks
            self._retired_decks[old.commitment] = old.decks
        table.shoe = self._shoe_factory(table.rules)
        await self._store.open_shoe(table.guild_id, table.channel_id, table.shoe.commitment)
        staying = [seat for seat in table.seats if not seat.leaving]
        table.shuffle_notice = shuffle_notice(staying, table.shoe.commitment)

    # ----------------------------------------------------------- closing

    async def _close(self, table: Table, reason: str) -> None:
        """Void and refund an open round (once), mark the table closed, stop its timer."""
        if table.round_id is not None:
            round_id, table.round_id = table.round_id, None
            await self._store.void_round(round_id, reason)
        table.phase = TablePhase.CLOSED
        table.closed_reason = reason
        table.deadline = None
        for seat in table.seats:
            seat.deadline = None
        self._tables.pop(table.table_id, None)
        self._closed_ids.add(table.table_id)
        if self._by_channel.get(table.channel_id) == table.table_id:
            del self._by_channel[table.channel_id]

    # ----------------------------------------------------------- timers

    def _reschedule(self, table: Table) -> None:
        """One timer task per table, sleeping until its next due time."""
        old = table.timer
        due = table.next_due()
        if (
            due is not None
            and due == table.timer_due
            and old is not None
            and not old.done()
            and old is not asyncio.current_task()
        ):
            # Already asleep until then (a player acted, another's deadline comes first):
            # keep it rather than cancel one task and start another at every click.
            return
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        table.timer, table.timer_due = None, due
        if due is not None:
            table.timer = asyncio.create_task(
                self._timer(table, due), name=f"table {table.table_id} timer"
            )

    async def _timer(self, table: Table, due: float) -> None:
        await self._clock.sleep_until(due)
        bind(table_id=table.table_id, round_id=table.round_id)
        try:
            async with table.lock:
                if table.closed or table.timer is not asyncio.current_task():
                    return
                await self._on_time(table)
                snapshot = self._changed(table)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the timer of table %s failed; closing it", table.table_id)
            snapshot = await self._close_after_error(table)
        await self._emit(snapshot)

    async def _on_time(self, table: Table) -> None:
        now = self._clock.now()
        if table.phase is TablePhase.BETTING:
            if table.deadline is not None and table.deadline <= now:
                await self._betting_timed_out(table)
        elif table.round is not None:
            due = table.next_due()
            if due is not None and due <= now:
                await self._action_timed_out(table)

    async def _close_after_error(self, table: Table) -> TableSnapshot:
        """A step failed: close the table and refund its round rather than leave it stuck."""
        async with table.lock:
            if not table.closed:
                try:
                    await self._close(table, "Something went wrong; any open round was refunded.")
                except Exception:
                    log.exception("closing table %s after an error failed", table.table_id)
                    table.phase = TablePhase.CLOSED
                    self._tables.pop(table.table_id, None)
                    self._by_channel.pop(table.channel_id, None)
            return self._changed(table)
