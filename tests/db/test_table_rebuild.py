"""SQLite's generalized ALTER TABLE: a table's check replaced by rebuilding the table, its
rows, indexes and triggers kept, all in one transaction."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from db.statements import Row, drive
from db.table_rebuild import RebuildError, sqlite_steps, with_check

CHANGE = """ALTER TABLE stakes DROP CONSTRAINT stakes_check, ADD CONSTRAINT stakes_check CHECK (
    amount > 0
        AND amount <= 500
);"""


@pytest.fixture
def conn(tmp_path: Path) -> Iterator[sqlite3.Connection]:
    """A SQLite file with a table of stakes (at most 100), its index and trigger, two rows."""
    conn = sqlite3.connect(tmp_path / "rebuild.sqlite3", isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    conn.executescript(
        """
        CREATE TABLE players (id INTEGER PRIMARY KEY, CHECK (id > 0));
        CREATE TABLE stakes (
            id INTEGER PRIMARY KEY,
            player_id INTEGER NOT NULL REFERENCES players (id),
            amount INTEGER NOT NULL CHECK (amount <> 13),
            CHECK (
                amount > 0 AND amount <= 100
            )
        );
        CREATE INDEX stakes_by_player ON stakes (player_id)
            WHERE amount > 10;
        CREATE TRIGGER stakes_seen AFTER INSERT ON stakes BEGIN SELECT 1; END;
        INSERT INTO players VALUES (1);
        INSERT INTO stakes VALUES (4, 1, 20), (9, 1, 100);
        """
    )
    yield conn
    conn.close()


async def rebuilt(conn: sqlite3.Connection, statement: str) -> None:
    """Run ``statement``'s rebuild in one transaction, rolled back if it fails."""
    steps = sqlite_steps(statement)
    assert steps is not None

    async def query(sql: str, params: Sequence[Any]) -> list[Row]:
        return conn.execute(sql, params).fetchall()

    async def many(sql: str, rows: Sequence[Sequence[Any]]) -> None:
        conn.executemany(sql, rows)

    conn.execute("BEGIN")
    try:
        await drive(steps, query, many)
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def schema(conn: sqlite3.Connection) -> list[tuple[str, str]]:
    return conn.execute("SELECT name, sql FROM sqlite_master ORDER BY name").fetchall()


async def test_the_table_takes_the_new_check_keeping_rows_indexes_and_triggers(
    conn: sqlite3.Connection,
) -> None:
    before = dict(schema(conn))
    await rebuilt(conn, CHANGE)
    after = dict(schema(conn))
    assert after.keys() == before.keys()
    assert {name: after[name] for name in after if name != "stakes"} == {
        name: before[name] for name in before if name != "stakes"
    }
    assert after["stakes"] == (
        'CREATE TABLE "stakes" (\n'
        "            id INTEGER PRIMARY KEY,\n"
        "            player_id INTEGER NOT NULL REFERENCES players (id),\n"
        "            amount INTEGER NOT NULL CHECK (amount <> 13),\n"
        "            CHECK (\n"
        "                amount > 0\n"
        "                    AND amount <= 500\n"
        "            )\n"
        "        )"
    )
    assert conn.execute("SELECT id, amount FROM stakes ORDER BY id").fetchall() == [
        (4, 20),
        (9, 100),
    ]
    conn.execute("INSERT INTO stakes VALUES (10, 1, 500)")
    for amount in (501, 13, 0):
        with pytest.raises(sqlite3.IntegrityError, match="CHECK constraint failed"):
            conn.execute("INSERT INTO stakes (player_id, amount) VALUES (1, ?)", (amount,))
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
        conn.execute("INSERT INTO stakes (player_id, amount) VALUES (2, 50)")


async def test_a_row_the_new_check_refuses_leaves_the_table_as_it_was(
    conn: sqlite3.Connection,
) -> None:
    before = schema(conn)
    narrower = CHANGE.replace("500", "50")
    with pytest.raises(sqlite3.IntegrityError, match="CHECK constraint failed"):
        await rebuilt(conn, narrower)
    assert schema(conn) == before
    assert conn.execute("SELECT id, amount FROM stakes ORDER BY id").fetchall() == [
        (4, 20),
        (9, 100),
    ]


async def test_rows_that_break_a_foreign_key_stop_the_rebuild(
    conn: sqlite3.Connection,
) -> None:
    conn.execute("PRAGMA foreign_keys = OFF")
    conn.execute("INSERT INTO stakes VALUES (12, 7, 30)")  # no player 7
    before = schema(conn)
    with pytest.raises(RebuildError, match="1 rows of 'stakes' break a foreign key"):
        await rebuilt(conn, CHANGE)
    assert schema(conn) == before


def test_a_named_check_is_chosen_by_its_name_and_an_unclear_one_is_refused() -> None:
    created = (
        "CREATE TABLE t (a INT, CHECK (a < 9), CONSTRAINT t_low CHECK (a > 0),"
        " CONSTRAINT t_odd CHECK (a % 2 = 1))"
    )
    assert with_check(created, "t_low", "a > 1") == (
        "CREATE TABLE t (a INT, CHECK (a < 9), CHECK (a > 1), CONSTRAINT t_odd CHECK (a % 2 = 1))"
    )
    # No check of that name: the one unnamed table check is the one meant.
    assert with_check(created, "t_check", "a < 5").startswith(
        "CREATE TABLE t (a INT, CHECK (a < 5),"
    )
    with pytest.raises(RebuildError, match="no one table check"):
        with_check("CREATE TABLE t (a INT, CHECK (a < 9), CHECK (a > 0))", "t_check", "a > 1")
    with pytest.raises(RebuildError, match="no one table check"):
        with_check("CREATE TABLE t (a INT CHECK (a < 9), b TEXT)", "t_check", "a > 1")


def test_other_statements_run_as_written() -> None:
    assert sqlite_steps("ALTER TABLE t ADD COLUMN b TEXT;") is None
    assert sqlite_steps("CREATE TABLE t (a INT CHECK (a > 0));") is None


async def test_a_table_other_tables_refer_to_is_not_rebuilt(conn: sqlite3.Connection) -> None:
    before = schema(conn)
    change = (
        "ALTER TABLE players DROP CONSTRAINT players_check,"
        " ADD CONSTRAINT players_check CHECK (id > 1);"
    )
    with pytest.raises(RebuildError, match="'players' cannot be rebuilt: stakes refer to it"):
        await rebuilt(conn, change)
    assert schema(conn) == before
