"""Rate limits as Discord sends them, and injected server errors, ridden out by discord.py."""

from __future__ import annotations

import asyncio

import aiohttp
import discord

from fakediscord import FakeDiscord
from fakediscord.demo_bot import DemoBot
from tests.support.fakediscord_world import Table

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


async def test_a_429_wakes_a_test_waiting_on_the_request_log(fake_discord: FakeDiscord) -> None:
    fake_discord.faults.rate_limit("GET /users/@me", retry_after=0.05)
    headers = {"Authorization": f"Bot {fake_discord.token}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        waiting = asyncio.ensure_future(
            fake_discord.wait_for(lambda: any(r.status == 429 for r in fake_discord.requests))
        )
        async with session.get(f"{fake_discord.api_base}/users/@me") as limited:
            assert limited.status == 429
        # Woken by the 429 itself: nothing else happens that would wake it.
        await asyncio.wait_for(waiting, 1.0)


async def test_injected_share_of_rate_limits_is_seeded(fake_discord: FakeDiscord) -> None:
    async def statuses(seed: int) -> list[int]:
        fake_discord.faults.inject_rate_limits(0.3, routes={"GET /users/@me"}, seed=seed)
        headers = {"Authorization": f"Bot {fake_discord.token}"}
        async with aiohttp.ClientSession(headers=headers) as session:
            seen = []
            for _ in range(40):
                async with session.get(f"{fake_discord.api_base}/users/@me") as reply:
                    seen.append(reply.status)
                async with session.get(f"{fake_discord.api_base}/oauth2/applications/@me") as other:
                    assert other.status == 200  # not one of the routes
        return seen

    first, again = await statuses(3), await statuses(3)
    assert first == again
    assert set(first) == {200, 429}


async def test_a_held_request_waits_in_the_log_until_released(fake_discord: FakeDiscord) -> None:
    held = fake_discord.faults.hold("GET /users/@me")
    headers = {"Authorization": f"Bot {fake_discord.token}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        request = asyncio.ensure_future(session.get(f"{fake_discord.api_base}/users/@me"))
        await fake_discord.wait_for(lambda: held.arrived == 1)
        assert not request.done()
        assert [r.status for r in fake_discord.requests_to("GET /users/@me")] == [0]
        held.release()
        async with await request as reply:
            assert reply.status == 200
        async with session.get(f"{fake_discord.api_base}/users/@me") as second:
            assert second.status == 200  # only the next request was held
