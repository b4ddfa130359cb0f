"""The store's operations on durable tables: ``Store.tables`` (see db.ops.table_state)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from db import checks
from db.group_commit import GroupCommit
from db.models import StoredTable, TableAction, TableWrite
from db.ops import table_state
from db.ops.play_limits import with_notice
from db.statements import Op, Run


def checked_write(table: TableWrite | None) -> TableWrite | None:
    """The write after checking its ids and JSON (ValueError, nothing written)."""
    if table is None:
        return None
    checks.text("table_id", table.table_id)
    checks.snowflake("guild_id", table.guild_id)
    checks.snowflake("channel_id", table.channel_id)
    if table.message_id is not None:
        checks.snowflake("message_id", table.message_id)
    if table.round_id is not None:
        checks.whole("round_id", table.round_id)
    checks.json_text("state_json", table.state_json)
    return table


class TableStates:
    """Saving, journaling and reading back the tables the bot has open.

    Each method checks its arguments (ValueError, nothing touched), then runs one
    operation of ``db.ops.table_state`` through ``run``, the store's transaction runner;
    journal appends go through ``group``, which commits them with other tables' stakes.
    """

    def __init__(self, run: Run, group: GroupCommit, now: Callable[[], int]) -> None:
        #: Runs an operation in a transaction of its own (``Store._run``).
        self._run = run
        #: Stakes and journal appends of many tables, committed together (db.group_commit).
        self._group = group
        #: Now, in the store's microseconds.
        self._now = now

    async def owned_round_ids(self) -> set[int]:
        """The rounds an open table is playing."""
        return await self._run(table_state.owned_round_ids, write=False)

    async def save_table(
        self,
        table: TableWrite,
        actions: Sequence[TableAction] = (),
        *,
        notice_for: int | None = None,
    ) -> bool:
        """Replace the table's document (a closed table stays closed), with journal rows;
        with ``notice_for`` (a bet's player), their no-value notice marked seen in the same
        transaction: True if this was the first time."""
        write, now = checked_write(table), self._now()
        assert write is not None
        u = None if notice_for is None else checks.snowflake("notice_for", notice_for)

        def op() -> Op[tuple[None, bool]]:
            saving = table_state.save_table(write, now)
            noted = with_notice(saving, u or 0, now, u is not None)
            return table_state.along_with(table_state.named_like(saving, noted), None, actions, now)

        _saved, first = await self._run(op, write=True)
        return first

    async def append_actions(self, actions: Sequence[TableAction]) -> None:
        """Append decisions to their rounds' journals (a hit or stand: no chips move).

        Returns once the rows are committed. Appends and stakes of many tables at once
        share a transaction (``db.group_commit``). Each table appends one decision at a
        time (under its lock), so its rows keep their order.
        """
        rows = list(actions)
        if rows:
            await self._group.submit(lambda: table_state.append_actions(rows), refuses=False)

    async def close_table(self, table_id: str) -> None:
        """Mark the table closed, so no start-up resumes it."""
        t, now = checks.text("table_id", table_id), self._now()
        await self._run(lambda: table_state.close_table(t, now), write=True)

    async def open_tables(self, guild_ids: Sequence[int] | None = None) -> list[StoredTable]:
        """Every open table (of ``guild_ids``, if given), with its round's journal."""
        wanted = None if guild_ids is None else [checks.snowflake("guild_id", g) for g in guild_ids]
        return await self._run(lambda: table_state.open_tables(wanted), write=False)

    async def open_table(self, table_id: str) -> StoredTable | None:
        """The table with this id if it is open (with its round's journal), else None."""
        t = checks.text("table_id", table_id)
        found = await self._run(lambda: table_state.open_tables(None, table_id=t), write=False)
        return found[0] if found else None

    async def open_tables_in(self, channel_id: int) -> list[StoredTable]:
        """The open tables of a channel (one at most, since schema 004)."""
        c = checks.snowflake("channel_id", channel_id)
        return await self._run(lambda: table_state.open_tables(None, channel_id=c), write=False)

    async def open_table_shard_counts(self) -> set[int]:
        """The SHARD_COUNTs the open tables were saved under (empty when none is open)."""
        return await self._run(table_state.shard_counts, write=False)

    async def round_actions(self, round_id: int) -> list[TableAction]:
        """The journal of one round, oldest first."""
        r = checks.whole("round_id", round_id)
        return await self._run(lambda: table_state.round_actions(r), write=False)
