"""A sync's heartbeat request is answered without an ACK, so discord.py never reads the time
since its last interval heartbeat as latency; a heartbeat of the client's own is ACKed."""

from __future__ import annotations

import asyncio

import aiohttp

from fakediscord import FakeDiscord
from tests.fakediscord_tests.test_fakediscord_gateway import identify, receive


async def test_the_answer_to_a_syncs_heartbeat_request_gets_no_ack() -> None:
    fake = FakeDiscord()
    async with fake, aiohttp.ClientSession() as client:
        fake.add_guild("Casino")
        async with client.ws_connect(fake.gateway_url + "?v=10&encoding=json") as ws:
            assert (await receive(ws))["op"] == 10
            ready = await identify(ws, fake.token)
            created = await receive(ws)
            await ws.send_json({"op": 1, "d": ready["s"]})  # the client's own: ACKed
            assert await receive(ws) == {"op": 11}
            syncing = asyncio.ensure_future(fake.gateway.sync())
            assert await receive(ws) == {"op": 1, "d": None}  # the fake asks
            await ws.send_json({"op": 1, "d": created["s"]})  # answered
            await syncing
            # The fake answers in order: an ACK of the answer would come before the
            # refusal of a second IDENTIFY.
            await ws.send_json({"op": 2, "d": {"token": fake.token, "intents": 1}})
            closing = await ws.receive(timeout=5)
            assert closing.type == aiohttp.WSMsgType.CLOSE, closing
            assert closing.data == 4005
