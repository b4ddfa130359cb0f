"""The command line as a stranger meets it (issue 13): no network, Ctrl-C, a closed pipe, the
terminal game's words and seeds. Each runs ``python -m bot`` as a child process."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.cli import SEED, closed_port, play

ROOT = Path(__file__).resolve().parents[2]


def bot_process(
    *args: str, env: dict[str, str] | None = None, cwd: Path = ROOT
) -> subprocess.Popen[bytes]:
    """``python -m bot ARGS`` in its own process group (Ctrl-C reaches the whole group)."""
    return subprocess.Popen(
        [sys.executable, "-m", "bot", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        start_new_session=True,
    )


def read_until(process: subprocess.Popen[bytes], marker: str, max_wait: float = 60.0) -> str:
    """Stdout of ``process`` up to and including ``marker`` (it is waiting for input then)."""
    assert process.stdout is not None
    seen = b""
    give_up = time.monotonic() + max_wait
    while marker.encode() not in seen:
        left = give_up - time.monotonic()
        assert left > 0, f"never printed {marker!r}: {seen.decode(errors='replace')}"
        ready, _, _ = select.select([process.stdout], [], [], left)
        if ready:
            chunk = os.read(process.stdout.fileno(), 65536)
            assert chunk, f"exited before {marker!r}: {seen.decode(errors='replace')}"
            seen += chunk
    return seen.decode()


def ctrl_c(process: subprocess.Popen[bytes]) -> tuple[int, str, str]:
    """Send SIGINT to the process group, as a terminal's Ctrl-C does; its exit and output."""
    os.killpg(process.pid, signal.SIGINT)
    try:
        out, err = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        # It did not stop: end the whole group (workers too) so no process outlives the test.
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        raise
    return process.returncode, out.decode(), err.decode()


# -------------------------------------------------------------------- item 8: no network


@pytest.mark.parametrize(
    "api_base",
    [
        pytest.param(f"http://127.0.0.1:{closed_port()}/api/v10", id="refused"),
        pytest.param("http://discord.invalid/api/v10", id="unresolvable"),
    ],
)
def test_an_unreachable_discord_is_one_line_and_a_failing_exit(
    api_base: str, tmp_path: Path
) -> None:
    env = {
        "DISCORD_TOKEN": "a-token",
        "DISCORD_API_BASE": api_base,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'x.sqlite3'}",
        "LOG_LEVEL": "WARNING",
    }
    process = bot_process(env=env, cwd=tmp_path)
    _, err = process.communicate(timeout=120)
    text = err.decode()
    assert process.returncode == 1
    assert "Traceback" not in text
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1, text
    assert lines[0].startswith(f"error: cannot reach Discord at {api_base} (")
    assert lines[0].endswith("Check the network connection, then start the bot again.")


# -------------------------------------------------------------------- item 9: Ctrl-C, pipes


def test_ctrl_c_in_play_leaves_the_table_quietly_and_reveals_the_seed() -> None:
    process = bot_process("play", "--seed", SEED)
    read_until(process, "Bet per hand")
    code, out, err = ctrl_c(process)
    assert code == 0
    assert "Traceback" not in err
    assert "You leave the table with 1000 chips." in out
    assert f"This shoe's seed is {SEED} (check it: python -m bot verify --seed {SEED}" in out


def test_ctrl_c_mid_hand_in_play_stands_and_says_you_left() -> None:
    process = bot_process("play", "--stack", "10♠ 9♦ 8♥ 8♣")
    read_until(process, "Bet per hand")
    assert process.stdin is not None
    process.stdin.write(b"10\n")
    process.stdin.flush()
    read_until(process, "[s]tand")
    code, out, err = ctrl_c(process)
    assert code == 0
    assert "Traceback" not in err
    assert "you stand on 18 (you left the table)" in out
    assert "timed out" not in out
    assert "You leave the table with 1010 chips." in out


def test_ctrl_c_in_simulate_with_two_workers_says_what_was_done() -> None:
    process = bot_process("simulate", "--hands", "100000000", "--workers", "2", "--seed", SEED)
    assert process.stderr is not None
    # Wait until the workers are running (the chart is built first), via their progress.
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        children = Path(f"/proc/{process.pid}/task/{process.pid}/children")
        if children.exists() and len(children.read_text().split()) >= 2:
            break
        select.select([], [], [], 0.05)
    code, out, err = ctrl_c(process)
    assert code == 130
    assert out.startswith("100,000,000 rounds of basic strategy")  # the heading, printed first
    assert len(out.splitlines()) == 1
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("Stopped (Ctrl-C) after about ")
    assert lines[0].endswith(f"of 100,000,000 rounds: no result. The seed was {SEED}.")


def test_verify_into_a_closed_reader_ends_quietly() -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first line (like `| head -0`)
    done = subprocess.run(
        [sys.executable, "-m", "bot", "verify", "--seed", SEED, "--continuations", "20"],
        stdout=write_end,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    os.close(write_end)
    assert done.returncode == 141
    assert done.stderr.decode() == ""


# -------------------------------------------------------------------- item 10: the terminal game


@pytest.mark.parametrize("stdin", ["q\n", ""], ids=["q", "ctrl-d"])
def test_leaving_reveals_the_current_shoes_seed(stdin: str) -> None:
    out = play(stdin, "--seed", SEED).stdout
    assert (
        f"This shoe's seed is {SEED} (check it: python -m bot verify --seed {SEED} --decks 6)."
        in out
    )


def test_the_table_rules_are_shown_when_it_opens() -> None:
    out = play("q\n", "--preset", "reno-1972").stdout
    head = out.split("Bet per hand")[0]
    assert head.startswith("Blackjack (reno-1972): one hand a round.")
    assert "Every bet is 2 a hand" in head
    assert "The dealer" in head


def test_double_and_split_are_not_offered_when_you_cannot_afford_them() -> None:
    # Your 8 8 against a 10, with every chip on the bet.
    out = play("10\ns\n", "--chips", "10", "--stack", "8♠ 10♦ 8♥ 7♣").stdout
    assert "Hand 1 (8♠ 8♥ (16)): [h]it, [s]tand, su[r]render, [?] hint? " in out
    assert "[d]ouble" not in out
    assert "s[p]lit" not in out


def test_the_terminal_game_speaks_to_you_in_the_second_person() -> None:
    out = play("10\nh\ns\n", "--stack", "5♠ 10♦ 6♥ 7♣ 2♦").stdout
    assert "you are dealt 5♠ 6♥ (11), stake 10" in out
    assert "you hit: 2♦ → 13" in out
    assert "you stand on 13" in out
    for wrong in ("you is", "you hits", "you stands", "you has"):
        assert wrong not in out


def test_insurance_is_not_offered_when_you_cannot_afford_it() -> None:
    # Your 8 8 against the dealer's ace, with every chip on the bet.
    out = play("10\ns\n", "--chips", "10", "--stack", "8♠ A♦ 8♥ 7♣").stdout
    assert "The dealer shows an ace. Insurance costs 5: you have 0." in out
    assert "[y/n]" not in out
    assert "you decline insurance" in out
