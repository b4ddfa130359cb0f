"""The playground as a newcomer met it (issue 32): refusals in plain words, and a busy port
found before the bot connects."""

from __future__ import annotations

import socket

from tests.bot_command import ROOT
from tests.playground.served import Served
from tests.support.cli import cli


async def test_a_bad_choice_lists_the_choices_in_words(served: Served) -> None:
    alice, _, channel = served.ids()
    outcome = await served.command(alice, channel, "/blackjack start preset:nonsense")
    assert outcome["ok"] is False
    assert "option 'preset' must be one of: " in outcome["refused"]
    assert "vegas-shoe" in outcome["refused"]
    assert "[" not in outcome["refused"]


async def test_a_taken_name_is_refused_with_the_name_as_typed(served: Served) -> None:
    status, _ = await served.post("/api/players", {"name": "Carol"})
    assert status == 200
    status, body = await served.post("/api/players", {"name": "Carol"})
    assert status == 400
    assert body["error"] == "There is already a player called Carol."
    status, body = await served.post("/api/players", {"name": " carol "})
    assert (status, body["error"]) == (400, "There is already a player called Carol.")


def test_a_busy_port_is_refused_before_the_bot_connects() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = cli("playground", "--port", str(port))
    assert done.returncode == 1
    assert "(another --port?)" in done.stderr
    assert "logging in" not in done.stderr  # the bot never started
    assert "The playground is at" not in done.stdout


def test_readme_says_croupier_is_the_admin() -> None:
    readme = " ".join((ROOT / "README.md").read_text().split())
    assert "Croupier is the server's admin (Manage Server)" in readme
