"""A heartbeat is ACKed one network round trip later, as Discord ACKs it (the first at once,
the answer to a sync's request not at all); a real discord.py client kept alive by the fake
never reads that as falling behind."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import aiohttp
import discord
import pytest

from bot.clock import SystemClock
from fakediscord import FakeDiscord
from fakediscord.gateway import HEARTBEAT_ACK_DELAY_S
from fakediscord.harness import running_bot
from tests.support.gateway_client import identify, receive

#: Over discord.py's 10 s threshold for "Can't keep up", as short as that allows.
SHORT_INTERVAL_MS = 10_500


async def test_a_heartbeat_is_acked_a_round_trip_later_and_a_syncs_request_not_at_all() -> None:
    fake = FakeDiscord()
    async with fake, aiohttp.ClientSession() as client:
        fake.add_guild("Casino")
        async with client.ws_connect(fake.gateway_url + "?v=10&encoding=json") as ws:
            assert (await receive(ws))["op"] == 10
            sent = time.perf_counter()
            await ws.send_json({"op": 1, "d": None})  # the first, at HELLO: ACKed at once
            assert await receive(ws) == {"op": 11}
            assert time.perf_counter() - sent < HEARTBEAT_ACK_DELAY_S
            ready = await identify(ws, fake.token)
            created = await receive(ws)
            sent = time.perf_counter()
            await ws.send_json({"op": 1, "d": ready["s"]})  # the client's own
            assert await receive(ws) == {"op": 11}
            assert time.perf_counter() - sent >= HEARTBEAT_ACK_DELAY_S  # a round trip
            syncing = asyncio.ensure_future(fake.gateway.sync())
            assert await receive(ws) == {"op": 1, "d": None}  # the fake asks
            await ws.send_json({"op": 1, "d": created["s"]})  # answered
            await syncing
            # No ACK of the answer is sent or on its way: two ACKs in all, none pending.
            (session,) = fake.gateway.live_sessions()
            assert session.connection is not None
            assert (session.connection.acks, session.connection.pending_acks) == (2, set())


@contextmanager
def busy_threads(count: int) -> Iterator[None]:
    """Threads that contend for the GIL, as a busy host's work does, while the block runs."""
    stop = threading.Event()

    def spin() -> None:
        while not stop.is_set():
            sum(range(1000))

    threads = [threading.Thread(target=spin, daemon=True) for _ in range(count)]
    for thread in threads:
        thread.start()
    try:
        yield
    finally:
        stop.set()
        for thread in threads:
            thread.join()


async def test_a_busy_client_kept_alive_by_the_fake_never_warns_it_cannot_keep_up(
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake = FakeDiscord(clock=SystemClock())
    fake.gateway.heartbeat_interval_ms = SHORT_INTERVAL_MS

    def beats() -> int:
        return sum(1 for way, payload in fake.gateway.log if way == "recv" and payload["op"] == 1)

    def acks() -> int:
        session = fake.gateway.live_sessions()[0]
        return session.connection.acks if session.connection else 0

    caplog.set_level(logging.WARNING, logger="discord.gateway")
    async with fake:
        fake.add_guild("Casino")
        client = discord.Client(intents=discord.Intents.default())
        with busy_threads(3):
            async with running_bot(fake, client, max_wait=30):
                first, first_acks = beats(), acks()
                # Two heartbeats of the keep-alive thread, each ACKed, and the client past
                # the ACKs (a sync's request follows them): their latency has been read.
                await fake.wait_for(lambda: beats() >= first + 2, max_wait=30)
                await fake.wait_for(lambda: acks() >= first_acks + 2, max_wait=5)
                await fake.sync()
                latency = client.latency
    behind = [r.getMessage() for r in caplog.records if "keep up" in r.getMessage()]
    assert behind == []
    assert 0 < latency < 1  # the round trip, less the time the thread took to record its send
