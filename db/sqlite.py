"""The SQLite backend: one connection on a thread of its own, WAL, and a whole transaction
per thread hop.

The connection lives on a one-worker :class:`concurrent.futures.ThreadPoolExecutor`, as
aiosqlite keeps one on a thread of its own; unlike aiosqlite's public API (a statement
per hop), a whole transaction is handed to the thread at once. That keeps the event
loop out of the transaction: nothing interleaves, a cancelled caller cannot leave it
half done, and a stake costs one thread hop, not five.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Final, TypeVar
from urllib.request import pathname2url

from db.errors import StoreConfigError, StoreUnavailable
from db.statements import Many, Op, Row
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


def _drive(conn: sqlite3.Connection, op: Op[T]) -> T:
    rows: list[Row] = []
    try:
        statement = next(op)
        while True:
            if isinstance(statement, Many):
                conn.executemany(statement.sql, statement.rows)
                rows = []
            else:
                rows = conn.execute(statement.sql, statement.params).fetchall()
            statement = op.send(rows)
    except StopIteration as stop:
        result: T = stop.value
        return result
    finally:
        op.close()


def _transaction(
    conn: sqlite3.Connection, factory: Callable[[], Op[T]], write: bool, fault_file: str | None
) -> T:
    if fault_file is not None:
        failing = os.path.exists(fault_file)
        conn.execute(f"PRAGMA query_only = {'ON' if failing else 'OFF'}")
    # BEGIN IMMEDIATE takes the write lock up front, so two writers never both
    # read and then fail to upgrade; they queue on the busy timeout instead.
    conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
    try:
        result = _drive(conn, factory())
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return result


def _existing(path: str) -> str:
    """A URI that opens ``path`` only if it exists (``:memory:`` stays in memory)."""
    if path == ":memory:":
        return "file::memory:"
    return f"file:{pathname2url(str(Path(path).resolve()))}?mode=rw"


def _connect(target: str, *, uri: bool) -> sqlite3.Connection:
    # On the connection's own thread, which alone uses it afterwards. Autocommit
    # (isolation_level None): _transaction issues BEGIN and COMMIT itself.
    return sqlite3.connect(
        target,
        uri=uri,
        isolation_level=None,
        timeout=BUSY_TIMEOUT_MS / 1000,
        cached_statements=256,
    )


def _configure(conn: sqlite3.Connection) -> None:
    conn.execute("PRAGMA journal_mode = WAL").fetchall()  # a write: its error comes on the fetch
    # In WAL mode, NORMAL loses no committed transaction when the process dies
    # (only on power loss, and then the database stays consistent).
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")


class SQLiteStore(Store):
    """A Store in one SQLite file (or ``:memory:``)."""

    def __init__(
        self, conn: sqlite3.Connection, thread: ThreadPoolExecutor, path: str, clock: Clock | None
    ) -> None:
        super().__init__(clock)
        self._conn = conn
        self._thread = thread
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
        thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite")
        loop = asyncio.get_running_loop()
        try:
            conn = await loop.run_in_executor(thread, partial(_connect, target, uri=uri))
        except sqlite3.Error as exc:
            thread.shutdown(wait=False)
            raise StoreConfigError(sqlite_fault(path, exc)) from exc
        store = cls(conn, thread, path, clock)
        try:
            await store._call(_configure)
            if migrate:
                await store._migrate("sqlite")
        except sqlite3.Error as exc:
            await store.close()
            raise StoreConfigError(sqlite_fault(path, exc)) from exc
        except BaseException:
            await store.close()
            raise
        return store

    def _write_refused(self, error: Exception) -> str:
        if isinstance(error, sqlite3.Error):
            return sqlite_fault(self.path, error)
        return super()._write_refused(error)

    async def _call(self, function: Callable[[sqlite3.Connection], T]) -> T:
        """``function(connection)`` on the connection's thread, after the calls queued before
        it. A caller cancelled meanwhile stops waiting: a call already running ends as it
        would have (a whole transaction), one not started yet never runs."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._thread, function, self._conn)

    async def _transact(self, op: Callable[[], Op[T]], *, write: bool) -> T:
        transaction = partial(_transaction, factory=op, write=write, fault_file=self._fault_file)
        try:
            return await self._call(transaction)
        except sqlite3.Error as error:
            code = getattr(error, "sqlite_errorcode", None)  # absent on the module's own errors
            if code is None or code & 0xFF not in _UNAVAILABLE:
                raise
            raise StoreUnavailable(
                f"the SQLite database at {self.path!r} cannot be written ({error})"
            ) from error

    async def close(self) -> None:
        """Close the connection (after the calls already queued) and end its thread."""
        if self._closed:
            return
        self._closed = True
        try:
            await self._call(sqlite3.Connection.close)
        finally:
            self._thread.shutdown(wait=False)
