"""How operations talk to a backend: they yield statements and receive rows.

Every store operation is a generator that yields ``Query`` or ``Many`` values
and gets back the rows as tuples; its return value is the operation's result.
A backend runs the whole generator inside one transaction. SQLite runs it in
the database thread in one go (no hop back to the event loop between
statements, and nothing can interleave); PostgreSQL awaits each statement on
one pooled connection. So each operation is written once, for both backends.

SQL uses ``?`` placeholders (never a literal question mark); the PostgreSQL
backend rewrites them to ``$1, $2, ...``.
"""

from __future__ import annotations

import re
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypeAlias, TypeVar

Row: TypeAlias = tuple[Any, ...]
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Query:
    """One statement; the operation receives its rows (empty for statements without any)."""

    sql: str
    params: Sequence[Any] = ()


@dataclass(frozen=True, slots=True)
class Many:
    """One statement run once per parameter tuple; the operation receives no rows."""

    sql: str
    rows: Sequence[Sequence[Any]]


Statement: TypeAlias = Query | Many
#: A store operation returning ``T``.
Op: TypeAlias = Generator[Statement, list[Row], T]

_PLACEHOLDER = re.compile(r"\?")


@lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """``?`` placeholders rewritten to PostgreSQL's ``$1, $2, ...``."""
    counter = iter(range(1, 10_000))
    return _PLACEHOLDER.sub(lambda _: f"${next(counter)}", sql)
