"""The metrics page as a host reads it (issue 32): no ``*_created`` series, the process's own
metrics, the gateway's route as a label, and answer times only from ids dated believably."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

import db
from bot.app import BlackjackBot
from bot.metrics import BotMetrics
from bot.metrics_server import MetricsServer
from fakediscord.models import Snowflakes
from tests.bot_command import command_env
from tests.support.discord_world import World
from tests.support.metrics import moved, scrape, value


@pytest.fixture
def bot_settings() -> dict[str, object]:
    """The bot with METRICS_PORT=0 (any free port on 127.0.0.1)."""
    return {"metrics_port": 0}


async def test_the_page_has_process_metrics_and_no_created_series(
    bot: BlackjackBot, world: World
) -> None:
    await world.start(world.alice)
    samples = await scrape(bot)
    names = {name for name, _ in samples}
    assert [name for name in names if name.endswith("_created")] == []
    assert value(samples, "process_resident_memory_bytes") > 0
    assert value(samples, "process_open_fds") > 0
    assert "python_info" in names
    routes = {
        dict(labels).get("route")
        for name, labels in samples
        if name.startswith("blackjack_discord_request")
    }
    assert "gateway" in routes  # the websocket's request, wherever the gateway is
    assert [route for route in routes if route and "://" in route] == []


async def test_answer_times_come_from_ids_the_fake_dates_by_its_clock(
    bot: BlackjackBot, world: World
) -> None:
    before = await scrape(bot)
    await world.start(world.alice)
    after = await scrape(bot)
    latency = "blackjack_interaction_answer_seconds"
    assert moved(before, after, f"{latency}_count", kind="command") == 1
    assert moved(before, after, f"{latency}_sum", kind="command") < 1  # not years


async def test_an_answer_to_an_id_dated_years_off_is_not_timed(
    bot: BlackjackBot, world: World
) -> None:
    # Ids dated 2039, as a Discord with a clock far off might send them (an id dated years
    # back is a stale interaction, which the bot does not answer at all).
    world.fake.snowflake = Snowflakes(start_ms=2_200_000_000_000)
    before = await scrape(bot)
    await world.start(world.alice)
    after = await scrape(bot)
    callback = {"method": "POST", "route": "/interactions/:id/:token/callback"}
    assert moved(before, after, "blackjack_discord_requests_total", **callback) == 1  # answered
    assert moved(before, after, "blackjack_interaction_answer_seconds_count") == 0  # not timed


async def check_gateway(tmp_path: Path, metrics_port: int | None) -> tuple[int, str, str]:
    """``python -m bot check --no-token --gateway``, beside the running bot (same loop)."""
    env = command_env(
        DATABASE_URL=f"sqlite:///{tmp_path / 'chips.sqlite3'}",
        METRICS_PORT="" if metrics_port is None else str(metrics_port),
    )
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        *("-m", "bot", "check", "--no-token", "--gateway"),
        cwd=tmp_path,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), timeout=120)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def test_the_health_check_sees_the_bot_connected_to_the_gateway(
    bot: BlackjackBot, tmp_path: Path
) -> None:
    code, out, err = await check_gateway(tmp_path, bot.metrics_port)
    assert code == 0, err
    assert "gateway: ok (shards 0 connected)" in out


async def test_the_health_check_fails_a_bot_without_a_gateway_connection(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'chips.sqlite3'}"
    async with db.open_store(url):
        pass  # a migrated database, as the bot leaves it
    metrics = BotMetrics()
    server = MetricsServer(metrics, lambda: metrics.refresh([], []))  # no shard connected
    await server.start("127.0.0.1", 0)
    try:
        code, out, err = await check_gateway(tmp_path, server.port)
        assert code == 1
        assert "database: ok" in out
        assert "gateway: FAILED: the bot is not connected to Discord's gateway" in err
        await server.stop()
        code, _, err = await check_gateway(tmp_path, server.port)
        assert code == 1
        assert "gateway: FAILED: the bot does not answer at http://127.0.0.1:" in err
    finally:
        await server.stop()
    code, out, _ = await check_gateway(tmp_path, None)
    assert code == 0
    assert "gateway: not checked (METRICS_PORT is unset)" in out
