"""Group commit: the writes of many callers in one transaction, each as if alone.

While one transaction is being written, the next writes queue; they then go in one
transaction, one commit for all (SQLite: one WAL commit, one BEGIN and COMMIT on the
connection's thread; PostgreSQL: one fsync). Each caller sees what it would have seen in a
transaction of its own, in the order the writes were submitted:

- A group first runs as it is. Should a write that may refuse (a stake the balance does
  not cover) refuse, the group is undone and runs again with that kind of write behind a
  savepoint of its own, so the one that refuses is undone alone and its caller gets the
  error while the others commit. The group right after runs that way at once. Savepoints
  cost a statement a write, and refusals are rare: most groups need none.
- A write that never refuses (journal rows, a round's grades) needs no savepoint: should it
  raise all the same, nothing of the group is committed and each write is tried alone.
- Writes nothing in the transaction reads back (``Many(..., blind=True)``: journal rows,
  tables' documents) run at the group's end, one statement for each SQL text with every
  row of the group's writes in the order they came; those of an undone write are dropped.

If the database refuses the shared transaction as a whole (a statement it rejects),
no caller's write took effect: each is then tried alone, so one write's failure never
becomes another's. A failure that leaves unknown whether the commit happened (a
connection lost during COMMIT) is not retried: every caller of the group gets it, as
each would have from a transaction of its own. A caller that stopped waiting before its
write was taken into a transaction is left out: its write never happens.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Final, TypeVar

from db.errors import StoreError
from db.statements import Many, Op, Query

T = TypeVar("T")

#: One caller's write: the operation to run, and the caller's future.
Write = Callable[[], Op[Any]]
#: A queued write: the operation, whether it may refuse (its savepoint), the caller's future.
_Queued = tuple[Write, bool, "asyncio.Future[Any]"]
#: Most writes in one transaction: a bound on how long the database is held at once.
MAX_GROUP: Final = 64

_SAVEPOINT: Final = Query("SAVEPOINT grouped_write")
_UNDO: Final = Query("ROLLBACK TO SAVEPOINT grouped_write")


class Unguarded(Exception):
    """A write submitted as never refusing raised: the group is undone, each tried alone."""


class Refused(StoreError):
    """A write refused in a group run without savepoints: the group is undone, to run again
    behind them. (A StoreError: an answer, which the store's observer counts as no failure.)"""


def together(
    writes: Sequence[Write], refusing: Sequence[bool] | None = None, *, guarded: bool = True
) -> Op[list[tuple[bool, Any]]]:
    """Each write in turn: ``(True, result)``, or ``(False, error)`` for one that refused
    (raised) behind its savepoint, its statements undone and the others kept. A write runs
    behind a savepoint where ``refusing`` says it may refuse (all, by default) and the group
    is ``guarded``; one that refuses without a savepoint raises ``Refused``, and one that
    raises and was said never to refuse raises ``Unguarded``. The writes' blind statements
    run last, each SQL's rows in one statement.

    The savepoints are never released (the commit ends them all): SQLite and PostgreSQL
    roll back to the newest of a name, which is always the current write's, and a
    release would cost PostgreSQL one more round trip per write."""
    outcomes: list[tuple[bool, Any]] = []
    blind: dict[str, list[Sequence[Any]]] = {}
    guards = [True] * len(writes) if refusing is None else refusing
    for write, refuses in zip(writes, guards, strict=True):
        later: list[Many] = []
        if not (refuses and guarded):
            try:
                outcomes.append((True, (yield from _sighted(write(), later))))
            except Exception as error:
                raise (Refused if refuses else Unguarded)(error) from error
        else:
            yield _SAVEPOINT
            try:
                result = yield from _sighted(write(), later)
            except Exception as error:  # raised by the operation itself (a refusal)
                yield _UNDO
                outcomes.append((False, error))
                continue
            outcomes.append((True, result))
        for statement in later:
            blind.setdefault(statement.sql, []).extend(statement.rows)
    for sql, rows in blind.items():
        yield Many(sql, rows)
    return outcomes


def _sighted(op: Op[T], later: list[Many]) -> Op[T]:
    """``op`` with its blind statements put in ``later`` instead of run."""
    try:
        statement = next(op)
        while True:
            if isinstance(statement, Many) and statement.blind:
                later.append(statement)
                statement = op.send([])
            else:
                statement = op.send((yield statement))
    except StopIteration as stop:
        result: T = stop.value
        return result
    finally:
        op.close()


def _settle(done: asyncio.Future[Any], ok: bool, value: Any) -> None:
    """Tell a caller how its write went (unless it stopped waiting)."""
    if done.done():
        return
    if ok:
        done.set_result(value)
    elif isinstance(value, asyncio.CancelledError):
        done.cancel()
    else:
        done.set_exception(value)


class GroupCommit:
    """A queue of writes, committed in groups by one writer task at a time."""

    def __init__(
        self,
        run: Callable[[Write], Awaitable[Any]],
        rolled_back: Callable[[Exception], bool] = lambda error: True,
    ) -> None:
        #: Runs one operation in a write transaction of its own (the store's ``_run``).
        self._run = run
        #: Whether an error from ``run`` means nothing was committed (so a retry is safe).
        self._rolled_back = rolled_back
        self._queue: list[_Queued] = []
        self._writer: asyncio.Task[None] | None = None
        #: Whether a write refused in the last group: the next runs behind savepoints at once.
        self._refusals = False

    async def submit(self, write: Write, *, refuses: bool = True) -> Any:
        """Run ``write`` (a factory of the operation) in the next group; its result.

        ``refuses=False``: the operation never raises (a statement the database rejects
        aside), so it needs no savepoint of its own."""
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.append((write, refuses, done))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_all())
        return await done

    async def _write_all(self) -> None:
        """Write what is queued, a group at a time, until nothing is."""
        queue = self._queue
        group: list[_Queued] = []
        try:
            while queue:
                group = [queued for queued in queue[:MAX_GROUP] if not queued[2].done()]
                del queue[:MAX_GROUP]
                if group:
                    await self._write_group(group)
        except BaseException as error:  # cancelled (the store closing): nobody waits forever
            for _, _, done in group + queue:
                _settle(done, False, error)
            del queue[:]
            raise

    async def _write_group(self, group: list[_Queued]) -> None:
        if len(group) == 1:  # alone: the operation's own transaction, as without a group
            write, _, done = group[0]
            await self._write_alone(write, done)
            return
        writes = [write for write, _, _ in group]
        refusing = [refuses for _, refuses, _ in group]
        guarded, self._refusals = self._refusals, False
        try:
            if not guarded:
                try:
                    outcomes = await self._run(lambda: together(writes, refusing, guarded=False))
                except Refused:
                    guarded = True
            if guarded:
                outcomes = await self._run(lambda: together(writes, refusing))
                self._refusals = not all(ok for ok, _ in outcomes)
        except Exception as error:
            if not isinstance(error, Unguarded) and not self._rolled_back(error):
                for _, _, done in group:  # perhaps committed: never twice
                    _settle(done, False, error)
                return
            for write, _, done in group:  # nothing was written: each alone
                await self._write_alone(write, done)
            return
        for (_, _, done), (ok, value) in zip(group, outcomes, strict=True):
            _settle(done, ok, value)

    async def _write_alone(self, write: Write, done: asyncio.Future[Any]) -> None:
        try:
            result = await self._run(write)
        except Exception as error:
            _settle(done, False, error)
        else:
            _settle(done, True, result)
