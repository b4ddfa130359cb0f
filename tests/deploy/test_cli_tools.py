"""The command-line tools as issue 32 met them: rule flags against a preset's values, seeds,
help texts and the simulation's progress. Each runs ``python -m bot`` as a child process."""

from __future__ import annotations

import contextlib
import json
import os
import pty
import re
import select
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.cli.copy_db import counted
from tests.bot_command import bot_command
from tests.support.cli import ROOT, SEED, cli, closed_port


@pytest.mark.parametrize(
    "tool",
    [
        ["edge"],
        ["strategy"],
        ["simulate", "--hands", "200", "--json"],
    ],
)
def test_one_deck_moves_the_presets_cut_card_up_and_says_so(tool: list[str]) -> None:
    done = cli(*tool, "--decks", "1")
    assert done.returncode == 0, done.stderr
    assert (
        "note: vegas-shoe deals to a cut card at 75%, too deep for 1 deck; using 70% "
        "(--penetration sets another)"
    ) in done.stderr


def test_ev_takes_one_deck_without_a_word_of_the_cut_card_it_never_deals() -> None:
    done = cli("ev", "--decks", "1", "--hand", "10,6", "--up", "T")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert "Stand" in done.stdout


def test_a_penetration_the_user_gave_is_refused_with_the_deepest_that_fits() -> None:
    done = cli("edge", "--decks", "1", "--penetration", "0.75")
    assert done.returncode == 2
    assert "leave at least 15 (--penetration 0.7 or less)" in done.stderr


def test_edge_gives_its_cut_card_caveat_once() -> None:
    out = cli("edge").stdout
    assert out.count("cut card") == 1
    assert out.count("simulate") == 1


@pytest.mark.parametrize("tool", [["play"], ["simulate", "--hands", "10"], ["verify"]])
def test_every_seed_follows_one_rule_and_every_help_says_it(tool: list[str]) -> None:
    refused = cli(*tool, "--seed", "5eed")
    assert refused.returncode == 2
    assert "a seed is 64 hex digits (32 bytes), not '5eed'" in refused.stderr
    help_text = " ".join(cli(tool[0], "--help").stdout.split())
    assert "--seed HEX 64 hex digits (32 bytes): " in help_text


def test_readme_lists_every_rule_flag_and_value() -> None:
    readme = " ".join((ROOT / "README.md").read_text().split())
    for flag in (
        "--blackjack-pays 3:2|6:5|1:1|2:1",
        "--double any|9-11|10-11|none",
        "--peek-ace-only/--no-peek-ace-only",
        "A `--seed` is 64 hex digits for every tool",
    ):
        assert flag in readme


def simulate_process(*flags: str, stderr: int | None = None) -> subprocess.Popen[bytes]:
    """``simulate`` over 100 M rounds (it never ends on its own in a test), in its own group."""
    return subprocess.Popen(
        [sys.executable, "-m", "bot", "simulate", "--hands", "100000000", *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE if stderr is None else stderr,
        cwd=ROOT,
        start_new_session=True,
    )


def workers_of(process: subprocess.Popen[bytes], count: int) -> list[int]:
    """The pids of ``process``'s ``count`` workers, once all have started."""
    children = Path(f"/proc/{process.pid}/task/{process.pid}/children")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        pids = [int(pid) for pid in children.read_text().split()] if children.exists() else []
        if len(pids) >= count:
            return pids
        select.select([], [], [], 0.05)
    raise AssertionError(f"{count} workers never started")


def wait_gone(pids: list[int], max_wait: float = 30.0) -> list[int]:
    """The pids of ``pids`` still running after ``max_wait`` seconds (none, once all end)."""
    deadline = time.monotonic() + max_wait
    alive = pids
    while alive and time.monotonic() < deadline:
        alive = [pid for pid in alive if Path(f"/proc/{pid}").exists() and not _zombie(pid)]
        select.select([], [], [], 0.05)
    return alive


def end_group(process: subprocess.Popen[bytes]) -> None:
    """Whatever a failed test left of ``process``'s group: no worker outlives the test."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.communicate(timeout=60)


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return False


def test_simulate_prints_its_heading_first_and_stays_quiet_when_piped() -> None:
    process = simulate_process("--seed", SEED)
    assert process.stdout is not None
    assert process.stderr is not None
    heading = process.stdout.readline().decode()
    assert heading.startswith("100,000,000 rounds of basic strategy, one spot of 10 chips")
    os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert "[" not in err.decode()
    assert "rounds/s" not in err.decode()


def test_simulate_draws_a_progress_bar_on_a_terminal() -> None:
    controller, terminal = pty.openpty()
    process = simulate_process(stderr=terminal)
    os.close(terminal)
    seen = b""
    deadline = time.monotonic() + 60
    try:
        while b"rounds/s" not in seen and time.monotonic() < deadline:
            ready, _, _ = select.select([controller], [], [], 1)
            if ready:
                seen += os.read(controller, 4096)
    finally:
        os.killpg(process.pid, signal.SIGINT)
        process.communicate(timeout=60)
        os.close(controller)
    assert b"\r[" in seen
    assert b"/100,000,000 rounds" in seen


def test_killing_simulate_stops_its_workers() -> None:
    process = simulate_process("--workers", "2")
    try:
        pids = workers_of(process, 2)
        process.terminate()  # kill PID: SIGTERM to the parent alone
        assert process.wait(timeout=30) == 128 + signal.SIGTERM
        assert wait_gone(pids) == []
    finally:
        end_group(process)


def test_workers_stop_themselves_when_their_parent_is_killed_outright() -> None:
    process = simulate_process("--workers", "2")
    try:
        pids = workers_of(process, 2)
        process.kill()  # SIGKILL: the parent cannot stop them; they see it gone
        process.wait(timeout=30)
        assert wait_gone(pids) == []
    finally:
        end_group(process)


def test_copy_db_blames_its_to_url_when_that_is_what_fails(tmp_path: Path) -> None:
    source = tmp_path / "chips.sqlite3"
    source.touch()
    with socket.socket() as closed:  # a port nothing listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    done = bot_command(
        tmp_path,
        "copy-db",
        "--to",
        f"postgresql://u:secret@127.0.0.1:{port}/x",
        DATABASE_URL=f"sqlite:///{source}",
    )
    assert done.returncode == 1
    assert "fix the --to URL or start the server" in done.stderr
    assert "DATABASE_URL" not in done.stderr
    assert "secret" not in done.stderr


def test_copy_db_counts_in_words() -> None:
    assert [counted(1, "row"), counted(0, "row"), counted(1200, "row")] == [
        "1 row",
        "0 rows",
        "1,200 rows",
    ]


def test_backup_into_a_missing_folder_names_the_folder(tmp_path: Path) -> None:
    source = tmp_path / "chips.sqlite3"
    sqlite3.connect(source).close()
    done = bot_command(
        tmp_path,
        "backup",
        str(tmp_path / "nowhere" / "b.sqlite3"),
        DATABASE_URL=f"sqlite:///{source}",
    )
    assert done.returncode == 1
    assert f"there is no folder '{tmp_path / 'nowhere'}' to write b.sqlite3 into" in done.stderr
    assert not (tmp_path / "nowhere").exists()


def test_the_top_help_has_no_markup() -> None:
    out = cli("--help").stdout
    assert "``" not in out
    assert "With no command it starts the Discord bot" in " ".join(out.split())


def test_run_help_lists_every_setting_of_env_example() -> None:
    example = (ROOT / ".env.example").read_text()
    names = set(re.findall(r"^#?\s*([A-Z][A-Z_]+)=", example, re.MULTILINE))
    names -= {"DISCORD_API_BASE", "DISCORD_GATEWAY_URL"}  # the fake Discord's, for tests
    names -= {"POSTGRES_PASSWORD"}  # compose's postgres service's, not the bot's
    assert "DISCORD_TOKEN" in names
    out = cli("run", "--help").stdout
    assert [name for name in sorted(names) if name not in out] == []


@pytest.mark.parametrize("tool", ["backup", "copy-db"])
def test_backup_and_copy_db_say_they_read_database_url(tool: str) -> None:
    out = " ".join(cli(tool, "--help").stdout.split())
    assert f"{tool} reads the SQLite database that DATABASE_URL names" in out


def unreachable_bot(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """The bot against a Discord that refuses connections: it logs, then exits 1."""
    settings = {
        "DISCORD_TOKEN": "a-token",
        "DISCORD_API_BASE": f"http://127.0.0.1:{closed_port()}/api/v10",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'x.sqlite3'}",
        **env,
    }
    return bot_command(tmp_path, "run", **settings)


def test_text_logs_into_a_pipe_have_no_colour(tmp_path: Path) -> None:
    done = unreachable_bot(tmp_path, LOG_LEVEL="INFO")
    assert done.returncode == 1
    assert "] [INFO    ] " in done.stderr  # discord.py's layout, logged
    assert "\x1b[" not in done.stderr


def test_with_json_logs_the_fatal_line_is_json_too(tmp_path: Path) -> None:
    done = unreachable_bot(tmp_path, LOG_LEVEL="WARNING", LOG_FORMAT="json")
    assert done.returncode == 1
    lines = [json.loads(line) for line in done.stderr.splitlines() if line.strip()]
    assert lines[-1]["level"] == "CRITICAL"
    assert lines[-1]["message"].startswith("cannot reach Discord at http://127.0.0.1:")


@pytest.mark.parametrize("port", ["99999", "65536", "-1", "eighty"])
def test_a_playground_port_out_of_range_is_refused_in_one_line(port: str) -> None:
    done = cli("playground", "--port", port)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (
        f"python -m bot playground: error: argument --port: must be 0 to 65535, not '{port}'"
    )
    assert "Traceback" not in done.stderr
