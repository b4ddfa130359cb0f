"""Rate limits as Discord sends them, and injected server errors, ridden out by discord.py."""

from __future__ import annotations

import aiohttp
import discord
from fakediscord import FakeDiscord
from fakediscord.demo_bot import DemoBot
from fakediscord_world import Table

POST_MESSAGE = "POST /channels/{channel_id}/messages"
CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"


async def test_bot_rides_out_a_rate_limited_route(table: Table, demo_bot: DemoBot) -> None:
    fake = table.fake
    fake.faults.rate_limit(POST_MESSAGE, times=2, retry_after=0.05)
    channel = demo_bot.get_channel(table.channel.id)
    assert isinstance(channel, discord.TextChannel)
    await channel.send("after the rate limit")
    assert [r.status for r in fake.requests_to(POST_MESSAGE)] == [429, 429, 200]
    assert [m.content for m in fake.messages_in(table.channel)] == ["after the rate limit"]


async def test_rate_limited_interaction_callback_is_retried(
    table: Table, demo_bot: DemoBot
) -> None:
    fake = table.fake
    fake.faults.rate_limit(CALLBACK, times=1, retry_after=0.05)
    start = await fake.slash(table.alice, "blackjack start", table.channel)
    assert start.response_type == 4
    assert [r.status for r in fake.requests_to(CALLBACK)] == [429, 200]


async def test_429_carries_discords_headers_and_body(fake_discord: FakeDiscord) -> None:
    fake_discord.faults.rate_limit("GET /users/@me", retry_after=1.5)
    fake_discord.faults.rate_limit("GET /gateway/bot", retry_after=2.0, is_global=True)
    headers = {"Authorization": f"Bot {fake_discord.token}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        async with session.get(f"{fake_discord.api_base}/users/@me") as limited:
            assert limited.status == 429
            assert limited.headers["Content-Type"] == "application/json"
            assert limited.headers["Via"] == "1.1 google"
            assert limited.headers["Retry-After"] == "2"
            assert limited.headers["X-RateLimit-Remaining"] == "0"
            assert limited.headers["X-RateLimit-Reset-After"] == "1.500"
            assert limited.headers["X-RateLimit-Scope"] == "user"
            assert "X-RateLimit-Bucket" in limited.headers
            assert await limited.json() == {
                "message": "You are being rate limited.",
                "retry_after": 1.5,
                "global": False,
            }
        async with session.get(f"{fake_discord.api_base}/gateway/bot") as limited:
            assert limited.headers["X-RateLimit-Global"] == "true"
            assert (await limited.json())["global"] is True
        async with session.get(f"{fake_discord.api_base}/users/@me") as after:
            assert after.status == 200


async def test_bot_retries_an_injected_server_error(table: Table, demo_bot: DemoBot) -> None:
    fake = table.fake
    fake.faults.fail_next(POST_MESSAGE, status=502)
    channel = demo_bot.get_channel(table.channel.id)
    assert isinstance(channel, discord.TextChannel)
    await channel.send("second try")  # discord.py waits 1 s before retrying a 5xx
    assert [r.status for r in fake.requests_to(POST_MESSAGE)] == [502, 200]
    assert fake.unexpected_errors() == []


async def test_injected_share_of_errors_is_seeded(fake_discord: FakeDiscord) -> None:
    async def statuses(seed: int) -> list[int]:
        fake_discord.faults.inject_errors(0.3, seed=seed)
        headers = {"Authorization": f"Bot {fake_discord.token}"}
        async with aiohttp.ClientSession(headers=headers) as session:
            seen = []
            for _ in range(40):
                async with session.get(f"{fake_discord.api_base}/users/@me") as reply:
                    seen.append(reply.status)
        return seen

    first, again = await statuses(7), await statuses(7)
    assert first == again
    assert 0 < first.count(500) < 40
    assert set(first) == {200, 500}
