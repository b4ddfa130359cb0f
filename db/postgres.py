"""The PostgreSQL backend: an asyncpg pool, one pooled connection per transaction."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final, TypeVar

import asyncpg

from db.errors import StoreConfigError, StoreUnavailable
from db.statements import Op, Row, drive, numbered
from db.store import Clock, Store

T = TypeVar("T")

#: Deadlocks cannot happen between our own operations (rounds are locked before
#: accounts, accounts in id order) but are retried anyway, as PostgreSQL advises.
_RETRIES: Final = 5
_CONNECT_TIMEOUT_S: Final = 10
#: SQLSTATE classes the server reports when it cannot take work now (insufficient
#: resources: a full disk; operator intervention: a shutdown or a start in progress).
_UNAVAILABLE_CLASSES: Final = ("53", "57")


def _unavailable(error: Exception, write: bool) -> StoreUnavailable | None:
    """The StoreUnavailable that ``error`` means, or None for an error of the statement itself.

    A connection lost (or never made) while a write was in flight leaves unknown whether its
    COMMIT got through; a server that reported the error rolled the transaction back.
    """
    # asyncpg's InternalClientError ("cannot switch to state ...") is a pooled connection
    # left mid-protocol by the server going away: as lost as the others.
    lost = (
        asyncpg.PostgresConnectionError
        | asyncpg.InterfaceError
        | asyncpg.InternalClientError
        | OSError
        | TimeoutError
    )
    if isinstance(error, lost):
        return StoreUnavailable(
            f"the PostgreSQL server cannot be reached ({type(error).__name__}: {error})",
            maybe_committed=write,
        )
    if isinstance(error, asyncpg.PostgresError) and str(error.sqlstate)[:2] in (
        _UNAVAILABLE_CLASSES
    ):
        return StoreUnavailable(f"the PostgreSQL server cannot take writes now ({error})")
    return None


def _statements(conn: Any) -> tuple[Any, Any]:
    """``drive``'s two ways to run a statement on ``conn``, with PostgreSQL's placeholders."""

    async def query(sql: str, params: Sequence[Any]) -> list[Row]:
        return [tuple(record) for record in await conn.fetch(numbered(sql), *params)]

    async def many(sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await conn.executemany(numbered(sql), rows)

    return query, many


class PostgresStore(Store):
    """A Store in a PostgreSQL database."""

    def __init__(self, pool: Any, clock: Clock | None) -> None:
        super().__init__(clock)
        self._pool = pool

    @classmethod
    async def open(
        cls,
        dsn: str,
        shown: str,
        clock: Clock | None = None,
        max_connections: int = 10,
        *,
        migrate: bool = True,
    ) -> PostgresStore:
        """Connect a pool to ``dsn`` and migrate (unless not ``migrate``); ``shown`` is the URL
        without its password."""
        try:
            pool = await asyncpg.create_pool(
                dsn,
                min_size=1,
                max_size=max_connections,
                timeout=_CONNECT_TIMEOUT_S,
                command_timeout=60,
            )
        except (TimeoutError, OSError, asyncpg.PostgresError, ValueError) as exc:
            raise StoreConfigError(
                f"cannot connect to PostgreSQL at {shown} ({type(exc).__name__}: {exc});"
                " fix DATABASE_URL or start the server"
            ) from exc
        store = cls(pool, clock)
        if not migrate:
            return store
        try:
            await store._migrate("postgresql")
        except asyncpg.PostgresError as exc:  # a read-only database, a missing privilege
            await pool.close()
            raise StoreConfigError(store._write_refused(exc)) from exc
        except BaseException:
            await pool.close()
            raise
        return store

    async def _transact(self, op: Callable[[], Op[T]], *, write: bool) -> T:
        for attempt in range(_RETRIES):
            try:
                async with self._pool.acquire() as conn:
                    if write:
                        transaction = conn.transaction()
                    else:
                        # One snapshot for every statement of a report.
                        transaction = conn.transaction(isolation="repeatable_read", readonly=True)
                    async with transaction:
                        return await drive(op(), *_statements(conn))
            except (asyncpg.DeadlockDetectedError, asyncpg.SerializationError):
                if attempt == _RETRIES - 1:
                    raise
            except Exception as error:
                unavailable = _unavailable(error, write)
                if unavailable is None:
                    raise
                raise unavailable from error
        raise AssertionError("unreachable")

    def _rolled_back(self, error: Exception) -> bool:
        # An error the server reported ended the transaction unwritten; a lost connection
        # leaves unknown whether COMMIT got through.
        if isinstance(error, StoreUnavailable):
            return not error.maybe_committed
        return isinstance(error, asyncpg.PostgresError)

    async def close(self) -> None:
        """Close every pooled connection."""
        await self._pool.close()
