"""``playground --db FILE`` twice: the second run finds the same server, channels and
players, so the host's chips and open table come back."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

from playground.running import Playground
from playground.saved_world import world_file_for
from tests.bot_command import ROOT
from tests.db.invariants import check_invariants


def run_on(database: Path) -> Playground:
    return Playground(f"sqlite:///{database}", world_file=world_file_for(database))


async def test_a_second_run_on_the_same_file_has_the_same_players_chips_and_table(
    tmp_path: Path,
) -> None:
    database = tmp_path / "playground.sqlite3"
    first = run_on(database)
    await first.start()
    try:
        assert first.add_player("Dana Ng ✨").user.global_name == "Dana Ng ✨"
        first.add_channel("side-room")
        alice = first.players()[0]
        channel = first.channels()[0]
        assert (await first.run_command(alice, channel, "/blackjack start")).refused is None
        assert (await first.run_command(alice, channel, "/daily")).refused is None
        assert first.bot is not None
        chips = await first.bot.store.balance(first.guild.id, alice.id)
        assert first.bot.tables.table_in(channel.id) is not None
        ids = (first.guild.id, [(c.id, c.name) for c in first.channels()])
        people = [(m.id, m.user.global_name) for m in first.players()]
    finally:
        await first.stop()

    second = run_on(database)
    await second.start()
    try:
        assert (second.guild.id, [(c.id, c.name) for c in second.channels()]) == ids
        assert [(m.id, m.user.global_name) for m in second.players()] == people
        assert second.bot is not None
        assert await second.bot.store.balance(second.guild.id, alice.id) == chips
        channel = second.channel(channel.id)
        # The table is open again, on a message posted anew in its channel.
        await second.fake.wait_for(
            lambda: any(m.embed is not None for m in second.fake.messages_in(channel)),
            max_wait=10,
        )
        assert second.bot.tables.table_in(channel.id) is not None
        answer = await second.run_command(second.member(alice.id), channel, "/balance")
        assert answer.refused is None
    finally:
        await second.stop()
    await check_invariants(f"sqlite:///{database}")


def run_cli(database: Path) -> str:
    """``python -m bot playground --port 0 --db FILE`` until it serves, then Ctrl-C: its log."""
    command = [sys.executable, "-m", "bot", "playground", "--port", "0", "--db", str(database)]
    with subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    ) as process:
        assert process.stdout is not None
        log = []
        for line in process.stdout:
            log.append(line)
            if line.startswith("The playground is at"):
                process.send_signal(signal.SIGINT)
        assert process.wait(timeout=60) == 0, "".join(log)
    return "".join(log)


def test_the_command_keeps_the_world_beside_its_db_file(tmp_path: Path) -> None:
    database = tmp_path / "chips.sqlite3"
    first_log = run_cli(database)
    world = world_file_for(database)
    saved = world.read_text(encoding="utf-8")
    assert [p["name"] for p in json.loads(saved)["players"]] == ["Alice", "Bob", "Croupier"]
    second_log = run_cli(database)
    assert world.read_text(encoding="utf-8") == saved  # the same server, channels, players
    for log in (first_log, second_log):
        assert "The playground stopped." in log
        assert "WARNING discord.gateway" not in log, log
