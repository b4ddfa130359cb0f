"""A store outage at a tournament table, through the fake Discord, each hand dealt from a
stacked shoe: on PostgreSQL its own server is stopped, on SQLite the bot's writes are
refused (tests/outage.py, as in test_discord_outage). A timer falling due mid-hand fails,
the table pauses and refuses clicks, and once the store is back the timer runs again and
the hand settles once; the tournament's own commands answer plainly and change nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import pytest

from bot.tables.errors import PAUSED
from bot.tables.opening import NO_STORE
from bot.tables.table import Table
from bot.tournaments.state import Status
from fakediscord.harness import running_bot
from tests.db.invariants import check_invariants
from tests.outage import PostgresOutage, SQLiteOutage
from tests.pgserver import start_for_tests
from tests.support.discord_world import World, embed_text
from tests.support.outages import Store, bot_on
from tests.support.shoes import ShoeQueue
from tests.support.tournaments import (
    TIED_BELOW,
    ask,
    entered,
    live,
    stack_hands,
    stacks,
    the_board,
    tick,
)


@pytest.fixture(params=["sqlite", "postgres"])
def outage(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Store]:
    """A database on its own, and the outage that takes it away (as test_discord_outage's
    ``store``: SQLite refusing writes, or its own PostgreSQL server stopped)."""
    if request.param == "sqlite":
        fault = SQLiteOutage(tmp_path / "store-fails")
        for name, value in fault.env.items():
            monkeypatch.setenv(name, value)  # read by the bot when it opens the store
        yield Store(f"sqlite:///{tmp_path / 'chips.sqlite3'}", fault)
        return
    server = start_for_tests()  # its own server: this test stops it
    try:
        yield Store(server.create_database("outage"), PostgresOutage(server))
    finally:
        server.stop()


async def paused_through(
    world: World, outage: Store, table: Table, due: float, refused: Callable[[], Awaitable[str]]
) -> None:
    """The store goes away and a timer falls due in ``due`` seconds: its step cannot be
    written, so the table pauses; ``refused`` (a player's move) is answered that it is
    paused, then and at the next retry. Then the store is back and the table reloads."""
    outage.outage.begin()
    try:
        await tick(world, due)
        assert table.paused  # the failed timed step paused the table, nothing else
        assert await refused() == PAUSED
        await tick(world, 20)  # retries while the store is still away change nothing
        assert await refused() == PAUSED
    finally:
        outage.outage.end()
    await tick(world, 30)  # the next retry finds the store back: the timer is set again
    assert not table.paused


@pytest.mark.parametrize("timer", ["bets", "decisions"])
async def test_a_store_outage_mid_hand_pauses_the_table_and_the_hand_settles_once_after(
    world: World, outage: Store, timer: str
) -> None:
    shoes = ShoeQueue()
    async with running_bot(world.fake, bot_on(world, outage)) as bot:
        world.bot = bot
        stack_hands(world, shoes)
        shoes.add(TIED_BELOW)
        await entered(world, world.alice, world.bob, world.carol, hands=2, eliminations="1")
        await ask(world, world.mod, "tournament start")
        t = live(world)
        table = world.running.tables.registry.tables[t.table_ids[0]]
        bet_s, action_s, _idle_s = t.timers
        before = await world.chips()
        everyone = dict.fromkeys((world.alice.id, world.bob.id, world.carol.id), 1000)
        for member in (world.alice, world.bob):
            await ask(world, member, "tournament bet", amount="10")
        if timer == "bets":
            # Carol has not bet when the bet timer falls due during the outage.
            async def carol_bets() -> str:
                return await world.say(world.carol, "tournament bet", amount="10")

            await paused_through(world, outage, table, bet_s, carol_bets)
            assert table.round is None  # not dealt: the bet timer runs again
            await tick(world, bet_s)  # Carol bets the minimum; the hand is dealt
            board = the_board(world)
            late = "Carol did not bet in time and bets the minimum, 10 chips."
            assert embed_text(board).count(late) == 1  # the retried step, once
            await world.click(world.alice, board, "Stand")
            await world.click(world.bob, board, "Stand")
        else:
            await ask(world, world.carol, "tournament bet", amount="10")
            board = the_board(world)
            await world.click(world.alice, board, "Stand")

            async def bob_stands() -> str:
                return await world.refused(world.bob, board, "Stand")

            # Bob's and Carol's decision timer falls due during the outage.
            await paused_through(world, outage, table, action_s, bob_stands)
            assert await world.refused(world.alice, board, "Stand") != PAUSED  # she stood
        assert stacks(world, t) == everyone  # nothing paid yet

        await tick(world, action_s)  # the decision timer: basic strategy plays what is left
        assert stacks(world, t) == {world.alice.id: 990, world.bob.id: 990, world.carol.id: 1010}
        text = embed_text(board)
        assert text.count("Bob has the fewest chips after hand 1 and is out.") == 1
        assert "Hand 2 of 2" in text
        eliminations = await world.store.tournaments.eliminations(t.tournament_id)
        assert sorted((r.hand_no, r.user_id, r.eliminated) for r in eliminations) == sorted(
            [(1, world.alice.id, False), (1, world.bob.id, True), (1, world.carol.id, False)]
        )
        rounds = await world.store.reports.round_history(
            world.guild.id, channel_id=world.channel.id
        )
        assert [r.status for r in rounds].count("settled") == 1
        assert await world.chips() == before  # tournament chips: the economy never moved

        # The tournament goes on: hand 2 is played by the timers, and it ends.
        await tick(world, bet_s)
        await tick(world, action_s)
        assert world.running.tournaments.live == {}
        places = await world.store.tournaments.places(t.tournament_id)
        assert [p.user_id for p in places][-1] == world.bob.id
    await check_invariants(outage.url)


async def test_tournament_commands_in_a_store_outage_change_nothing_and_work_after(
    world: World, outage: Store, caplog: pytest.LogCaptureFixture
) -> None:
    async with running_bot(world.fake, bot_on(world, outage)) as bot:
        world.bot = bot
        await entered(world, world.alice, world.bob, fee=100, hands=1, eliminations="")
        t = live(world)
        before = await world.chips()
        outage.outage.begin()
        try:
            with caplog.at_level(logging.WARNING):
                assert await ask(world, world.carol, "tournament join") == PAUSED
                for command in ("tournament start", "tournament cancel"):
                    assert await ask(world, world.mod, command) == NO_STORE, command
                elsewhere = await ask(world, world.mod, "tournament create", world.other_channel)
                assert elsewhere == NO_STORE
        finally:
            outage.outage.end()
        assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
        await tick(world, 30)  # the table paused by the join reloads
        assert await world.chips() == before
        assert (t.status, [e.user_id for e in t.entrants]) == (
            Status.REGISTERING,
            [world.alice.id, world.bob.id],
        )
        assert world.running.tournaments.in_channel(world.other_channel.id) is None
        assert await ask(world, world.carol, "tournament join") == (
            f"You are in tournament #{t.tournament_id}. Your entry fee of 100 is in the prize pool."
        )
        assert "has started" in await ask(world, world.mod, "tournament start")
        assert "Hand 1 of 1" in embed_text(the_board(world))
    await check_invariants(outage.url)
