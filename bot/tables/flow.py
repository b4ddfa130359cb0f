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
from functools import lru_cache

import db
from bot.clock import Clock
from bot.engine import Rules, Shoe, Verdict
from bot.log_context import bind
from bot.tables import chip_limit
from bot.tables.durable import UnreadableTable, rules_dict, table_write
from bot.tables.journal import (
    TIMEOUT,
    JournalError,
    apply_decision,
    begin_round,
    deal_round,
    decision,
    set_deadlines,
)
from bot.tables.journal import names as seat_names
from bot.tables.results import hand_results, payouts_of, result_lines, shuffle_notice
from bot.tables.snapshot import TablePhase, TableSnapshot
from bot.tables.snapshot_builder import build_snapshot
from bot.tables.stored import rebuilt, reload_into
from bot.tables.table import Table

log = logging.getLogger(__name__)

Publish = Callable[[TableSnapshot], Awaitable[None]]
#: Builds the shoe for a table's rules; tests pass one that deals stacked cards.
ShoeFactory = Callable[[Rules], Shoe]
#: A paused table tries to reload after this long, then twice as long each time, up to
#: RETRY_MAX_S: soon after a short outage, without hammering a database that is down.
RETRY_FIRST_S = 1.0
RETRY_MAX_S = 15.0


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
        #: SHARD_COUNT of this process (1 unsharded), stored with each table.
        self.shard_count = 1
        #: Set by a graceful stop: no timer starts any more.
        self._suspended = False

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
        return seat_names(table)

    def _write(self, table: Table, *, between_rounds: bool = False) -> db.TableWrite:
        """The table's stored document, to commit with the change that produced it."""
        return table_write(table, self.shard_count, between_rounds=between_rounds)

    async def _save(self, table: Table) -> None:
        """Make a change that moves no chips durable (a join, a leave, a new round)."""
        await self._store.save_table(self._write(table))

    # ----------------------------------------------------------- betting

    async def _open_betting(self, table: Table) -> None:
        """Remove leavers, open the next round in the store, start the bet timer."""
        self._remove_leavers(table)
        if not table.seats:
            await self._close(table, "Everyone left the table.")
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
        for seat in table.seats:
            seat.bet = seat.spots = 0
            seat.deadline = None
        try:
            # The round, its message and the table's new document: one transaction.
            table.round_id = await self._store.open_round(
                table.guild_id,
                table.channel_id,
                _rules_json(table.rules),
                table.shoe.commitment,
                message_id=table.message_id,
                table=self._write(table),
            )
        except BaseException:
            table.round_no, table.phase, table.round, table.insurance_offered = before
            table.deadline = deadline_before
            for seat, (bet, spots, deadline) in zip(table.seats, seats_before, strict=True):
                seat.bet, seat.spots, seat.deadline = bet, spots, deadline
            raise

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
            write = self._write(table, between_rounds=True)
            await self._store.void_round(table.round_id, "nobody bet", table=write)
            table.round_id = None
        idle = self._clock.now() - table.idle_since
        if idle >= table.timers.idle_close_s:
            idle_for = duration_text(table.timers.idle_close_s)
            await self._close(table, f"Closed after {idle_for} without bets.")
            return
        await self._open_betting(table)

    # ----------------------------------------------------------- the deal

    async def _deal(self, table: Table) -> None:
        """Deal to every player who bet, in seat order (the deal is the journal's first row)."""
        round_, row = deal_round(table, self._clock.now())
        await self._store.append_actions([row])
        begin_round(table, round_)
        await self._after_play(table, set())

    async def _after_play(self, table: Table, acted: set[str]) -> None:
        """Set phases and deadlines after the round changed; settle it when it is over."""
        round_ = table.round
        assert round_ is not None
        if round_.is_finished:
            await self._settle(table)
            return
        set_deadlines(table, acted, self._clock.now())

    async def _apply(self, table: Table, row: db.TableAction, verdict: Verdict) -> None:
        """Apply a judged (legal), paid-for, journaled decision; settle if it ends the round."""
        apply_decision(table, row, verdict)
        round_ = table.round
        assert round_ is not None
        if round_.is_finished:
            await self._settle(table)

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
            await self._settle(table)

    # ----------------------------------------------------------- settlement

    async def _settle(self, table: Table) -> None:
        """Pay the finished round in one transaction with the table's new document, then
        shuffle if due and bet again."""
        round_ = table.round
        assert round_ is not None
        assert table.round_id is not None
        settlement = round_.settlement()
        bets = {seat.pid: seat.bet for seat in table.seats if seat.spots}
        # Idle time counts from the end of the last round played, not from its bets.
        table.idle_since = self._clock.now()
        for seat in table.seats:
            if seat.spots:
                seat.standing.record(settlement)
                seat.last_net = settlement.player(seat.pid).net
                table.last_bets[seat.player.user_id] = (seat.bet, seat.spots)
            seat.deadline = None
        table.events = []
        table.round = None

        def settled(unpaid: dict[str, int]) -> db.TableWrite:
            names = self._names(table)
            table.last_results = result_lines(settlement, names, unpaid)
            table.last_summary = result_lines(settlement, names, unpaid, detailed=False)
            return self._write(table, between_rounds=True)

        await self._pay(
            table.round_id,
            payouts_of(settlement),
            hand_results(settlement, bets),
            round_.to_json(),
            settled,
        )
        table.round_id = None
        await self._next_round(table)

    async def _next_round(self, table: Table) -> None:
        """After a settlement: a new shoe when the cut card came out, then betting."""
        if table.shoe.cut_card_reached:
            await self._new_shoe(table)
        await self._open_betting(table)

    async def _pay(
        self,
        round_id: int,
        payouts: dict[int, int],
        hands: list[db.HandResult],
        state_json: str,
        settled: Callable[[dict[str, int]], db.TableWrite],
    ) -> dict[str, int]:
        """Settle the round; a player the ceiling stops is paid up to it, nobody else changes.

        ``settled(unpaid)``: the table's document afterwards, committed with the payouts.

        The chips that did not fit, per player id (empty unless chips reached a
        player from elsewhere during the round: bets are checked against the ceiling).
        """
        unpaid: dict[str, int] = {}
        while True:
            try:
                write = settled(unpaid)
                await self._store.settle_round(round_id, payouts, hands, state_json, table=write)
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
        """Void and refund an open round (once), mark the table closed, stop its timer.

        The table's document is marked closed in the refund's transaction: it never resumes.
        """
        round_id, table.round_id = table.round_id, None
        table.phase = TablePhase.CLOSED
        table.closed_reason = reason
        table.deadline = None
        for seat in table.seats:
            seat.deadline = None
        if round_id is not None:
            await self._store.void_round(round_id, reason, table=self._write(table))
        else:
            await self._store.close_table(table.table_id)
        self._forget(table)

    def _forget(self, table: Table) -> None:
        """A closed table leaves its channel; its old buttons say it closed."""
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
        if due is not None and not self._suspended:
            table.timer = asyncio.create_task(
                self._timer(table, due), name=f"table {table.table_id} timer"
            )

    async def _timer(self, table: Table, due: float) -> None:
        await self._clock.sleep_until(due)
        bind(table_id=table.table_id, round_id=table.round_id)
        snapshot: TableSnapshot | None
        try:
            async with table.lock:
                if table.closed or table.paused or table.timer is not asyncio.current_task():
                    return
                await self._on_time(table)
                snapshot = self._changed(table)
        except asyncio.CancelledError:
            raise
        except db.StoreUnavailable as error:
            self._pause(table, error)
            return
        except Exception:
            log.exception("the timer of table %s failed; closing it", table.table_id)
            snapshot = await self._close_after_error(table)
        if snapshot is not None:
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

    async def _close_after_error(self, table: Table) -> TableSnapshot | None:
        """A step failed (a bug): close the table and refund its round rather than leave it
        stuck. None if the close could not commit: the table is paused instead, and
        nothing claims a refund that did not happen."""
        async with table.lock:
            if not table.closed:
                try:
                    await self._close(table, "Something went wrong; any open round was refunded.")
                except Exception as error:
                    log.exception("closing table %s after an error failed", table.table_id)
                    self._pause(table, error)
                    return None
            return self._changed(table)

    # ----------------------------------------------------------- pausing

    def _pause(self, table: Table, error: BaseException) -> None:
        """A write failed: the table waits (as the store last committed it) and reloads
        itself from the store, with backoff, once the store takes writes again.

        The table stays registered in its channel: clicks are refused with TablePaused,
        and /blackjack start points at it. Its memory may hold half of the change that
        failed; the reload replaces it, and the last published snapshot stands until then.
        """
        if table.paused:
            return
        log.warning("table %s paused: %s", table.table_id, error)
        table.paused = True
        if table.timer is not None and table.timer is not asyncio.current_task():
            table.timer.cancel()
        table.timer, table.timer_due = None, None
        if not self._suspended:
            table.recovery = asyncio.create_task(
                self._recover(table), name=f"table {table.table_id} recovery"
            )

    async def _recover(self, table: Table) -> None:
        """Retry the reload with backoff on the table's clock until it works."""
        delay = RETRY_FIRST_S
        while True:
            await self._clock.sleep(delay)
            delay = min(delay * 2, RETRY_MAX_S)
            try:
                async with table.lock:
                    snapshot = await self._reload(table)
            except db.StoreUnavailable as error:
                log.info("table %s waits: %s", table.table_id, error)
                continue
            except Exception:
                log.exception("table %s could not reload after its pause", table.table_id)
                continue
            table.recovery = None
            log.info("table %s goes on: the store takes writes again", table.table_id)
            await self._emit(snapshot)
            return

    async def _reload(self, table: Table) -> TableSnapshot:
        """The paused table as the store holds it, carried on by one write (the proof that
        the store takes writes again). Under the table's lock."""
        stored = await self._store.open_table(table.table_id)
        if stored is None:  # its close committed, though its caller heard otherwise
            table.phase = TablePhase.CLOSED
            table.paused = False
            self._forget(table)
            return self._changed(table)
        try:
            fresh = rebuilt(stored)
        except (UnreadableTable, JournalError) as error:
            log.warning("table %s cannot reload: %s", table.table_id, error)
            table.round_id = stored.round_id
            await self._close(table, f"It could not go on: {error}. Any open round was refunded.")
            table.paused = False
            return self._changed(table)
        reload_into(table, fresh)
        self._rearm(table)
        await self._carry_on(table, write=True)
        table.paused = False
        return self._changed(table)

    async def _carry_on(self, table: Table, *, write: bool = False) -> None:
        """The step a rebuilt table was stopped before: betting after a settlement, the
        settlement after the last decision (else, with ``write``, its document saved)."""
        if table.round_id is None:
            await self._next_round(table)  # stopped between settlement and betting
        elif table.round is not None and table.round.is_finished:
            await self._settle(table)  # stopped after the last decision
        elif write:
            await self._save(table)

    def _rearm(self, table: Table) -> None:
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
