"""A stored table rebuilt as it was last committed: its document, and its round replayed.

Start-up resumes tables this way (resume.py), and a paused table reloads itself this
way when the store takes writes again (changes.py): the database, not memory, says where
the table stands, since a write that failed may have changed memory and not the store.
"""

from __future__ import annotations

import dataclasses
from typing import Final

import db
from bot.tables.durable import LoadModeState, restore_table
from bot.tables.journal import JournalError, replay
from bot.tables.snapshot import TablePhase
from bot.tables.table import Table

#: What a reload takes from the stored table: everything but what belongs to the live
#: object (its lock, timer, recovery task, snapshot and its version number).
_RELOADED: Final = tuple(
    f.name
    for f in dataclasses.fields(Table)
    if f.name not in {"lock", "version", "snapshot", "timer", "timer_due", "paused", "recovery"}
)


def rebuilt(stored: db.StoredTable, load_mode: LoadModeState) -> Table:
    """The table ``stored`` describes, its round replayed from the journal.

    UnreadableTable or JournalError when it cannot be rebuilt.
    """
    table = restore_table(stored, stored.previous_shoe, load_mode)
    if stored.round_id is not None and stored.actions:
        try:
            replay(table, stored.actions)
        except (KeyError, TypeError, ValueError) as error:
            raise JournalError(str(error)) from None
    elif table.phase is not TablePhase.BETTING:
        table.phase = TablePhase.BETTING  # a round not dealt yet is still taking bets
    return table


def reload_into(live: Table, stored: Table) -> None:
    """Make the live table what the store holds, keeping its lock, version and tasks."""
    for name in _RELOADED:
        setattr(live, name, getattr(stored, name))
