"""Running ``python -m bot SUBCOMMAND`` as a host would: its own process, settings from the
environment only (no .env), in a scratch folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Settings of the test's own environment that must not leak into the command.
SETTINGS = ("DISCORD_", "DATABASE_", "LOG_", "METRICS_")


def command_env(**env: str) -> dict[str, str]:
    """This process's environment without the bot's settings, plus ``env``."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(SETTINGS)}
    return {**clean, "PYTHONPATH": str(ROOT), **env}


def bot_command(cwd: Path, *argv: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m bot *argv`` in ``cwd`` with ``env``; its exit status and output."""
    return subprocess.run(
        [sys.executable, "-m", "bot", *argv],
        cwd=cwd,
        env=command_env(**env),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
