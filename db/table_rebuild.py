"""A table's check replaced on SQLite, which cannot alter one in place.

A migration says it once for both databases, as PostgreSQL writes it::

    ALTER TABLE ledger DROP CONSTRAINT ledger_check, ADD CONSTRAINT ledger_check CHECK (...);

PostgreSQL runs that statement as it is. On SQLite, :func:`sqlite_steps` runs it as the
generalized ALTER TABLE procedure of https://www.sqlite.org/lang_altertable.html ("Making
Other Kinds Of Table Schema Changes"): the table's CREATE text is read from
``sqlite_master`` and its one table check replaced, a table of that text is created, the
rows copied (ids and all, the new check judging each), the old table dropped, the new one
renamed, the old table's indexes and triggers created again from their own text, and the
foreign keys checked. A table other tables refer to is refused: the procedure turns foreign
keys off for it, which cannot be done inside a transaction. Everything runs in the
migration's one transaction, so a row the new check refuses leaves the database as it was.
"""

from __future__ import annotations

import re
from typing import Final

from db.errors import StoreError
from db.statements import Op, Query

#: ``ALTER TABLE t DROP CONSTRAINT c, ADD CONSTRAINT c CHECK (expression);``
_CHECK_CHANGE: Final = re.compile(
    r"ALTER TABLE (\w+)\s+DROP CONSTRAINT (\w+),\s*ADD CONSTRAINT \2\s+CHECK \((.*)\);?",
    re.DOTALL | re.IGNORECASE,
)
#: A table constraint that is a check: ``CHECK (...)``, or ``CONSTRAINT name CHECK (...)``.
_TABLE_CHECK: Final = re.compile(r"(?:CONSTRAINT\s+(\w+)\s+)?CHECK\s*\(", re.IGNORECASE)
_CREATE_TABLE: Final = re.compile(r'CREATE TABLE\s+(?:"\w+"|\w+)\s*\(', re.IGNORECASE)


class RebuildError(StoreError):
    """A table's check could not be replaced: the migration changed nothing."""


def sqlite_steps(statement: str) -> Op[None] | None:
    """The rebuild that replaces a table's check, if ``statement`` is a check change; else None
    (SQLite runs the statement as written)."""
    change = _CHECK_CHANGE.fullmatch(statement.strip())
    if change is None:
        return None
    table, constraint, expression = change.groups()
    return rebuild_with_check(table, constraint, expression)


def rebuild_with_check(table: str, constraint: str, expression: str) -> Op[None]:
    """Rebuild ``table`` with its check ``constraint`` (or its one unnamed table check) now
    ``CHECK (expression)``, keeping its rows, indexes and triggers."""
    rows = yield Query("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,))
    if not rows:
        raise RebuildError(f"there is no table {table!r} to change")
    created = with_check(str(rows[0][0]), constraint, expression)
    referring = yield Query(
        "SELECT DISTINCT m.name FROM sqlite_master AS m, pragma_foreign_key_list(m.name) AS f"
        " WHERE m.type = 'table' AND f.\"table\" = ?",
        (table,),
    )
    if referring:
        # Dropping it would delete through their foreign keys, which a migration's
        # transaction cannot turn off (the procedure's first step).
        names = ", ".join(str(name) for (name,) in referring)
        raise RebuildError(f"{table!r} cannot be rebuilt: {names} refer to it")
    attached = yield Query(
        "SELECT sql FROM sqlite_master WHERE tbl_name = ? AND type IN ('index', 'trigger')"
        " AND sql IS NOT NULL ORDER BY rowid",
        (table,),
    )
    rebuilt = f"{table}_rebuilt"
    yield Query(_CREATE_TABLE.sub(f"CREATE TABLE {rebuilt} (", created, count=1))
    yield Query(f"INSERT INTO {rebuilt} SELECT * FROM {table}")
    yield Query(f"DROP TABLE {table}")
    yield Query(f"ALTER TABLE {rebuilt} RENAME TO {table}")
    for (sql,) in attached:
        yield Query(str(sql))
    broken = yield Query(f"PRAGMA foreign_key_check({table})")
    if broken:
        raise RebuildError(f"{len(broken)} rows of {table!r} break a foreign key")


def with_check(created: str, constraint: str, expression: str) -> str:
    """The CREATE TABLE text ``created`` with its check ``constraint`` (by name, else its
    one unnamed table check) replaced by ``CHECK (expression)``, indented as the old one."""
    head = _CREATE_TABLE.match(created)
    if head is None:
        raise RebuildError(f"not a CREATE TABLE statement: {created[:60]!r}")
    checks = [
        (start, end, name)
        for start, end in _top_level_items(created, head.end())
        if (name := _check_name(created[start:end])) is not None
    ]
    named = [(start, end) for start, end, name in checks if name == constraint]
    unnamed = [(start, end) for start, end, name in checks if name == ""]
    chosen = named or unnamed
    if len(chosen) != 1:
        raise RebuildError(f"no one table check {constraint!r} to replace in {created[:60]!r}")
    start, end = chosen[0]
    indent = created[created.rfind("\n", 0, start) + 1 : start]
    replacement = f"CHECK ({expression})".replace("\n", "\n" + indent)
    return created[:start] + replacement + created[end:]


def _check_name(item: str) -> str | None:
    """A table constraint's name if ``item`` is a check ("" when unnamed), else None."""
    check = _TABLE_CHECK.match(item)
    if check is None:
        return None
    return check[1] or ""


def _top_level_items(created: str, start: int) -> list[tuple[int, int]]:
    """Where each comma-separated column or constraint of the table body begins and ends
    (leading white space left out), the body being ``created`` from ``start`` to its last ')'."""
    items: list[tuple[int, int]] = []
    depth, quote, begin = 0, "", start
    for index in range(start, created.rindex(")")):
        char = created[index]
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "," and depth == 0:
            items.append((begin, index))
            begin = index + 1
    items.append((begin, created.rindex(")")))
    return [_stripped(created, begin, end) for begin, end in items]


def _stripped(text: str, begin: int, end: int) -> tuple[int, int]:
    """``begin`` and ``end`` moved past the white space at either end of ``text[begin:end]``."""
    piece = text[begin:end]
    return begin + len(piece) - len(piece.lstrip()), begin + len(piece.rstrip())
