"""A bridged server's UnbelievaBoat token is stored, and never printed: not by ``check``,
not by ``backup`` (at DEBUG), not in a bridge's repr."""

from __future__ import annotations

from pathlib import Path

import db
from tests.bot_command import bot_command
from tests.bridge.conftest import ADMIN, GUILD, TOKEN


async def test_check_and_backup_never_print_the_token(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'live.sqlite3'}"
    async with db.open_store(url) as store:
        await store.bridge.connect(GUILD, TOKEN.reveal(), ADMIN)
        stored = await store.bridge.bridge(GUILD)
    assert stored is not None
    assert TOKEN.reveal() not in repr(stored)
    checked = bot_command(tmp_path, "check", "--no-token", DATABASE_URL=url, LOG_LEVEL="DEBUG")
    backup = bot_command(
        tmp_path, "backup", str(tmp_path / "copy.sqlite3"), DATABASE_URL=url, LOG_LEVEL="DEBUG"
    )
    assert checked.returncode == 0, checked.stderr
    assert backup.returncode == 0, backup.stderr
    printed = checked.stdout + checked.stderr + backup.stdout + backup.stderr
    assert "database" in printed
    assert TOKEN.reveal() not in printed
