"""The store's operations on durable tables (a mixin of ``Store``; see db.ops.table_state)."""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import TypeVar

from db import checks
from db.models import StoredTable, TableAction, TableWrite, VoidResult
from db.ops import rounds, table_state
from db.statements import Op

T = TypeVar("T")
#: Journal rows waiting for the next group commit, and their caller's future.
_Append = tuple[list[TableAction], "asyncio.Future[None]"]


def _settle(done: asyncio.Future[None], error: BaseException | None) -> None:
    """Tell an append's caller how it went (unless it stopped waiting)."""
    if done.done():
        return
    if error is None:
        done.set_result(None)
    elif isinstance(error, asyncio.CancelledError):
        done.cancel()
    else:
        done.set_exception(error)


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


class TableStateStore(ABC):
    """Saving, journaling and reading back the tables the bot has open."""

    def __init__(self) -> None:
        #: Journal rows waiting for the next group commit (see ``append_actions``).
        self._journal_queue: list[_Append] = []
        self._journal_writer: asyncio.Task[None] | None = None

    @abstractmethod
    async def _run(self, op: Callable[[], Op[T]], *, write: bool) -> T: ...

    @abstractmethod
    def _now(self) -> int: ...

    @abstractmethod
    async def void_round(
        self, round_id: int, reason: str, *, table: TableWrite | None = None
    ) -> VoidResult: ...

    async def recover(
        self, guild_ids: Sequence[int] | None = None, reason: str = "the bot restarted"
    ) -> list[VoidResult]:
        """Void every open round (of ``guild_ids``, if given) that no open table is playing.

        Call at start-up: these are rounds of a database from before durable tables,
        or a round opened just before a stop and not yet in its table's document.
        Each round is its own transaction; a round voided meanwhile is left out.
        """
        wanted = None if guild_ids is None else [checks.snowflake("guild_id", g) for g in guild_ids]
        ids = await self._run(lambda: rounds.open_round_ids(wanted), write=False)
        owned = await self._run(table_state.owned_round_ids, write=False)
        ids = [round_id for round_id in ids if round_id not in owned]
        results = [await self.void_round(round_id, reason) for round_id in ids]
        return [result for result in results if not result.already_closed]

    async def save_table(self, table: TableWrite, actions: Sequence[TableAction] = ()) -> None:
        """Replace the table's document (a closed table stays closed), with journal rows."""
        write, now = checked_write(table), self._now()
        assert write is not None
        await self._run(
            lambda: table_state.along_with(table_state.save_table(write, now), None, actions, now),
            write=True,
        )

    async def append_actions(self, actions: Sequence[TableAction]) -> None:
        """Append decisions to their rounds' journals (a hit or stand: no chips move).

        Returns once the rows are committed. Appends of many tables at once share a
        transaction (a group commit): while one is being written, the next ones queue
        and go together, one trip to the database for all. Each table appends one
        decision at a time (under its lock), so its rows keep their order.
        """
        rows = list(actions)
        if not rows:
            return
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._journal_queue.append((rows, done))
        if self._journal_writer is None or self._journal_writer.done():
            self._journal_writer = asyncio.create_task(self._write_journal())
        await done

    async def _write_journal(self) -> None:
        """Write what is queued, in one transaction, until nothing is."""
        queue = self._journal_queue
        batch: list[_Append] = []
        try:
            while queue:
                batch = queue[:]
                del queue[:]
                await self._write_batch(batch)
        except BaseException as error:  # cancelled (the store closing): nobody waits forever
            for _, done in batch + queue:
                _settle(done, error)
            del queue[:]
            raise

    async def _write_batch(self, batch: list[_Append]) -> None:
        try:
            await self._append_now([row for rows, _ in batch for row in rows])
        except Exception as error:
            if len(batch) == 1:
                _settle(batch[0][1], error)
                return
            for rows, done in batch:  # not one caller's rows should fail another's: each alone
                try:
                    await self._append_now(rows)
                except Exception as alone:
                    _settle(done, alone)
                else:
                    _settle(done, None)
            return
        for _, done in batch:
            _settle(done, None)

    async def _append_now(self, rows: list[TableAction]) -> None:
        await self._run(lambda: table_state.append_actions(rows), write=True)

    async def close_table(self, table_id: str) -> None:
        """Mark the table closed, so no start-up resumes it."""
        t, now = checks.text("table_id", table_id), self._now()
        await self._run(lambda: table_state.close_table(t, now), write=True)

    async def open_tables(self, guild_ids: Sequence[int] | None = None) -> list[StoredTable]:
        """Every open table (of ``guild_ids``, if given), with its round's journal."""
        wanted = None if guild_ids is None else [checks.snowflake("guild_id", g) for g in guild_ids]
        return await self._run(lambda: table_state.open_tables(wanted), write=False)

    async def open_table_shard_counts(self) -> set[int]:
        """The SHARD_COUNTs the open tables were saved under (empty when none is open)."""
        return await self._run(table_state.shard_counts, write=False)

    async def round_actions(self, round_id: int) -> list[TableAction]:
        """The journal of one round, oldest first."""
        r = checks.whole("round_id", round_id)
        return await self._run(lambda: table_state.round_actions(r), write=False)
