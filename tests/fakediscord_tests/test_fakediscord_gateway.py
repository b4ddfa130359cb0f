"""The gateway handshake with a raw websocket client: plain JSON, bad tokens, RESUME rules."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest

from fakediscord import FakeDiscord
from tests.support.gateway_client import identify, receive


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as client:
        yield client


async def test_plain_json_handshake_gives_ready_then_guild_create(
    fake_discord: FakeDiscord, session: aiohttp.ClientSession
) -> None:
    guild = fake_discord.add_guild("Casino")
    fake_discord.add_text_channel(guild, "blackjack")
    async with session.ws_connect(fake_discord.gateway_url + "?v=10&encoding=json") as ws:
        hello = await receive(ws)
        assert hello == {"op": 10, "d": {"heartbeat_interval": 41250}}
        await ws.send_json({"op": 1, "d": None})
        assert await receive(ws) == {"op": 11}
        ready = await identify(ws, fake_discord.token)
        assert (ready["op"], ready["t"], ready["s"]) == (0, "READY", 1)
        assert ready["d"]["resume_gateway_url"] == fake_discord.gateway_url
        assert ready["d"]["guilds"] == [{"id": str(guild.id), "unavailable": True}]
        created = await receive(ws)
        assert (created["t"], created["s"]) == ("GUILD_CREATE", 2)
        assert [c["name"] for c in created["d"]["channels"]] == ["blackjack"]
        # Without the GUILD_MEMBERS intent only the bot's own member is sent.
        assert [m["user"]["id"] for m in created["d"]["members"]] == [str(fake_discord.bot_user.id)]
    assert fake_discord.gateway.transports == ["json"]


async def test_wrong_token_is_closed_with_4004(
    fake_discord: FakeDiscord, session: aiohttp.ClientSession
) -> None:
    async with session.ws_connect(fake_discord.gateway_url + "?v=10&encoding=json") as ws:
        await receive(ws)
        await ws.send_json({"op": 2, "d": {"token": "stolen", "intents": 1, "properties": {}}})
        closing = await ws.receive(timeout=5)
        assert closing.type == aiohttp.WSMsgType.CLOSE
        assert closing.data == 4004


async def test_wrong_api_version_is_closed_with_4012(
    fake_discord: FakeDiscord, session: aiohttp.ClientSession
) -> None:
    async with session.ws_connect(fake_discord.gateway_url + "?v=9&encoding=json") as ws:
        closing = await ws.receive(timeout=5)
        assert closing.data == 4012


async def test_session_resumes_with_missed_events_but_not_after_a_1000_close(
    fake_discord: FakeDiscord, session: aiohttp.ClientSession
) -> None:
    fake = fake_discord
    guild = fake.add_guild()
    url = fake.gateway_url + "?v=10&encoding=json"
    async with session.ws_connect(url) as ws:
        await receive(ws)
        ready = await identify(ws, fake.token)
        await receive(ws)  # GUILD_CREATE
        session_id = ready["d"]["session_id"]
        await ws.close(code=4000)  # a resumable drop
    fake.add_text_channel(guild, "while-away")
    await fake.flush()
    async with session.ws_connect(url) as ws:
        await receive(ws)
        await ws.send_json(
            {"op": 6, "d": {"token": fake.token, "session_id": session_id, "seq": 2}}
        )
        missed = await receive(ws)
        assert (missed["t"], missed["s"], missed["d"]["name"]) == (
            "CHANNEL_CREATE",
            3,
            "while-away",
        )
        assert (await receive(ws))["t"] == "RESUMED"
        await ws.close(code=1000)  # ends the session
    await fake.wait_for(lambda: fake.gateway.sessions[session_id].invalidated)
    async with session.ws_connect(url) as ws:
        await receive(ws)
        await ws.send_json(
            {"op": 6, "d": {"token": fake.token, "session_id": session_id, "seq": 4}}
        )
        assert await receive(ws) == {"op": 9, "d": False}


async def test_member_list_is_sent_on_request_with_the_members_intent(
    fake_discord: FakeDiscord, session: aiohttp.ClientSession
) -> None:
    guild = fake_discord.add_guild()
    fake_discord.add_member(guild, "alice")
    async with session.ws_connect(fake_discord.gateway_url + "?v=10&encoding=json") as ws:
        await receive(ws)
        await identify(ws, fake_discord.token, intents=1 | 2)
        created = await receive(ws)
        assert len(created["d"]["members"]) == 3
        await ws.send_json(
            {"op": 8, "d": {"guild_id": str(guild.id), "query": "", "limit": 0, "nonce": "n1"}}
        )
        chunk = await receive(ws)
        assert chunk["t"] == "GUILD_MEMBERS_CHUNK"
        assert chunk["d"]["nonce"] == "n1"
        assert sorted(m["user"]["username"] for m in chunk["d"]["members"]) == [
            "Blackjack Dealer",
            "alice",
            "owner",
        ]


async def test_privileged_intent_not_enabled_is_closed_with_4014(
    session: aiohttp.ClientSession,
) -> None:
    async with (
        FakeDiscord(privileged_intents=0) as fake,
        session.ws_connect(fake.gateway_url + "?v=10&encoding=json") as ws,
    ):
        await receive(ws)
        await ws.send_json(
            {"op": 2, "d": {"token": fake.token, "intents": 1 << 15, "properties": {}}}
        )
        closing = await ws.receive(timeout=5)
        assert closing.data == 4014


async def test_message_events_reach_only_sessions_with_the_guild_messages_intent(
    fake_discord: FakeDiscord, session: aiohttp.ClientSession
) -> None:
    guild = fake_discord.add_guild("Casino")
    channel = fake_discord.add_text_channel(guild, "blackjack")
    url = fake_discord.gateway_url + "?v=10&encoding=json"
    async with session.ws_connect(url) as guilds_only, session.ws_connect(url) as reader:
        for ws, intents in ((guilds_only, 1), (reader, 1 | 1 << 9)):
            await receive(ws)  # HELLO
            await identify(ws, fake_discord.token, intents)
            await receive(ws)  # GUILD_CREATE
        async with session.post(
            f"{fake_discord.api_base}/channels/{channel.id}/messages",
            json={"content": "Table open"},
            headers={"Authorization": f"Bot {fake_discord.token}"},
        ) as posted:
            assert posted.status == 200
        await fake_discord.flush()
    without, with_intent = fake_discord.gateway.sessions.values()
    assert without.received("MESSAGE_CREATE") == []
    assert [m["content"] for m in with_intent.received("MESSAGE_CREATE")] == ["Table open"]
