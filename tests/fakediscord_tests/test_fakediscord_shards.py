"""Sharding: each guild's events go to the session of shard (guild_id >> 22) % num_shards."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
import pytest

from fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeMember, shard_for
from fakediscord.demo_bot import build_bot, shard_settings
from fakediscord.harness import BotProcess, endpoints_applied, running_bot

CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"


@dataclass
class Casino:
    """One guild on a shard, with a #blackjack channel and a player."""

    guild: FakeGuild
    channel: FakeChannel
    player: FakeMember


def casino(fake: FakeDiscord, name: str, shard: int) -> Casino:
    guild = fake.add_guild(name, shard=shard, of=2)
    return Casino(guild, fake.add_text_channel(guild, "blackjack"), fake.add_member(guild, "ann"))


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A fake that recommends two shards and lets both identify at once."""
    async with FakeDiscord(recommended_shards=2, max_concurrency=2) as running:
        yield running
    running.assert_clean()


@pytest.fixture
def even(fake: FakeDiscord) -> Casino:
    return casino(fake, "Even", shard=0)


@pytest.fixture
def odd(fake: FakeDiscord) -> Casino:
    return casino(fake, "Odd", shard=1)


def callbacks_for(fake: FakeDiscord, interaction_id: int) -> list[str]:
    """Paths of the interaction callbacks the bot(s) sent for one interaction."""
    return [r.path for r in fake.requests_to(CALLBACK) if f"/{interaction_id}/" in r.path]


# -- the fake's own bookkeeping ---------------------------------------------------------------


async def test_guild_factory_places_each_guild_on_the_shard_asked_for(fake: FakeDiscord) -> None:
    guilds = [fake.add_guild(f"g{i}", shard=i % 3, of=3) for i in range(6)]
    assert [shard_for(g.id, 3) for g in guilds] == [0, 1, 2, 0, 1, 2]
    assert [g.id for g in guilds] == sorted(g.id for g in guilds)
    assert fake.shard_of(fake.add_guild("default count", shard=1)) == 1
    with pytest.raises(ValueError, match=r"not in 0\.\.1"):
        fake.add_guild("nowhere", shard=2, of=2)


async def test_gateway_bot_recommends_the_shard_count_and_concurrency(fake: FakeDiscord) -> None:
    headers = {"Authorization": f"Bot {fake.token}"}
    async with (
        aiohttp.ClientSession() as http,
        http.get(fake.api_base + "/gateway/bot", headers=headers) as reply,
    ):
        body = await reply.json()
    assert body["shards"] == 2
    assert body["session_start_limit"]["max_concurrency"] == 2
    assert body["url"] == fake.gateway_url


def test_demo_bot_reads_shard_count_and_ids_from_the_environment() -> None:
    assert shard_settings({}) == {}
    assert shard_settings({"SHARD_COUNT": "auto"}) == {"sharded": True}
    assert shard_settings({"SHARD_COUNT": "4", "SHARD_IDS": "1, 3"}) == {
        "sharded": True,
        "shard_count": 4,
        "shard_ids": [1, 3],
    }
    for bad in ({"SHARD_IDS": "0"}, {"SHARD_COUNT": "2", "SHARD_IDS": "2"}, {"SHARD_COUNT": "0"}):
        with pytest.raises(SystemExit):
            shard_settings(bad)


# -- discord.py's AutoShardedClient, in this event loop ---------------------------------------


async def test_auto_sharded_bot_connects_every_shard_and_sees_each_guild_through_its_own(
    fake: FakeDiscord, even: Casino, odd: Casino
) -> None:
    bot = build_bot(fake.clock, sharded=True)
    async with running_bot(fake, bot):
        assert isinstance(bot, discord.AutoShardedClient)
        assert (bot.shard_count, sorted(bot.shards)) == (2, [0, 1])
        assert {g.id: g.shard_id for g in bot.guilds} == {even.guild.id: 0, odd.guild.id: 1}
        first, second = fake.gateway.sessions.values()
        assert (first.shard, second.shard) == ((0, 2), (1, 2))
        # READY lists only the shard's own guilds, and GUILD_CREATE comes only for those.
        for session, guild in ((first, even.guild), (second, odd.guild)):
            (ready,) = session.received("READY")
            assert ready["shard"] == list(session.routing)
            assert ready["guilds"] == [{"id": str(guild.id), "unavailable": True}]
            assert [g["id"] for g in session.received("GUILD_CREATE")] == [str(guild.id)]

        answer = await fake.slash(odd.player, "demo whoami", odd.channel)
        assert answer.session is second
        assert answer.content == f"Shard 1 of 2, process {os.getpid()}"
        answer = await fake.slash(even.player, "demo whoami", even.channel)
        assert answer.session is first
        assert answer.content == f"Shard 0 of 2, process {os.getpid()}"

        # A change in a guild reaches the session of that guild's shard only.
        late = fake.add_text_channel(odd.guild, "late")
        await fake.sync()
        assert [c["name"] for c in second.received("CHANNEL_CREATE")] == ["late"]
        assert first.received("CHANNEL_CREATE") == []
        assert bot.get_channel(late.id) is not None


async def test_bot_given_shard_0_of_2_connects_only_that_shard(
    fake: FakeDiscord, even: Casino, odd: Casino
) -> None:
    bot = build_bot(fake.clock, shard_count=2, shard_ids=[0])
    async with running_bot(fake, bot):
        assert [s.shard for s in fake.gateway.sessions.values()] == [(0, 2)]
        assert [g.id for g in bot.guilds] == [even.guild.id]
        assert (await fake.slash(even.player, "demo whoami", even.channel)).shard == (0, 2)
        # No session receives the odd guild, so a user there would get no answer at all.
        with pytest.raises(AssertionError, match=r"on shard \[\(1, 2\)\]"):
            await fake.slash(odd.player, "demo whoami", odd.channel)


async def test_shard_id_beyond_the_shard_count_ends_discord_py_with_4010(
    fake: FakeDiscord, even: Casino
) -> None:
    bot = build_bot(fake.clock, shard_count=2, shard_ids=[2])
    with endpoints_applied(fake), pytest.raises(discord.ConnectionClosed) as closed:
        await asyncio.wait_for(bot.start(fake.token), 10)
    assert closed.value.code == 4010
    assert fake.gateway.sessions == {}


# -- two bot processes, one shard each ------------------------------------------------------


def shard_process(fake: FakeDiscord, shard: int) -> BotProcess:
    return BotProcess(fake, env={"SHARD_COUNT": "2", "SHARD_IDS": str(shard)})


async def test_each_process_answers_the_guilds_of_its_own_shard_only(
    fake: FakeDiscord, even: Casino, odd: Casino
) -> None:
    async with shard_process(fake, 0) as zero, shard_process(fake, 1) as one:
        assert (zero.shard_ids, one.shard_ids) == ([0], [1])
        answer = await fake.slash(odd.player, "demo whoami", odd.channel)
        assert answer.session in one.sessions
        assert answer.content == f"Shard 1 of 2, process {one.pid}"
        assert len(callbacks_for(fake, answer.id)) == 1
        answer = await fake.slash(even.player, "demo whoami", even.channel)
        assert answer.session in zero.sessions
        assert answer.content == f"Shard 0 of 2, process {zero.pid}"
        assert len(callbacks_for(fake, answer.id)) == 1


async def test_killing_one_shard_process_leaves_the_other_serving_its_shard(
    fake: FakeDiscord, even: Casino, odd: Casino
) -> None:
    async with shard_process(fake, 0) as zero, shard_process(fake, 1) as one:
        killed_pid = one.pid
        await one.kill()
        (dead,) = one.sessions
        answer = await fake.slash(even.player, "demo whoami", even.channel)
        assert answer.content == f"Shard 0 of 2, process {zero.pid}"

        # The odd guild's interaction waits in the dead session's buffer; nobody answers.
        unanswered = await fake.slash(odd.player, "demo whoami", odd.channel, wait=False)
        await fake.flush()
        assert unanswered.session is dead
        assert not dead.connected
        assert not unanswered.responded

        # A fresh process for shard 1 replaces the dead session and serves the guild again.
        await one.start()
        assert dead.invalidated
        assert one.pid != killed_pid
        answer = await fake.slash(odd.player, "demo whoami", odd.channel)
        assert answer.session in one.sessions
        assert answer.content == f"Shard 1 of 2, process {one.pid}"
        assert [s.connected for s in zero.sessions] == [True]
        assert fake.gateway.identifies == 3


# -- the raw handshake: Discord's close codes and routing rules ---------------------------------


async def receive(ws: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
    msg = await ws.receive(timeout=5)
    assert msg.type == aiohttp.WSMsgType.TEXT, msg
    payload: dict[str, Any] = json.loads(msg.data)
    return payload


async def identify(ws: aiohttp.ClientWebSocketResponse, token: str, shard: Any) -> None:
    await receive(ws)  # HELLO
    data: dict[str, Any] = {"token": token, "intents": 1, "properties": {}}
    if shard is not None:
        data["shard"] = shard
    await ws.send_json({"op": 2, "d": data})


@pytest.mark.parametrize("shard", [[2, 2], [-1, 2], [0, 0], [0], "0,2", [True, 2]])
async def test_identify_with_an_invalid_shard_is_closed_with_4010(
    fake: FakeDiscord, shard: Any
) -> None:
    async with (
        aiohttp.ClientSession() as http,
        http.ws_connect(fake.gateway_url + "?v=10&encoding=json") as ws,
    ):
        await identify(ws, fake.token, shard)
        closing = await ws.receive(timeout=5)
        assert (closing.type, closing.data) == (aiohttp.WSMsgType.CLOSE, 4010)
    assert fake.gateway.identifies == 0


async def test_too_many_guilds_for_one_session_is_closed_with_4011() -> None:
    async with (
        FakeDiscord(max_guilds_per_shard=1) as fake,
        aiohttp.ClientSession() as http,
    ):
        odd = fake.add_guild("Odd", shard=1, of=2)
        fake.add_guild("Even", shard=0, of=2)
        url = fake.gateway_url + "?v=10&encoding=json"
        async with http.ws_connect(url) as ws:
            await identify(ws, fake.token, None)
            closing = await ws.receive(timeout=5)
            assert (closing.type, closing.data) == (aiohttp.WSMsgType.CLOSE, 4011)
        async with http.ws_connect(url) as ws:
            await identify(ws, fake.token, [1, 2])
            ready = await receive(ws)
            assert ready["d"]["guilds"] == [{"id": str(odd.id), "unavailable": True}]


async def test_events_without_a_guild_go_to_shard_0_only(fake: FakeDiscord, odd: Casino) -> None:
    url = fake.gateway_url + "?v=10&encoding=json"
    async with (
        aiohttp.ClientSession() as http,
        http.ws_connect(url) as zero,
        http.ws_connect(url) as one,
    ):
        await identify(zero, fake.token, [0, 2])
        assert (await receive(zero))["d"]["guilds"] == []
        await identify(one, fake.token, [1, 2])
        assert (await receive(one))["t"] == "READY"
        assert (await receive(one))["t"] == "GUILD_CREATE"
        fake.dispatch("USER_UPDATE", fake.bot_user.to_dict())
        fake.add_role(odd.guild, "dealer")
        assert (await receive(zero))["t"] == "USER_UPDATE"
        assert (await receive(one))["t"] == "GUILD_ROLE_CREATE"
    first, second = fake.gateway.sessions.values()
    assert [len(first.received("USER_UPDATE")), len(second.received("USER_UPDATE"))] == [1, 0]
    assert [
        len(first.received("GUILD_ROLE_CREATE")),
        len(second.received("GUILD_ROLE_CREATE")),
    ] == [
        0,
        1,
    ]


async def test_sessions_with_different_shard_counts_may_run_side_by_side(
    fake: FakeDiscord, odd: Casino
) -> None:
    # Discord routes by each session's own [shard_id, num_shards], so a deployment
    # can hand traffic from 2 shards over to 1 without a gap.
    url = fake.gateway_url + "?v=10&encoding=json"
    async with (
        aiohttp.ClientSession() as http,
        http.ws_connect(url) as old,
        http.ws_connect(url) as new,
    ):
        await identify(old, fake.token, [1, 2])
        await identify(new, fake.token, [0, 1])
        for ws in (old, new):
            ready = await receive(ws)
            assert ready["d"]["guilds"] == [{"id": str(odd.guild.id), "unavailable": True}]
        assert [s.connected for s in fake.gateway.sessions.values()] == [True, True]
