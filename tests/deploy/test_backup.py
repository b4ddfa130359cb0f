"""``python -m bot backup``: a consistent copy of the SQLite database while chips keep moving."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import db
from tests.bot_command import bot_command, command_env
from tests.db.invariants import check_invariants


async def test_a_backup_taken_during_writes_passes_check_and_the_invariants(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'live.sqlite3'}"
    copy = tmp_path / "backup.sqlite3"
    async with db.open_store(url) as store:
        for user in range(1, 201):
            await store.balance(1, user)
        stop = asyncio.Event()

        async def keep_writing() -> int:
            writes = 0
            while not stop.is_set():
                user = 1 + writes % 200
                await store.adjust(1, user, 1 + writes % 7, 99, "busy")
                await store.adjust(1, user, -1, 99, "busy")
                writes += 2
            return writes

        writer = asyncio.create_task(keep_writing())
        rows_before = len(await store.reports.ledger(1, 1, 1000))
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "backup", str(copy),
            cwd=tmp_path, env=command_env(DATABASE_URL=url),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        out, err = await process.communicate()
        stop.set()
        writes_during = await writer
        rows_after = len(await store.reports.ledger(1, 1, 1000))

    assert process.returncode == 0, err.decode()
    assert out.decode().startswith("backup: ok")
    assert writes_during > 0
    assert rows_after > rows_before  # the bot's writes went on while the copy was taken
    restored = f"sqlite:///{copy}"
    checked = bot_command(tmp_path, "check", "--no-token", DATABASE_URL=restored)
    assert checked.returncode == 0, checked.stderr
    assert "migrations: ok" in checked.stdout
    await check_invariants(restored)
    async with db.open_store(restored) as backup:
        assert (await backup.reports.leaderboard(1)).total_players == 200
        rows_in_copy = len(await backup.reports.ledger(1, 1, 1000))
    assert rows_before <= rows_in_copy <= rows_after  # as of one moment of the live file


async def test_a_backup_never_overwrites_a_file(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'live.sqlite3'}"
    async with db.open_store(url):  # the bot's first start creates it (check creates nothing)
        pass
    assert bot_command(tmp_path, "check", "--no-token", DATABASE_URL=url).returncode == 0
    existing = tmp_path / "keep.txt"
    existing.write_text("mine")
    refused = bot_command(tmp_path, "backup", str(existing), DATABASE_URL=url)
    assert refused.returncode == 1
    assert "exists; name a new file" in refused.stderr
    assert existing.read_text() == "mine"


def test_a_postgresql_backup_is_pg_dump_and_the_recipe_says_how(tmp_path: Path) -> None:
    told = bot_command(
        tmp_path, "backup", str(tmp_path / "x"), DATABASE_URL="postgresql://u@localhost/bj"
    )
    assert told.returncode == 2
    assert "pg_dump --format=custom" in told.stderr
    assert "pg_restore" in told.stderr
    assert not (tmp_path / "x").exists()


async def test_a_backup_is_as_private_as_the_database(tmp_path: Path) -> None:
    live = tmp_path / "live.sqlite3"
    async with db.open_store(f"sqlite:///{live}") as store:
        await store.balance(1, 1)
    for mode in (0o600, 0o640):
        live.chmod(mode)
        copy = tmp_path / f"backup-{mode:o}.sqlite3"
        made = bot_command(tmp_path, "backup", str(copy), DATABASE_URL=f"sqlite:///{live}")
        assert made.returncode == 0, made.stderr
        assert copy.stat().st_mode & 0o777 == mode


def test_a_failed_backup_leaves_no_file(tmp_path: Path) -> None:
    notes = tmp_path / "notes.sqlite3"
    notes.write_text("not a database, though it is named like one\n" * 50)
    copy = tmp_path / "backup.sqlite3"
    failed = bot_command(tmp_path, "backup", str(copy), DATABASE_URL=f"sqlite:///{notes}")
    assert failed.returncode == 1
    assert failed.stderr == "error: backup failed: file is not a database\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.sqlite3"]
