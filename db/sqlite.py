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

from db.errors import StoreConfigError
from db.statements import Many, Op, Row
from db.store import Clock, Store
from db.writable import sqlite_fault

T = TypeVar("T")

#: How long a writer waits for another process's write to finish before giving up.
BUSY_TIMEOUT_MS: Final = 10_000


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


def _transaction(conn: sqlite3.Connection, factory: Callable[[], Op[T]], write: bool) -> T:
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


def _try_open(target: str, uri: bool) -> None:
    sqlite3.connect(target, uri=uri).close()


def _configure(conn: sqlite3.Connection) -> None:
    conn.execute("PRAGMA journal_mode = WAL").fetchall()  # a write: its error comes on the fetch
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
            await store._call(_configure)
            if migrate:
                await store._migrate("sqlite")
        except sqlite3.Error as exc:
            await db.close()
            raise StoreConfigError(sqlite_fault(path, exc)) from exc
        except BaseException:
            await db.close()
            raise
        return store

    def _write_refused(self, error: Exception) -> str:
        if isinstance(error, sqlite3.Error):
            return sqlite_fault(self.path, error)
        return super()._write_refused(error)

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
        return await self._call(partial(_transaction, factory=op, write=write))

    async def close(self) -> None:
        """Close the connection (finishing calls already queued)."""
        await self._db.close()
