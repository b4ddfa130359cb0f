"""Durable tables: the table document and the journal of each round's decisions.

A table's document is replaced (upsert) with every change outside the cards, in
the same transaction as the ledger rows that change moves; a decision in play
is one appended ``table_actions`` row. Together they let a restarted bot
resume every table exactly where it was, and they never disagree with the
ledger because they commit with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from types import GeneratorType
from typing import Any, TypeVar

from db.models import StoredTable, TableAction, TableWrite
from db.ops import rounds
from db.ops.shoes import last_revealed_shoe
from db.statements import Many, Op, Query

T = TypeVar("T")

_UPSERT = (
    "INSERT INTO live_tables (table_id, guild_id, channel_id, message_id, round_id, shard_count,"
    " status, state_json, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (table_id) DO UPDATE SET message_id = excluded.message_id,"
    " round_id = excluded.round_id, shard_count = excluded.shard_count,"
    " status = excluded.status, state_json = excluded.state_json,"
    " updated_at = excluded.updated_at"
    # A closed table stays closed: a late write from a step in flight cannot reopen it.
    " WHERE live_tables.status = 'open'"
)
_APPEND = (
    "INSERT INTO table_actions (table_id, round_id, player, action, detail, at)"
    " VALUES (?, ?, ?, ?, ?, ?)"
)


def _micros(seconds: float) -> int:
    return round(seconds * 1_000_000)


def save_table(write: TableWrite, now: int) -> Op[None]:
    """Replace the table's document (or store its first)."""
    status = "open" if write.is_open else "closed"
    row = (write.table_id, write.guild_id, write.channel_id, write.message_id, write.round_id)
    yield Many(_UPSERT, [(*row, write.shard_count, status, write.state_json, now)], blind=True)


def append_actions(actions: Sequence[TableAction]) -> Op[None]:
    """Append decisions to their rounds' journals, in order."""
    if actions:
        yield Many(
            _APPEND,
            [
                (a.table_id, a.round_id, a.player, a.action, a.detail, _micros(a.at))
                for a in actions
            ],
            blind=True,
        )


def along_with(
    op: Op[T], table: TableWrite | None, actions: Sequence[TableAction], now: int
) -> Op[T]:
    """``op``, then the table's document and journal rows, in ``op``'s transaction.

    It keeps ``op``'s name: the store's metrics name a transaction by its operation.
    """
    return named_like(op, _along_with(op, table, actions, now))


def named_like(op: Op[Any], composed: Op[T]) -> Op[T]:
    """``composed``, named as ``op`` (the store's metrics name a transaction by its operation)."""
    if isinstance(composed, GeneratorType) and isinstance(op, GeneratorType):
        composed.__name__ = op.__name__
    return composed


def _along_with(
    op: Op[T], table: TableWrite | None, actions: Sequence[TableAction], now: int
) -> Op[T]:
    result = yield from op
    if table is not None:
        yield from save_table(table, now)
    yield from append_actions(actions)
    return result


def open_table_round(
    guild_id: int,
    channel_id: int,
    rules_json: str,
    commitment: str,
    now: int,
    message_id: int | None,
    table: TableWrite | None,
) -> Op[int]:
    """``open_round``, then its message and the table's document (with the new round's id)."""
    round_id = yield from rounds.open_round(
        guild_id, channel_id, rules_json, commitment, now, message_id
    )
    if table is not None:
        yield from save_table(replace(table, round_id=round_id), now)
    return round_id


_OPEN_TABLES = (
    "SELECT table_id, guild_id, channel_id, message_id, round_id, shard_count, state_json"
    " FROM live_tables WHERE status = 'open'"
)


def open_tables(
    guild_ids: Sequence[int] | None, *, table_id: str | None = None, channel_id: int | None = None
) -> Op[list[StoredTable]]:
    """Every open table (of these guilds, if given; or the one with this id, or in this
    channel), each with its round's journal."""
    if table_id is not None:
        rows = yield Query(_OPEN_TABLES + " AND table_id = ?", (table_id,))
    elif channel_id is not None:
        rows = yield Query(_OPEN_TABLES + " AND channel_id = ? ORDER BY table_id", (channel_id,))
    else:
        rows = yield Query(_OPEN_TABLES + " ORDER BY table_id")
    wanted = None if guild_ids is None else set(guild_ids)
    rows = [row for row in rows if wanted is None or int(row[1]) in wanted]
    round_ids = [int(row[4]) for row in rows if row[4] is not None]
    journals: dict[int, list[TableAction]] = {}
    # In chunks: 1,000 tables are one query per chunk, not one per table.
    for start in range(0, len(round_ids), 500):
        chunk = round_ids[start : start + 500]
        marks = ", ".join("?" for _ in chunk)
        found = yield Query(
            "SELECT table_id, round_id, player, action, detail, at FROM table_actions"
            f" WHERE round_id IN ({marks}) ORDER BY id",
            tuple(chunk),
        )
        for table_id, round_id, player, action, detail, at in found:
            journals.setdefault(int(round_id), []).append(
                TableAction(str(table_id), int(round_id), player, action, detail, at / 1e6)
            )
    # In this transaction, so every table and its last shoe come from one snapshot.
    previous = {}
    for row in rows:
        previous[row[0]] = yield from last_revealed_shoe(int(row[1]), int(row[2]))
    return [
        StoredTable(
            table_id=str(table_id),
            guild_id=int(guild_id),
            channel_id=int(channel_id),
            message_id=None if message_id is None else int(message_id),
            round_id=None if round_id is None else int(round_id),
            shard_count=int(shard_count),
            state_json=str(state_json),
            actions=tuple(a for a in journals.get(int(round_id), ()) if a.table_id == table_id)
            if round_id is not None
            else (),
            previous_shoe=previous[table_id],
        )
        for table_id, guild_id, channel_id, message_id, round_id, shard_count, state_json in rows
    ]


def round_actions(round_id: int) -> Op[list[TableAction]]:
    """The journal of one round, oldest first (for replaying a settled round)."""
    found = yield Query(
        "SELECT table_id, round_id, player, action, detail, at FROM table_actions"
        " WHERE round_id = ? ORDER BY id",
        (round_id,),
    )
    return [TableAction(str(t), int(r), p, a, d, at / 1e6) for t, r, p, a, d, at in found]


def close_table(table_id: str, now: int) -> Op[None]:
    """Mark the table closed: it is never resumed."""
    yield Query(
        "UPDATE live_tables SET status = 'closed', updated_at = ? WHERE table_id = ?",
        (now, table_id),
    )


def owned_round_ids() -> Op[set[int]]:
    """The rounds open tables are playing, and the prize pools of open tournaments (a round
    each): start-up resumes them instead of voiding them."""
    rows = yield Query(
        "SELECT round_id FROM live_tables WHERE status = 'open' AND round_id IS NOT NULL"
        " UNION SELECT pool_round_id FROM tournaments WHERE status = 'open'"
    )
    return {int(row[0]) for row in rows}


def shard_counts() -> Op[set[int]]:
    """The SHARD_COUNTs the open tables were saved under."""
    rows = yield Query("SELECT DISTINCT shard_count FROM live_tables WHERE status = 'open'")
    return {int(row[0]) for row in rows}
