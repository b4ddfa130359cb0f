"""``python -m bot check``, the health check: settings, database, schema."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

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


def test_check_passes_with_a_token_and_a_fresh_sqlite_file(tmp_path: Path) -> None:
    result = check(tmp_path, DISCORD_TOKEN="x", DATABASE_URL=f"sqlite:///{tmp_path}/b.db")
    assert result.returncode == 0, result.stderr
    assert "config: ok" in result.stdout
    assert "migrations: ok" in result.stdout


def test_check_fails_without_a_token_and_says_how_to_get_one(tmp_path: Path) -> None:
    result = check(tmp_path, DATABASE_URL=f"sqlite:///{tmp_path}/b.db")
    assert result.returncode == 1
    assert "DISCORD_TOKEN is not set" in result.stderr
    assert "Traceback" not in result.stderr


def test_check_fails_on_an_unreachable_database(tmp_path: Path) -> None:
    result = check(tmp_path, DISCORD_TOKEN="x", DATABASE_URL="postgresql://nobody@127.0.0.1:1/none")
    assert result.returncode == 1
    assert "database: FAILED" in result.stderr
    assert "DATABASE_URL" in result.stderr
    assert "Traceback" not in result.stderr


def test_check_fails_on_a_database_from_newer_code(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/b.db"
    assert check(tmp_path, DISCORD_TOKEN="x", DATABASE_URL=url).returncode == 0
    with sqlite3.connect(tmp_path / "b.db") as conn:
        conn.execute("INSERT INTO schema_version VALUES (999, 'from_the_future', 0)")
    result = check(tmp_path, DISCORD_TOKEN="x", DATABASE_URL=url)
    assert result.returncode == 1
    assert "database: FAILED" in result.stderr
    assert "newer version of the bot" in result.stderr
