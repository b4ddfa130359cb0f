"""The chip store goes away in the middle of a round, through the fake Discord.

On PostgreSQL the server is stopped (``pg_ctl stop -m fast``) while Alice's hand is
in play and started again; on SQLite the bot's connection refuses every write while
the outage lasts (SQLite's own read-only error, tests/outage.py). Either way: her
click is answered "paused" and changes nothing, /blackjack start points at the
paused table instead of opening another, and once the store is back the round goes
on and settles once, every balance equal to its ledger.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from discord_world import SPARE, START_CHIPS, ShoeQueue, World, embed_text

from bot.app import build_bot
from bot.config import Config
from bot.tables.errors import PAUSED
from bot.tables.service import PAUSED_THERE
from fakediscord.harness import running_bot
from tests.db.invariants import check_invariants
from tests.outage import Outage, PostgresOutage, SQLiteOutage
from tests.pgserver import start_for_tests

#: Alice 10 9 (19) against the dealer's T 7 (17): she stands and wins.
ROUND = "Ts Td 9s 7d " + SPARE


@dataclass(frozen=True)
class Store:
    url: str
    outage: Outage


@pytest.fixture(params=["sqlite", "postgres"])
def store(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Store]:
    """A database on its own, and the outage that takes it away."""
    if request.param == "sqlite":
        outage = SQLiteOutage(tmp_path / "store-fails")
        for name, value in outage.env.items():
            monkeypatch.setenv(name, value)  # read by the bot when it opens the store
        yield Store(f"sqlite:///{tmp_path / 'chips.sqlite3'}", outage)
        return
    server = start_for_tests()  # its own server: this test stops it
    try:
        yield Store(server.create_database("outage"), PostgresOutage(server))
    finally:
        server.stop()


@pytest.fixture
async def world_on(world: World, store: Store) -> AsyncIterator[World]:
    """The bot on ``store``, with ROUND stacked for the first table."""
    shoes = ShoeQueue()
    shoes.add(ROUND)
    config = Config(token=world.fake.token, database_url=store.url)
    async with running_bot(
        world.fake, build_bot(config, clock=world.fake.clock, shoe_factory=shoes)
    ) as bot:
        world.bot = bot
        yield world


async def test_a_click_during_an_outage_is_paused_and_the_round_settles_once_after(
    world_on: World, store: Store
) -> None:
    world = world_on
    table = await world.start(world.alice)
    await world.bet(world.alice, "100")
    assert "Stand" in embed_text(table)

    store.outage.begin()
    try:
        assert await world.refused(world.alice, table, "Stand") == PAUSED
        answer = await world.say(world.bob, "blackjack start")
        assert answer.startswith(PAUSED_THERE)
        assert await world.bet(world.bob, "50") == PAUSED
        await world.tick(20)  # retries while the store is still away change nothing
        assert await world.refused(world.alice, table, "Stand") == PAUSED
    finally:
        store.outage.end()
    await world.tick(30)  # the next retry finds the store back

    await world.click(world.alice, table, "Stand")
    assert "Place your bets" in embed_text(table)
    assert await world.ledger(world.alice) == [
        ("grant", START_CHIPS),
        ("bet", -100),
        ("payout", 200),
    ]
    assert world.fake.messages_in(world.channel) == [table]  # no second table
    rounds = await world.store.round_history(world.guild.id, channel_id=world.channel.id)
    assert [r.status for r in rounds] == ["open", "settled"]  # the next round takes bets
    await check_invariants(store.url)
