"""How operations talk to a backend: they yield statements and receive rows.

Every store operation is a generator that yields ``Query`` or ``Many`` values
and gets back the rows as tuples; its return value is the operation's result.
A backend runs the whole generator inside one transaction with :func:`drive`,
awaiting each statement: SQLite on its one aiosqlite connection (one transaction
at a time), PostgreSQL on one pooled connection. So each operation is written
once, for both backends.

SQL uses ``?`` placeholders (never a literal question mark); the PostgreSQL
backend rewrites them to ``$1, $2, ...``.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Generator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol, TypeAlias, TypeVar

Row: TypeAlias = tuple[Any, ...]
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Query:
    """One statement; the operation receives its rows (empty for statements without any)."""

    sql: str
    params: Sequence[Any] = ()


@dataclass(frozen=True, slots=True)
class Many:
    """One statement run once per parameter tuple; the operation receives no rows.

    ``blind``: a write nothing in the transaction reads back (a journal row, a table's
    document). In a group of writes (db.group_commit) it runs at the group's end, in one
    statement with the same SQL's other rows, in the order they came."""

    sql: str
    rows: Sequence[Sequence[Any]]
    blind: bool = False


Statement: TypeAlias = Query | Many
#: A store operation returning ``T``.
Op: TypeAlias = Generator[Statement, list[Row], T]


class Run(Protocol):
    """A store's transaction runner: the operation ``op()`` in one transaction (a write
    transaction if ``write``); its result."""

    def __call__(self, op: Callable[[], Op[T]], *, write: bool) -> Awaitable[T]: ...


_PLACEHOLDER = re.compile(r"\?")


@lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """``?`` placeholders rewritten to PostgreSQL's ``$1, $2, ...``."""
    counter = iter(range(1, 10_000))
    return _PLACEHOLDER.sub(lambda _: f"${next(counter)}", sql)


async def drive(
    op: Op[T],
    query: Callable[[str, Sequence[Any]], Awaitable[list[Row]]],
    many: Callable[[str, Sequence[Sequence[Any]]], Awaitable[object]],
) -> T:
    """Run ``op`` to its end: each ``Query`` through ``query`` (its rows sent back), each
    ``Many`` through ``many`` (no rows); the operation's result. The generator is closed
    however it ends, so its ``finally`` blocks run."""
    rows: list[Row] = []
    try:
        statement = next(op)
        while True:
            if isinstance(statement, Many):
                await many(statement.sql, statement.rows)
                rows = []
            else:
                rows = await query(statement.sql, statement.params)
            statement = op.send(rows)
    except StopIteration as stop:
        result: T = stop.value
        return result
    finally:
        op.close()
