"""``python -m bot check``, the health check: settings, database, schema."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import db

ROOT = Path(__file__).resolve().parents[2]


def check(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    return subprocess.run(
        [sys.executable, "-m", "bot", "check"],
        cwd=tmp_path,  # no .env there
        env={**clean, "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def created_by_the_bot(url: str) -> None:
    """A database as the bot leaves it on its first start: created and migrated."""

    async def create() -> None:
        async with db.open_store(url):
            pass

    asyncio.run(create())


def test_check_passes_on_the_database_the_bot_created(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/b.db"
    created_by_the_bot(url)
    result = check(tmp_path, DISCORD_TOKEN="x", DATABASE_URL=url)
    assert result.returncode == 0, result.stderr
    assert "config: ok" in result.stdout
    assert f"database: ok (SQLite file {tmp_path}/b.db)" in result.stdout
    assert "migrations: ok" in result.stdout


def test_check_creates_nothing_and_reports_a_missing_database(tmp_path: Path) -> None:
    missing = tmp_path / "nonexistent" / "dir" / "x.db"
    result = check(tmp_path, DISCORD_TOKEN="x", DATABASE_URL=f"sqlite:///{missing}")
    assert result.returncode == 1
    assert f"database: FAILED: no SQLite database at '{missing}'" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "nonexistent").exists()


def test_check_of_the_default_database_says_where_it_looked(tmp_path: Path) -> None:
    result = check(tmp_path, DISCORD_TOKEN="x")
    assert result.returncode == 1
    assert f"no SQLite database at '{tmp_path}/data/blackjack.sqlite3'" in result.stderr
    assert not (tmp_path / "data").exists()


def test_check_fails_on_an_empty_file_without_creating_the_schema(tmp_path: Path) -> None:
    (tmp_path / "empty.db").touch()
    result = check(tmp_path, DISCORD_TOKEN="x", DATABASE_URL=f"sqlite:///{tmp_path}/empty.db")
    assert result.returncode == 1
    assert "has no bot schema" in result.stderr
    with sqlite3.connect(tmp_path / "empty.db") as conn:
        assert conn.execute("SELECT name FROM sqlite_master").fetchall() == []


def test_check_fails_without_a_token_and_says_where_it_looked(tmp_path: Path) -> None:
    result = check(tmp_path, DATABASE_URL=f"sqlite:///{tmp_path}/b.db")
    assert result.returncode == 1
    assert "DISCORD_TOKEN is not set" in result.stderr
    assert f"looked in the environment and in {tmp_path}/.env" in result.stderr
    assert "in a .env file in the folder you start the bot from" in result.stderr
    assert "Traceback" not in result.stderr


def test_check_fails_on_an_unreachable_database(tmp_path: Path) -> None:
    result = check(tmp_path, DISCORD_TOKEN="x", DATABASE_URL="postgresql://nobody@127.0.0.1:1/none")
    assert result.returncode == 1
    assert "database: FAILED" in result.stderr
    assert "DATABASE_URL" in result.stderr
    assert "Traceback" not in result.stderr


def test_check_fails_on_a_database_from_newer_code(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/b.db"
    created_by_the_bot(url)
    with sqlite3.connect(tmp_path / "b.db") as conn:
        conn.execute("INSERT INTO schema_version VALUES (999, 'from_the_future', 0)")
    result = check(tmp_path, DISCORD_TOKEN="x", DATABASE_URL=url)
    assert result.returncode == 1
    assert "migrations: FAILED: the database is at schema 999" in result.stderr
    assert "newer version of the bot" in result.stderr
