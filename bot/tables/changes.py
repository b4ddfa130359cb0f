"""How a table changes: under its lock, by a player or by its timer, then published.

A change runs under the table's lock and is published after it; a TableError
changes nothing. A store that cannot take the write pauses the table (TablePaused:
it reloads itself from the store and goes on once the store is back); anything
else closes the table and refunds its round, and if that close cannot commit
either, the table is paused too.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

import db
from bot.clock import Clock
from bot.i18n import _
from bot.log_context import bind
from bot.tables.durable import UnreadableTable
from bot.tables.errors import StaleButton, TableError, TablePaused
from bot.tables.flow import RoundFlow
from bot.tables.journal import JournalError
from bot.tables.registry import CLOSED, TableRegistry
from bot.tables.snapshot import TablePhase, TableSnapshot
from bot.tables.snapshot_builder import build_snapshot
from bot.tables.stored import rebuilt, reload_into
from bot.tables.table import Table

T = TypeVar("T")
log = logging.getLogger(__name__)

Publish = Callable[[TableSnapshot], Awaitable[None]]
#: Whether a table's timer may act now (by table id): the display says, for a table whose
#: message it can only update while it holds a valid interaction token.
TimerGate = Callable[[str], bool]


def every_timer_acts(_table_id: str) -> bool:
    """The gate of tables whose messages the bot may always edit: every timer acts."""
    return True


#: A paused table tries to reload after this long, then twice as long each time, up to
#: RETRY_MAX_S: soon after a short outage, without hammering a database that is down.
RETRY_FIRST_S = 1.0
RETRY_MAX_S = 15.0
BROKEN = _("Something went wrong at this table: it closed, and any open round was refunded.")


class TableChanges:
    """The one way a live table changes, its timers, and its pause while the store is out."""

    def __init__(
        self,
        store: db.Store,
        clock: Clock,
        registry: TableRegistry,
        flow: RoundFlow,
        publish: Publish | None = None,
    ) -> None:
        self._store = store
        self._clock = clock
        self._registry = registry
        self._flow = flow
        self._publish = publish
        #: Set by a graceful stop: no timer or recovery starts any more.
        self._suspended = False
        #: A timer that wakes while its gate is shut does nothing; the table waits for a click.
        self.timer_gate: TimerGate = every_timer_acts

    # ----------------------------------------------------------- a change

    @staticmethod
    def check_open(table: Table) -> None:
        """After waiting for the lock: the table may have paused or closed meanwhile."""
        if table.paused:
            raise TablePaused()
        if table.closed:
            raise StaleButton(CLOSED)

    async def mutate(
        self, table: Table, change: Callable[[], Awaitable[T]]
    ) -> tuple[T, TableSnapshot]:
        """Run ``change`` under the table's lock, then publish the new snapshot.

        A TableError leaves everything as it was (each check comes before any
        change). Anything else is a bug or a lost database: the table closes and
        refunds its round rather than stay half-changed.
        """
        bind(guild_id=table.guild_id, channel_id=table.channel_id, table_id=table.table_id)
        try:
            async with table.lock:
                self.check_open(table)
                bind(round_id=table.round_id)
                result = await change()
                snapshot = self.changed(table)
        except TableError:
            raise
        except db.StoreUnavailable as error:
            self.pause(table, error)
            raise TablePaused() from None
        except Exception:
            log.exception("table %s failed; closing it", table.table_id)
            closed = await self.close_after_error(table)
            if closed is None:  # the close did not commit either: nothing was refunded
                raise TablePaused() from None
            await self.emit(closed)
            raise TableError(BROKEN) from None
        await self.emit(snapshot)
        return result, snapshot

    def changed(self, table: Table) -> TableSnapshot:
        """A new snapshot (version + 1) and the timer set for the next due time."""
        table.version += 1
        table.snapshot = self.snapshot_of(table)
        self._reschedule(table)
        return table.snapshot

    def snapshot_of(self, table: Table) -> TableSnapshot:
        """The table as it stands, with what its game mode shows."""
        mode = self._flow.mode_of(table)
        return build_snapshot(
            table,
            table.version,
            panel=mode.panel(table),
            hidden_bets=mode.hidden_bets(table),
            rebets=mode.rebets,
            bet_limits=mode.bet_limits(table, None),
        )

    async def emit(self, snapshot: TableSnapshot) -> None:
        """Hand a snapshot to the Discord layer; its failures are logged, never raised."""
        if self._publish is None:
            return
        try:
            await self._publish(snapshot)
        except Exception:
            log.exception("publishing table %s v%s failed", snapshot.table_id, snapshot.version)

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
                if (
                    table.closed
                    or table.paused
                    or table.timer is not asyncio.current_task()
                    or not self.timer_gate(table.table_id)
                ):
                    return
                await self._flow.on_time(table)
                snapshot = self.changed(table)
        except asyncio.CancelledError:
            raise
        except db.StoreUnavailable as error:
            self.pause(table, error)
            return
        except Exception:
            log.exception("the timer of table %s failed; closing it", table.table_id)
            snapshot = await self.close_after_error(table)
        if snapshot is not None:
            await self.emit(snapshot)

    async def close_after_error(self, table: Table) -> TableSnapshot | None:
        """A step failed (a bug): close the table and refund its round rather than leave it
        stuck. None if the close could not commit: the table is paused instead, and
        nothing claims a refund that did not happen."""
        async with table.lock:
            if not table.closed:
                try:
                    await self._flow.close(
                        table, _("Something went wrong; any open round was refunded.")
                    )
                except Exception as error:
                    log.exception("closing table %s after an error failed", table.table_id)
                    self.pause(table, error)
                    return None
            return self.changed(table)

    # ----------------------------------------------------------- pausing

    def pause(self, table: Table, error: BaseException) -> None:
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
            await self.emit(snapshot)
            return

    async def _reload(self, table: Table) -> TableSnapshot:
        """The paused table as the store holds it, carried on by one write (the proof that
        the store takes writes again). Under the table's lock."""
        stored = await self._store.tables.open_table(table.table_id)
        if stored is None:  # its close committed, though its caller heard otherwise
            table.phase = TablePhase.CLOSED
            table.paused = False
            self._registry.forget(table)
            return self.changed(table)
        try:
            fresh = rebuilt(stored, self._flow.load_mode_state)
        except (UnreadableTable, JournalError) as error:
            log.warning("table %s cannot reload: %s", table.table_id, error)
            table.round_id = stored.round_id
            await self._flow.close(
                table,
                _("It could not go on: {reason}. Any open round was refunded.", reason=str(error)),
            )
            table.paused = False
            return self.changed(table)
        reload_into(table, fresh)
        self._flow.rearm(table)
        await self._flow.carry_on(table, write=True)
        table.paused = False
        return self.changed(table)

    # ----------------------------------------------------------- a graceful stop

    async def suspend(self) -> None:
        """Let steps in flight finish (each durable), then stop every timer and recovery."""
        self._suspended = True
        timers: list[asyncio.Task[None]] = []
        for table in list(self._registry.tables.values()):
            async with table.lock:
                for task in (table.timer, table.recovery):
                    if task is not None and task is not asyncio.current_task():
                        task.cancel()
                        timers.append(task)
                table.timer, table.timer_due, table.recovery = None, None, None
        await asyncio.gather(*timers, return_exceptions=True)


class TableStep:
    """What each kind of change a player starts works with (opening a table, betting and
    seats, decisions): the store and clock, the live tables, the round's flow, and
    :class:`TableChanges`, through which it changes a table."""

    def __init__(
        self,
        store: db.Store,
        clock: Clock,
        registry: TableRegistry,
        flow: RoundFlow,
        changes: TableChanges,
    ) -> None:
        self._store = store
        self._clock = clock
        self._registry = registry
        self._flow = flow
        self._changes = changes
