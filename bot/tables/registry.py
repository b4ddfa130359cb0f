"""The live tables of this process, found by id or by channel.

Only bookkeeping: which tables are open, in which channel, which closed here, and
the decks of the shoes they retired. How a table changes is in changes.py.
"""

from __future__ import annotations

import secrets

from bot.engine import Rules
from bot.i18n import _
from bot.tables.errors import NoTableHere, StaleButton, TableFull
from bot.tables.fairness import Fairness, fairness_of
from bot.tables.side_bets import rules_lines
from bot.tables.snapshot import TableSnapshot
from bot.tables.table import Table

RESTARTED = _(
    "This table is no longer open: it could not resume after the bot restarted, and any "
    "round in play was refunded. Start a new one with /blackjack start."
)
CLOSED = _("This table has closed. Start a new one with /blackjack start.")


class TableRegistry:
    """Every live table, by id and by channel (one open table per channel)."""

    def __init__(self) -> None:
        self.tables: dict[str, Table] = {}
        self._by_channel: dict[int, str] = {}
        #: Decks of shoes this process retired, so /blackjack fairness can name them.
        self.retired_decks: dict[str, int] = {}
        #: Tables closed in this process, so their old buttons say so (not "restarted").
        self._closed_ids: set[str] = set()

    # ----------------------------------------------------------- reading

    def table_in(self, channel_id: int) -> TableSnapshot | None:
        """The open table in this channel, or None."""
        table = self.live_in(channel_id)
        return None if table is None else table.snapshot

    def open_tables(self) -> list[TableSnapshot]:
        """Every open table's latest snapshot."""
        return [t.snapshot for t in self.tables.values() if t.snapshot is not None]

    def get(self, table_id: str) -> TableSnapshot:
        """The table's latest snapshot; StaleButton if the id is unknown or closed."""
        snapshot = self.table(table_id).snapshot
        assert snapshot is not None
        return snapshot

    def rules_of(self, table_id: str) -> Rules:
        """The table's rules (its preset with the table's bet limits)."""
        return self.table(table_id).rules

    def side_bet_lines(self, table_id: str) -> list[str]:
        """The side bets the table offers, with pay tables and house edges (none: empty)."""
        table = self.table(table_id)
        return rules_lines(table.side_bets, table.rules)

    def fairness(self, channel_id: int) -> Fairness:
        """The current shoe's commitment and the previous shoe's revealed seed."""
        return fairness_of(self.in_channel(channel_id), self.retired_decks)

    def table(self, table_id: str) -> Table:
        """The live table; StaleButton (closed, or gone since a restart) if there is none."""
        table = self.tables.get(table_id)
        if table is None:
            raise StaleButton(CLOSED if table_id in self._closed_ids else RESTARTED)
        return table

    def in_channel(self, channel_id: int) -> Table:
        """The channel's live table; NoTableHere if there is none."""
        table = self.live_in(channel_id)
        if table is None:
            raise NoTableHere()
        return table

    def live_in(self, channel_id: int) -> Table | None:
        table_id = self._by_channel.get(channel_id)
        return None if table_id is None else self.tables[table_id]

    @staticmethod
    def check_room(table: Table) -> None:
        """TableFull if every seat is taken."""
        if len(table.seats) >= table.rules.max_players:
            raise TableFull(
                _("The table is full ({count} players).", count=table.rules.max_players)
            )

    # ----------------------------------------------------------- changing

    def new_id(self) -> str:
        """An id no table of this process has had."""
        while True:
            table_id = secrets.token_hex(4)
            if table_id not in self.tables and table_id not in self._closed_ids:
                return table_id

    def add(self, table: Table) -> None:
        """The table is live in its channel."""
        self.tables[table.table_id] = table
        self._by_channel[table.channel_id] = table.table_id

    def forget(self, table: Table) -> None:
        """A closed table leaves its channel; its old buttons say it closed."""
        self.tables.pop(table.table_id, None)
        self.mark_closed(table.table_id)
        if self._by_channel.get(table.channel_id) == table.table_id:
            del self._by_channel[table.channel_id]

    def mark_closed(self, table_id: str) -> None:
        """A table closed without being live here (it could not resume)."""
        self._closed_ids.add(table_id)
