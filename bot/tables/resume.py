"""Tables outlive the process: resumed at start-up (a graceful stop, which keeps them
open, is ``TableChanges.suspend``).

Why: a deploy, a crash or a host reboot used to void every round in play. Each
table's document and its round's journal are durable (durable.py, journal.py),
so a new process rebuilds the same table (same id, message, round and cards)
and the buttons already on its message keep working. Only a table that cannot
resume (its state unreadable or from another version; its message or channel
gone, or access lost: found by the first edit) is voided and refunded, once.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field

import db
from bot.i18n import _
from bot.tables.changes import TableChanges
from bot.tables.durable import UnreadableTable
from bot.tables.flow import RoundFlow
from bot.tables.journal import JournalError
from bot.tables.registry import TableRegistry
from bot.tables.snapshot import TableSnapshot
from bot.tables.stored import rebuilt

log = logging.getLogger(__name__)

#: The line a resumed table shows until the next change replaces its events.
BACK = _("The bot restarted: this table is back, with every hand and bet as it was.")


class ShardCountChanged(RuntimeError):
    """Open tables were saved under another SHARD_COUNT: starting would move their guilds."""


@dataclass(frozen=True, slots=True)
class ResumedTable:
    """A table resumed: its snapshot, and its message (to edit: "this table is back")."""

    snapshot: TableSnapshot
    message_id: int
    #: When the message was posted, if known (it is replaced before it is an hour old).
    message_at: float | None


@dataclass
class ResumeReport:
    """What start-up did with the stored tables of this process's guilds."""

    resumed: list[ResumedTable] = field(default_factory=list)
    #: Rounds voided and refunded: of tables that could not resume, and rounds no table owns.
    voided: list[db.VoidResult] = field(default_factory=list)


class Resumer:
    """Stored tables made live again: at start-up, and a channel's before a new table opens."""

    def __init__(
        self, store: db.Store, registry: TableRegistry, flow: RoundFlow, changes: TableChanges
    ) -> None:
        self._store = store
        self._registry = registry
        self._flow = flow
        self._changes = changes

    async def check_shard_count(self) -> None:
        """ShardCountChanged if an open table was saved by a process with another SHARD_COUNT.

        Refused rather than handled: a process still running with the old count would
        keep its tables live while a new process resumed them too.
        """
        counts = await self._store.tables.open_table_shard_counts()
        others = sorted(counts - {self._flow.shard_count})
        if others:
            raise ShardCountChanged(
                f"open tables were saved by processes running SHARD_COUNT={others[0]}, but this"
                f" one runs SHARD_COUNT={self._flow.shard_count}. Start every process with"
                f" SHARD_COUNT={others[0]}, or stop every process and let the tables finish"
                " (or /blackjack stop them) before changing it."
            )

    async def resume(self, guild_ids: Sequence[int] | None = None) -> ResumeReport:
        """Void the rounds no table owns, then resume every open table of ``guild_ids``
        (all when None) that is not live here already."""
        report = ResumeReport(voided=list(await self._store.recover(guild_ids)))
        for stored in await self._store.tables.open_tables(guild_ids):
            if stored.table_id in self._registry.tables:
                continue  # live here already
            if self._registry.live_in(stored.channel_id) is not None:
                # A second open table for one channel (stored before the database kept one
                # per channel): refunded, so no stake waits on a table that never plays.
                reason = "another table is open in its channel"
                log.warning("table %s cannot resume: %s", stored.table_id, reason)
                report.voided.extend(await self._give_up(stored, reason))
                continue
            try:
                snapshot = await self._resume_one(stored)
            except (UnreadableTable, JournalError) as error:
                reason = (
                    str(error)
                    if isinstance(error, UnreadableTable)
                    else ("its saved round could not be replayed")
                )
                log.warning("table %s cannot resume: %s", stored.table_id, reason)
                report.voided.extend(await self._give_up(stored, reason))
                continue
            if snapshot is not None:
                report.resumed.append(snapshot)
        return report

    async def resume_in(self, channel_id: int) -> None:
        """A table open in the store for this channel but not live here (its write or close
        failed before a restart): resumed, or refunded if it cannot resume."""
        for stored in await self._store.tables.open_tables_in(channel_id):
            try:
                await self._resume_one(stored)
            except (UnreadableTable, JournalError) as error:
                await self._give_up(stored, str(error))

    async def _resume_one(self, stored: db.StoredTable) -> ResumedTable | None:
        if stored.message_id is None:
            raise UnreadableTable("its table message was never posted")
        table = rebuilt(stored, self._flow.load_mode_state)
        if table.previous_shoe is not None and table.previous_decks is not None:
            self._registry.retired_decks[table.previous_shoe.commitment] = table.previous_decks
        self._flow.rearm(table)
        # Shown (by /blackjack start's pointer) if the store fails before the first change.
        table.snapshot = self._changes.snapshot_of(table)
        self._registry.add(table)
        try:
            async with table.lock:
                table.events.append(BACK)
                await self._flow.carry_on(table)
                snapshot = self._changes.changed(table)
            return ResumedTable(snapshot, stored.message_id, table.message_at)
        except db.StoreUnavailable as error:
            self._changes.pause(table, error)  # it goes on once the store is back
            return None
        except Exception:
            log.exception("resuming table %s failed; closing it", table.table_id)
            await self._changes.close_after_error(table)
            return None

    async def _give_up(self, stored: db.StoredTable, reason: str) -> list[db.VoidResult]:
        """Void the table's round (the refund), then mark it closed."""
        voided: list[db.VoidResult] = []
        if stored.round_id is not None:
            result = await self._store.void_round(
                stored.round_id, f"the table could not resume: {reason}"
            )
            if not result.already_closed:
                voided.append(result)
        await self._store.tables.close_table(stored.table_id)
        self._registry.mark_closed(stored.table_id)
        return voided
