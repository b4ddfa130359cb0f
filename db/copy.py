"""Copy a whole SQLite database into an empty PostgreSQL one, in one transaction, and verify it.

Every table of the schema is copied, whatever it is: the list comes from the
SQLite file itself, in foreign-key order (a table after those it references),
so tables added by later migrations are copied without a change here. The
target is migrated to the same schema first and must hold no rows. Before the
transaction commits, every row count is compared with the source and every
balance with the sum of its ledger; a mismatch rolls everything back. Identity
sequences are moved past the copied ids, so the next ledger row gets a new id.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal
from graphlib import TopologicalSorter
from typing import Any, Final

import asyncpg

import db
from db.errors import StoreConfigError, StoreError

#: Rows sent to PostgreSQL per COPY.
BATCH: Final = 5_000
#: Filled by each database's own migration run, so never copied.
SKIPPED: Final = frozenset({"schema_version"})

_CONVERTERS: Final[dict[str, Callable[[Any], Any]]] = {
    "boolean": bool,
    "smallint": int,
    "integer": int,
    "bigint": int,
    "real": float,
    "double precision": float,
    "numeric": lambda value: Decimal(str(value)),
    "text": str,
    "character varying": str,
    "bytea": bytes,
}

BALANCE_MISMATCHES: Final = """
    SELECT a.guild_id, a.user_id, a.balance, COALESCE(SUM(l.delta), 0)
    FROM accounts AS a LEFT JOIN ledger AS l
      ON l.guild_id = a.guild_id AND l.user_id = a.user_id
    GROUP BY a.guild_id, a.user_id, a.balance
    HAVING a.balance <> COALESCE(SUM(l.delta), 0)"""


class CopyRefused(StoreError):
    """The copy cannot start (target not empty, schemas differ) or did not verify; nothing kept."""


@dataclass(frozen=True, slots=True)
class CopyReport:
    """What was copied: rows per table, in the order copied."""

    rows: dict[str, int]
    accounts_checked: int


def tables_in_order(conn: sqlite3.Connection) -> list[str]:
    """The SQLite file's tables (not SQLite's own, not schema_version), referenced tables first."""
    names = [
        str(row[0])
        for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            " ORDER BY name"
        )
    ]
    graph: dict[str, set[str]] = {}
    for name in names:
        if name in SKIPPED:
            continue
        parents = {str(row[2]) for row in conn.execute(f'PRAGMA foreign_key_list("{name}")')}
        graph[name] = parents - {name}
    return list(TopologicalSorter(graph).static_order())


def _columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [str(row[1]) for row in conn.execute(f'PRAGMA table_info("{table}")')]


def _batches(conn: sqlite3.Connection, table: str, columns: Sequence[str]) -> Iterator[list[Any]]:
    listed = ", ".join(f'"{c}"' for c in columns)
    cursor = conn.execute(f'SELECT {listed} FROM "{table}"')
    while batch := cursor.fetchmany(BATCH):
        yield batch


async def copy_sqlite_to_postgres(sqlite_url: str, postgres_url: str) -> CopyReport:
    """Copy everything; CopyRefused (nothing written) if the target has rows or does not verify."""
    # Opening each store migrates it: both are then at this code's schema.
    async with db.open_store(sqlite_url) as source_store:
        source_version = await source_store.schema_version()
    try:
        async with db.open_store(postgres_url) as target_store:
            target_version = await target_store.schema_version()
    except StoreConfigError as error:
        # The store names the bot's setting; here the URL came from copy-db's --to.
        raise StoreConfigError(str(error).replace("DATABASE_URL", "the --to URL")) from error
    if source_version != target_version:
        raise CopyRefused(f"schema {source_version} in SQLite but {target_version} in PostgreSQL")
    source = sqlite3.connect(db.sqlite_path(sqlite_url), isolation_level=None)
    target = await asyncpg.connect(postgres_url)
    try:
        source.execute("BEGIN")  # one snapshot of the source for the whole copy
        async with target.transaction():
            return await _copy(source, target)
    except asyncpg.PostgresError as error:
        raise CopyRefused(f"PostgreSQL refused a row ({error})") from error
    finally:
        source.close()
        await target.close()


async def _copy(source: sqlite3.Connection, target: Any) -> CopyReport:
    tables = tables_in_order(source)
    target_tables = {
        str(row[0])
        for row in await target.fetch(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
        )
    }
    missing = [t for t in tables if t not in target_tables]
    if missing:
        raise CopyRefused(f"PostgreSQL has no table {', '.join(missing)}")
    for table in tables:
        if await target.fetchval(f'SELECT EXISTS (SELECT 1 FROM "{table}")'):
            raise CopyRefused(
                f"the PostgreSQL database already has rows in {table}: copy only into an empty"
                " database (created fresh, or only migrated by the bot)"
            )
    copied: dict[str, int] = {}
    for table in tables:
        copied[table] = await _copy_table(source, target, table)
    await _advance_identities(target, tables)
    return await _verify(source, target, copied)


async def _copy_table(source: sqlite3.Connection, target: Any, table: str) -> int:
    columns = _columns(source, table)
    types = {
        str(row[0]): str(row[1])
        for row in await target.fetch(
            "SELECT column_name, data_type FROM information_schema.columns"
            " WHERE table_schema = 'public' AND table_name = $1",
            table,
        )
    }
    absent = [c for c in columns if c not in types]
    if absent:
        raise CopyRefused(f"PostgreSQL's {table} has no column {', '.join(absent)}")
    convert = [_CONVERTERS.get(types[c], lambda value: value) for c in columns]
    count = 0
    for batch in _batches(source, table, columns):
        records = [
            tuple(None if v is None else f(v) for f, v in zip(convert, row, strict=True))
            for row in batch
        ]
        await target.copy_records_to_table(table, records=records, columns=columns)
        count += len(records)
    return count


async def _advance_identities(target: Any, tables: Sequence[str]) -> None:
    """Each identity sequence continues after the largest copied id."""
    rows = await target.fetch(
        "SELECT table_name, column_name FROM information_schema.columns"
        " WHERE table_schema = 'public' AND is_identity = 'YES'"
    )
    for table, column in rows:
        if table not in tables:
            continue
        await target.execute(
            f"SELECT setval(pg_get_serial_sequence('\"{table}\"', '{column}'),"
            f' (SELECT COALESCE(MAX("{column}"), 0) + 1 FROM "{table}"), false)'
        )


async def _verify(source: sqlite3.Connection, target: Any, copied: dict[str, int]) -> CopyReport:
    for table, count in copied.items():
        in_source = int(source.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0])
        in_target = int(await target.fetchval(f'SELECT COUNT(*) FROM "{table}"'))
        if not in_source == count == in_target:
            raise CopyRefused(
                f"{table}: {in_source} rows in SQLite, {count} copied, {in_target} in PostgreSQL"
            )
    wrong = await target.fetch(BALANCE_MISMATCHES)
    if wrong:
        shown = ", ".join(f"{g}/{u}: {b} != {s}" for g, u, b, s in wrong[:5])
        raise CopyRefused(f"{len(wrong)} balance(s) differ from their ledger: {shown}")
    accounts = int(await target.fetchval("SELECT COUNT(*) FROM accounts"))
    return CopyReport(copied, accounts)
