"""The metrics page as a host reads it (issue 32): no ``*_created`` series, the process's own
metrics, the gateway's route as a label, and answer times only from ids dated believably."""

from __future__ import annotations

from discord_world import World

from bot.app import BlackjackBot
from fakediscord.models import Snowflakes
from tests.discord.test_discord_metrics import bot, moved, scrape, value

__all__ = ["bot"]  # the fixture, shared with the round's metrics test


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
