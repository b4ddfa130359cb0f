"""``LOG_FORMAT=json``: one JSON object a line, with the guild, channel, table and round ids."""

from __future__ import annotations

import contextlib
import contextvars
import io
import json
import logging
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bot.app import BlackjackBot
from bot.log_context import bind
from bot.log_setup import JsonFormatter
from tests.support.discord_world import World


@contextlib.contextmanager
def json_log(logger: str) -> Iterator[list[dict[str, Any]]]:
    """What ``logger`` writes at INFO and above in the JSON format, parsed, once the block ends."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    target = logging.getLogger(logger)
    old_level = target.level
    target.addHandler(handler)
    target.setLevel(logging.INFO)
    lines: list[dict[str, Any]] = []
    try:
        yield lines
    finally:
        target.removeHandler(handler)
        target.setLevel(old_level)
        lines.extend(json.loads(line) for line in stream.getvalue().splitlines())


async def test_a_failed_command_logs_one_json_line_with_its_guild_and_channel(
    bot: BlackjackBot, world: World, database_url: str, tmp_path: Path
) -> None:
    with sqlite3.connect(tmp_path / "chips.sqlite3") as conn:
        conn.execute("DROP TABLE daily_claims")
    with json_log("bot") as lines:
        await world.say(world.alice, "daily")
    (failure,) = [line for line in lines if line["message"].startswith("command")]
    assert failure["level"] == "ERROR"
    assert failure["logger"] == "bot.app"
    assert failure["message"] == "command daily failed"
    assert failure["command"] == "daily"
    assert failure["guild_id"] == world.guild.id
    assert failure["channel_id"] == world.channel.id
    assert "no such table: daily_claims" in failure["exception"]
    assert failure["time"].endswith("+00:00")


async def test_a_table_closing_logs_its_table_and_round(bot: BlackjackBot, world: World) -> None:
    fake = world.fake
    fake.expect_errors(50001)
    table = await world.start(world.alice)
    await world.click(world.bob, table, "Join")
    await world.bet(world.alice, "100")
    (bet,) = await world.store.reports.ledger(world.guild.id, world.alice.id, 1)
    table_id = world.table().table_id
    # (A deleted message is posted again; a channel the bot can no longer see closes it.)
    fake.deny_bot(world.channel, "view_channel")
    await fake.sync()
    with json_log("cogs") as lines:
        await world.bet(world.bob, "200")  # the edit is refused: the table closes
    (closing,) = [line for line in lines if line["message"].startswith("closing table")]
    assert closing["logger"] == "cogs.table.messages"
    assert closing["level"] == "INFO"
    assert (closing["guild_id"], closing["channel_id"]) == (world.guild.id, world.channel.id)
    assert (closing["table_id"], closing["round_id"]) == (table_id, bet.round_id)


def test_extra_fields_and_bound_ids_are_written_and_extra_wins() -> None:
    record = logging.LogRecord("bot.x", logging.WARNING, __file__, 1, "paid %s", (5,), None)
    record.round_id = 9
    record.player = "alice"

    def in_a_task() -> str:
        bind(guild_id=1, channel_id=2, table_id="t1", round_id=3)
        return JsonFormatter().format(record)

    line = json.loads(contextvars.Context().run(in_a_task))  # bound ids stay in there
    assert line == {
        "time": line["time"],
        "level": "WARNING",
        "logger": "bot.x",
        "message": "paid 5",
        "guild_id": 1,
        "channel_id": 2,
        "table_id": "t1",
        "round_id": 9,
        "player": "alice",
    }
