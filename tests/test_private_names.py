"""scripts/check_private_names.py (run by ``make lint``): it fails on a private name of
discord.py reached from the bot, and passes on the project as it is."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "check_private_names.py"
TREE = ("bot", "cogs", "db", "playground", "fakediscord")


def run_check(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), "--root", str(root)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """The project's checked folders, copied."""
    for folder in TREE:
        shutil.copytree(
            ROOT / folder, tmp_path / folder, ignore=shutil.ignore_patterns("__pycache__")
        )
    return tmp_path


def test_the_projects_own_tree_passes(copy: Path) -> None:
    checked = run_check(copy)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout == ""


def test_an_added_interaction_state_fails(copy: Path) -> None:
    added = copy / "cogs" / "table" / "peek.py"
    added.write_text(
        "import discord\n"
        "\n"
        "\n"
        "def state_of(interaction: discord.Interaction) -> object:\n"
        "    return interaction._state\n",
        encoding="utf-8",
    )
    checked = run_check(copy)
    assert checked.returncode == 1
    assert checked.stdout.splitlines() == [
        "cogs/table/peek.py:5:12: interaction._state: a private name of discord/aiohttp/aiosqlite"
    ]


@pytest.mark.parametrize(
    ("source", "name"),
    [
        ("from discord.utils import _to_json\n", "_to_json"),
        ("import discord\nflags = discord.MessageFlags._from_value(64)\n", "_from_value"),
        ("from discord.http import handle_message_parameters\n", "handle_message_parameters"),
        (
            "from aiohttp import web\n\n\ndef port(site: web.TCPSite) -> object:\n"
            "    return getattr(site, '_server')\n",
            "_server",
        ),
        ("import discord.http\nBASE = discord.http.Route.BASE\n", "Route"),
    ],
)
def test_private_and_non_public_names_of_the_libraries_fail(
    copy: Path, source: str, name: str
) -> None:
    (copy / "db" / "peek.py").write_text(source, encoding="utf-8")
    checked = run_check(copy)
    assert checked.returncode == 1
    (line,) = checked.stdout.splitlines()
    assert line.startswith("db/peek.py:")
    assert name in line


def test_the_allowed_endpoint_patch_is_allowed_in_its_module_alone(copy: Path) -> None:
    """Route.BASE is set in bot/endpoints.py (the allow-list's entry); elsewhere it fails,
    and the entry fails once that module no longer needs it."""
    endpoints = (copy / "bot" / "endpoints.py").read_text(encoding="utf-8")
    (copy / "bot" / "peek.py").write_text(endpoints, encoding="utf-8")
    flagged = run_check(copy).stdout.splitlines()
    assert flagged
    assert all(line.startswith("bot/peek.py:") for line in flagged)
    (copy / "bot" / "peek.py").unlink()
    (copy / "bot" / "endpoints.py").write_text('"""Nothing patched."""\n', encoding="utf-8")
    stale = run_check(copy)
    assert stale.returncode == 1
    assert "allow-list entry" in stale.stdout
