"""The SQLite backend: one aiosqlite connection, WAL, and a whole transaction per thread hop."""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Final, TypeVar
from urllib.request import pathname2url

import aiosqlite

from db.errors import StoreConfigError, StoreUnavailable
from db.statements import Many, Op, Row
from db.store import Clock, Store

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


def _configure(conn: sqlite3.Connection) -> None:
    conn.execute("PRAGMA journal_mode = WAL")
    # In WAL mode, NORMAL loses no committed transaction when the process dies
    # (only on power loss, and then the database stays consistent).
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")


class SQLiteStore(Store):
    """A Store in one SQLite file (or ``:memory:``)."""

    def __init__(self, db: aiosqlite.Connection, path: str, clock: Clock | None) -> None:
        super().__init__(clock)
        self._db = db
        self.path = path
        self._fault_file = os.environ.get(FAULT_FILE_ENV) or None

    @classmethod
    async def open(
        cls, path: str, clock: Clock | None = None, *, migrate: bool = True
    ) -> SQLiteStore:
        """Open (creating the file and its folder if needed) and migrate.

        Not ``migrate``: open an existing file as it is, creating nothing.
        """
        if not callable(getattr(aiosqlite.Connection, "_execute", None)):
            raise RuntimeError(
                f"aiosqlite {aiosqlite.__version__} no longer has Connection._execute,"
                " which db.sqlite uses to run a transaction on the database thread"
            )
        if not migrate and path != ":memory:" and not await asyncio.to_thread(os.path.isfile, path):
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
        try:
            # Without migrating, open read-write but never create (a URI with mode=rw).
            target, uri = (path, False) if migrate else (_existing(path), True)
            db = await aiosqlite.connect(
                target,
                uri=uri,
                isolation_level=None,
                timeout=BUSY_TIMEOUT_MS / 1000,
                cached_statements=256,
            )
        except sqlite3.Error as exc:
            raise StoreConfigError(
                f"cannot open the SQLite file {path!r} ({exc}); fix DATABASE_URL"
            ) from exc
        store = cls(db, path, clock)
        try:
            await store._call(_configure)
            if migrate:
                await store._migrate("sqlite")
        except BaseException:
            await db.close()
            raise
        return store

    async def _call(self, function: Callable[[sqlite3.Connection], T]) -> T:
        # aiosqlite runs every call on its connection's own thread. Handing it a
        # whole transaction (instead of a statement at a time) keeps the event
        # loop out of the transaction: nothing interleaves, a cancelled caller
        # cannot leave it half done, and a stake costs one thread hop, not five.
        # aiosqlite has no public name for this, so its queue method is used.
        conn = self._db._conn
        result: T = await self._db._execute(partial(function, conn))  # type: ignore[no-untyped-call]
        return result

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
        """Close the connection (finishing calls already queued)."""
        await self._db.close()
