"""The open tables, found by id or channel, and the one way a table is changed.

A change runs under the table's lock and is published after it; a TableError
changes nothing. A store that cannot take the write pauses the table (TablePaused:
it goes on once the store is back); anything else closes the table and refunds its
round, and if that close cannot commit either, the table is paused too.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

import db
from bot.engine import Rules
from bot.log_context import bind
from bot.tables.errors import NoTableHere, StaleButton, TableError, TableFull, TablePaused
from bot.tables.fairness import Fairness, fairness_of
from bot.tables.flow import TableFlow
from bot.tables.snapshot import TableSnapshot
from bot.tables.table import Table

T = TypeVar("T")
log = logging.getLogger(__name__)

RESTARTED = (
    "This table is no longer open: it could not resume after the bot restarted, and any "
    "round in play was refunded. Start a new one with /blackjack start."
)
CLOSED = "This table has closed. Start a new one with /blackjack start."
BROKEN = "Something went wrong at this table: it closed, and any open round was refunded."


class TableRegistry(TableFlow):
    """Looking tables up, and changing one under its lock."""

    # ----------------------------------------------------------- reading

    def table_in(self, channel_id: int) -> TableSnapshot | None:
        """The open table in this channel, or None."""
        table_id = self._by_channel.get(channel_id)
        return None if table_id is None else self._tables[table_id].snapshot

    def open_tables(self) -> list[TableSnapshot]:
        """Every open table's latest snapshot."""
        return [t.snapshot for t in self._tables.values() if t.snapshot is not None]

    def get(self, table_id: str) -> TableSnapshot:
        """The table's latest snapshot; StaleButton if the id is unknown or closed."""
        snapshot = self._table(table_id).snapshot
        assert snapshot is not None
        return snapshot

    def rules_of(self, table_id: str) -> Rules:
        """The table's rules (its preset with the table's bet limits)."""
        return self._table(table_id).rules

    def fairness(self, channel_id: int) -> Fairness:
        """The current shoe's commitment and the previous shoe's revealed seed."""
        return fairness_of(self._in_channel(channel_id), self._retired_decks)

    def _table(self, table_id: str) -> Table:
        table = self._tables.get(table_id)
        if table is None:
            raise StaleButton(CLOSED if table_id in self._closed_ids else RESTARTED)
        return table

    def _in_channel(self, channel_id: int) -> Table:
        table_id = self._by_channel.get(channel_id)
        if table_id is None:
            raise NoTableHere()
        return self._tables[table_id]

    @staticmethod
    def _check_open(table: Table) -> None:
        """After waiting for the lock: the table may have paused or closed meanwhile."""
        if table.paused:
            raise TablePaused()
        if table.closed:
            raise StaleButton(CLOSED)

    async def _mutate(
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
                self._check_open(table)
                bind(round_id=table.round_id)
                result = await change()
                snapshot = self._changed(table)
        except TableError:
            raise
        except db.StoreUnavailable as error:
            self._pause(table, error)
            raise TablePaused() from None
        except Exception:
            log.exception("table %s failed; closing it", table.table_id)
            closed = await self._close_after_error(table)
            if closed is None:  # the close did not commit either: nothing was refunded
                raise TablePaused() from None
            await self._emit(closed)
            raise TableError(BROKEN) from None
        await self._emit(snapshot)
        return result, snapshot

    @staticmethod
    def _check_room(table: Table) -> None:
        if len(table.seats) >= table.rules.max_players:
            raise TableFull(f"The table is full ({table.rules.max_players} players).")
