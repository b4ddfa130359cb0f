"""The coach's grades outlive a SIGKILL between a round's settlement and its grading.

The bot runs as ``python -m bot``. A single-deck table opened in another channel keeps the
strategy worker busy for seconds (its chart), so the round settled at the first table
waits in the worker's queue to be graded; the process is killed there. The round is
settled and ungraded in the database; started again, the bot grades it from its journal,
once, as the engine grades that journal.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from contextlib import closing

import pytest
from table_players import PLAY_WEIGHTS, Casino, bot_process

import db
from bot.coach_grading import grade_round
from bot.engine import Rules
from fakediscord import FakeDiscord
from fakediscord.records import FakeMessage
from tests.db.invariants import check_invariants
from tests.support.discord_world import labels_enabled
from tests.support.table_buttons import round_no

#: Seconds the restarted bot has to grade the round (its worker works out a chart first).
GRADED_WITHIN_S = 120


def playable(message: FakeMessage) -> set[str]:
    return labels_enabled(message) & PLAY_WEIGHTS.keys()


def query(url: str, sql: str, *params: object) -> list[tuple[object, ...]]:
    with closing(sqlite3.connect(db.sqlite_path(url))) as conn:
        return list(conn.execute(sql, params))


async def play_out(fake: FakeDiscord, player: object, table: FakeMessage, before: int) -> None:
    """Decline insurance and stand until the round ``before`` is settled."""
    for _ in range(20):
        if round_no(table) != before:
            return
        if "No insurance" in playable(table):
            await fake.click(player, table, label="No insurance")  # type: ignore[arg-type]
        elif "Stand" in playable(table):
            await fake.click(player, table, label="Stand")  # type: ignore[arg-type]
        await fake.wait_for(lambda: round_no(table) != before or bool(playable(table)))
    raise AssertionError("the round did not finish")


async def until_graded(url: str, round_id: int) -> None:
    """Return once the round is marked graded (the restarted process grades it)."""
    for _ in range(GRADED_WITHIN_S * 10):
        if query(url, "SELECT 1 FROM coach_rounds WHERE round_id = ?", round_id):
            return
        await asyncio.sleep(0.1)  # another process's progress: polled, with a deadline
    raise AssertionError(f"round {round_id} was not graded within {GRADED_WITHIN_S} s")


async def test_a_round_settled_before_a_kill_is_graded_after_the_restart(
    fake_discord: FakeDiscord, tmp_path: pytest.TempPathFactory
) -> None:
    url = f"sqlite:///{tmp_path}/chips.sqlite3"
    casino = Casino.build(fake_discord, "Casino", players=1)
    (alice,) = casino.players
    other = fake_discord.add_text_channel(casino.guild, "single-deck")
    process = bot_process(fake_discord, url)
    await process.start()
    try:
        start = await fake_discord.slash(alice, "blackjack start", casino.channel)
        table = start.original
        assert table is not None
        before = round_no(table)
        assert before is not None
        await fake_discord.slash(alice, "bet", casino.channel, amount="50")
        await fake_discord.wait_for(lambda: bool(playable(table)) or round_no(table) != before)
        await fake_discord.slash(alice, "blackjack start", other, preset="single-deck")
        await play_out(fake_discord, alice, table, before)
        await process.kill()
        [(round_id, rules_json)] = query(
            url,
            "SELECT id, rules_json FROM rounds WHERE status = 'settled' AND channel_id = ?",
            casino.channel.id,
        )
        assert query(url, "SELECT 1 FROM coach_rounds WHERE round_id = ?", round_id) == []

        await process.start()
        await until_graded(url, round_id)
    finally:
        await process.stop()
    journal = query(
        url,
        "SELECT player, action, detail FROM table_actions WHERE round_id = ? ORDER BY id",
        round_id,
    )
    rules = Rules.from_dict(json.loads(str(rules_json)))
    expected = grade_round(rules, [(str(p), str(a), d) for p, a, d in journal])  # type: ignore[misc]
    stored = query(
        url,
        "SELECT user_id, chosen, best, stake, cost_ppm FROM coach_decisions"
        " WHERE round_id = ? ORDER BY id",
        round_id,
    )
    assert stored == [
        (g.user_id, g.chosen, g.best, g.stake, round(g.cost * 1_000_000)) for g in expected
    ]
    assert len(stored) == sum(1 for _, action, _ in journal if action not in ("deal", "timeout"))
    await check_invariants(url)
