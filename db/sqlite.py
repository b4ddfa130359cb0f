"""The SQLite backend: one aiosqlite connection, WAL, one transaction at a time.

aiosqlite runs each statement on the connection's own thread, in the order the
statements come, from whichever task sends them. So the store lets one transaction
at a time use the connection (a lock, its turn), and a transaction that raises, or
whose caller is cancelled mid-way, is rolled back before the turn passes on: the
connection is never left inside a transaction, and no transaction half done.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final, TypeVar, cast
from urllib.request import pathname2url

import aiosqlite

from db.errors import StoreConfigError, StoreUnavailable
from db.statements import Op, Row, drive
from db.store import Clock, Store
from db.writable import sqlite_fault

T = TypeVar("T")

#: How long a writer waits for another process's write to finish before giving up.
BUSY_TIMEOUT_MS: Final = 10_000
#: SQLite's result codes for a database that cannot take a write now (its disk full, its
#: file read-only or failing, locked past the busy timeout), rather than a refused statement.
_UNAVAILABLE: Final = frozenset(
    {
        sqlite3.SQLITE_BUSY,
        sqlite3.SQLITE_LOCKED,
        sqlite3.SQLITE_NOMEM,
        sqlite3.SQLITE_READONLY,
        sqlite3.SQLITE_IOERR,
        sqlite3.SQLITE_FULL,
        sqlite3.SQLITE_CANTOPEN,
        sqlite3.SQLITE_PROTOCOL,
    }
)
#: Names a file whose presence makes every write fail as SQLite's own read-only refusal
#: (``PRAGMA query_only``): how the tests and the soak take the store away for a while
#: without a mock. Unset in production, and then nothing is checked.
FAULT_FILE_ENV: Final = "BLACKJACK_SQLITE_FAULT_FILE"


def _existing(path: str) -> str:
    """A URI that opens ``path`` only if it exists (``:memory:`` stays in memory)."""
    if path == ":memory:":
        return "file::memory:"
    return f"file:{pathname2url(str(Path(path).resolve()))}?mode=rw"


def _try_open(target: str, uri: bool) -> None:
    sqlite3.connect(target, uri=uri).close()


def _unavailable(error: sqlite3.Error, path: str) -> StoreUnavailable | None:
    """The StoreUnavailable that ``error`` means, or None for an error of the statement."""
    code = getattr(error, "sqlite_errorcode", None)  # absent on the module's own errors
    if code is None or code & 0xFF not in _UNAVAILABLE:
        return None
    return StoreUnavailable(f"the SQLite database at {path!r} cannot be written ({error})")


class SQLiteStore(Store):
    """A Store in one SQLite file (or ``:memory:``)."""

    def __init__(self, db: aiosqlite.Connection, path: str, clock: Clock | None) -> None:
        super().__init__(clock)
        self._db = db
        #: Held from a transaction's BEGIN to its COMMIT or ROLLBACK: one at a time.
        self._turn = asyncio.Lock()
        self._closed = False
        self.path = path
        self._fault_file = os.environ.get(FAULT_FILE_ENV) or None

    @classmethod
    async def open(
        cls, path: str, clock: Clock | None = None, *, migrate: bool = True
    ) -> SQLiteStore:
        """Open (creating the file and its folder if needed) and migrate.

        Not ``migrate``: open an existing file as it is, creating nothing.
        """
        if not migrate and path != ":memory:" and not await asyncio.to_thread(os.path.exists, path):
            where = await asyncio.to_thread(os.path.abspath, path)
            raise StoreConfigError(
                f"no SQLite database at {where!r} (the bot creates it when it first starts):"
                " check DATABASE_URL and the folder you run from"
            )
        if migrate and path != ":memory:":
            try:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreConfigError(
                    f"cannot create the folder for the SQLite file {path!r} ({exc.strerror});"
                    " fix DATABASE_URL"
                ) from exc
        # Without migrating, open read-write but never create (a URI with mode=rw).
        target, uri = (path, False) if migrate else (_existing(path), True)
        try:
            # A file that cannot be opened fails here, on a thread of its own: failing in
            # aiosqlite's worker thread, it would report back to an event loop that may
            # have closed by then (a second traceback, "Event loop is closed").
            await asyncio.to_thread(_try_open, target, uri)
            # Autocommit (isolation_level None): the store issues BEGIN itself.
            db = await aiosqlite.connect(
                target,
                uri=uri,
                isolation_level=None,
                timeout=BUSY_TIMEOUT_MS / 1000,
                cached_statements=256,
            )
        except sqlite3.Error as exc:
            raise StoreConfigError(sqlite_fault(path, exc)) from exc
        store = cls(db, path, clock)
        try:
            await store._configure()
            if migrate:
                await store._migrate("sqlite")
        except sqlite3.Error as exc:
            await store.close()
            raise StoreConfigError(sqlite_fault(path, exc)) from exc
        except BaseException:
            await store.close()
            raise
        return store

    async def _configure(self) -> None:
        # A write: its error (a read-only file) comes when its rows are fetched.
        await self._db.execute_fetchall("PRAGMA journal_mode = WAL")
        # In WAL mode, NORMAL loses no committed transaction when the process dies
        # (only on power loss, and then the database stays consistent).
        await self._db.execute("PRAGMA synchronous = NORMAL")
        await self._db.execute("PRAGMA foreign_keys = ON")
        await self._db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")

    def _write_refused(self, error: Exception) -> str:
        cause = error.__cause__ if isinstance(error, StoreUnavailable) else error
        if isinstance(cause, sqlite3.Error):
            return sqlite_fault(self.path, cause)
        return super()._write_refused(error)

    async def _transact(self, op: Callable[[], Op[T]], *, write: bool) -> T:
        await self._turn.acquire()  # a caller cancelled while it waits: nothing begins
        try:
            result = await self._transaction(op, write)
        except BaseException as error:
            # Undone in a task of its own, which no second cancellation of the caller can
            # stop; the turn passes on only once the ROLLBACK has run.
            undo = asyncio.create_task(self._db.rollback())  # a no-op outside a transaction
            undo.add_done_callback(self._pass_turn)
            await asyncio.wait((undo,))
            if isinstance(error, sqlite3.Error):
                unavailable = _unavailable(error, self.path)
                if unavailable is not None:
                    raise unavailable from error
            raise
        self._turn.release()
        return result

    def _pass_turn(self, undo: asyncio.Task[None]) -> None:
        self._turn.release()
        if not undo.cancelled():
            undo.exception()  # a connection that cannot roll back fails its next BEGIN too

    async def _transaction(self, op: Callable[[], Op[T]], write: bool) -> T:
        """``op()`` from BEGIN to COMMIT; the caller rolls back if it raises."""
        db = self._db
        if self._fault_file is not None:
            failing = await asyncio.to_thread(os.path.exists, self._fault_file)
            await db.execute(f"PRAGMA query_only = {'ON' if failing else 'OFF'}")
        # BEGIN IMMEDIATE takes the write lock up front, so two writers never both
        # read and then fail to upgrade; they queue on the busy timeout instead.
        await db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
        result = await drive(op(), self._query, self._many)
        await db.commit()
        return result

    async def _query(self, sql: str, params: Sequence[Any]) -> list[Row]:
        # One thread hop: the statement and its rows together.
        return cast(list[Row], await self._db.execute_fetchall(sql, params))

    async def _many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self._db.executemany(sql, rows)

    async def close(self) -> None:
        """Close the connection, after the transaction running (if any) ends."""
        if self._closed:
            return
        self._closed = True
        async with self._turn:
            await self._db.close()
