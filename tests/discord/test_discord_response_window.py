"""Every click and bet is answered within Discord's 3 s, however long the table takes.

A slow database holds the table's lock: what waits is acknowledged with a deferral at 2 s
and answered through the interaction's webhook once done (the fake's 3 s window is
measured on its clock, which the tests move); too many clicks waiting for one table get
"busy" at once, and nothing changes for them.
"""

from __future__ import annotations

import asyncio
from typing import Any

import db
from bot.app import BlackjackBot
from cogs.table.commands import table_cog
from cogs.table.response_window import BUSY, MAX_WAITING
from fakediscord import FakeDiscord
from fakediscord.interactions import FakeInteraction
from fakediscord.records import FakeMessage
from tests.support.discord_world import World, embed_text
from tests.support.shoes import SPARE

# Alice 6 5 (11: she doubles), Bob 10 7 (17: he stands); the dealer shows a 9, holds a king.
TWO_PLAYER_ROUND = "6s Th 9c 5h 7d Kd " + SPARE
WEBHOOK_EDIT = "PATCH /webhooks/{application_id}/{interaction_token}/messages/@original"


class SlowStakes:
    """The bot's real store, with each stake waiting until released: a slow database.

    Each stake's arrival wakes ``fake.wait_for``, as a request to the fake does.
    """

    def __init__(self, store: db.Store, fake: FakeDiscord) -> None:
        self._stake = store.stake
        self._stake_bet = store.stake_bet
        self._fake = fake
        self.open = asyncio.Event()
        self.open.set()
        self.arrived = 0
        store.stake = self._slow_stake  # type: ignore[method-assign]
        store.stake_bet = self._slow_stake_bet  # type: ignore[method-assign]

    async def _arrive(self) -> None:
        self.arrived += 1
        self._fake.changed()
        await self.open.wait()

    async def _slow_stake(self, *args: Any, **kwargs: Any) -> int:
        await self._arrive()
        return await self._stake(*args, **kwargs)

    async def _slow_stake_bet(self, *args: Any, **kwargs: Any) -> db.Staked:
        """A bet's stake (with its notice's mark), as slow."""
        await self._arrive()
        return await self._stake_bet(*args, **kwargs)


async def dealt_round(world: World, shoes: Any) -> FakeMessage:
    """Alice and Bob at the table, 100 each bet, the cards out (Alice's move: 11)."""
    shoes.add(TWO_PLAYER_ROUND)
    table = await world.start(world.alice)
    await world.click(world.bob, table, "Join")
    await world.bet(world.alice, "100")
    await world.bet(world.bob, "100")
    assert "**Your move**" in embed_text(table)
    return table


async def double_on_a_slow_database(
    bot: BlackjackBot, world: World, shoes: Any
) -> tuple[FakeMessage, SlowStakes, FakeInteraction]:
    """A dealt round where Alice's Double waits on a held stake, holding the table's lock."""
    table = await dealt_round(world, shoes)
    slow = SlowStakes(bot.store, world.fake)
    slow.open.clear()
    double = await world.fake.click(world.alice, table, label="Double", wait=False)
    await world.fake.wait_for(lambda: slow.arrived == 1)
    return table, slow, double


async def waiting_clicks(
    world: World, table: FakeMessage, label: str, count: int
) -> list[FakeInteraction]:
    """Bob presses ``label`` ``count`` times; returns once each waits for the table (its
    deferral armed on the clock)."""
    armed = world.fake.clock.sleepers
    clicks = [
        await world.fake.click(world.bob, table, label=label, wait=False) for _ in range(count)
    ]
    await world.fake.clock.wait_for_sleepers(armed + count)
    return clicks


async def past_the_window(world: World, *waiting: FakeInteraction) -> None:
    """Move the clock past the 2 s deferral, check each got one, then past Discord's 3 s."""
    world.fake.clock.advance(2.1)
    for reply in waiting:
        await reply.wait_for_response()
        assert reply.deferred or reply.response_type == 6, reply.describe()
    world.fake.clock.advance(1.5)


async def test_a_bet_on_a_slow_database_is_deferred_then_answered(
    bot: BlackjackBot, world: World
) -> None:
    fake = world.fake
    table = await world.start(world.alice)
    slow = SlowStakes(bot.store, world.fake)
    slow.open.clear()
    bet = await fake.slash(world.alice, "bet", world.channel, amount="100", wait=False)
    await fake.wait_for(lambda: slow.arrived == 1)
    await past_the_window(world, bet)
    assert bet.response_type == 5  # "thinking", only Alice sees it
    assert bet.ephemeral
    slow.open.set()
    answer = await bet.wait_until_loaded()
    assert answer.content.startswith("Bet 100. Balance:")
    await world.settle()
    assert "**Your move**" in embed_text(table)  # her bet was the last: the cards are out
    assert fake.unexpected_errors() == []


async def test_clicks_waiting_for_a_held_table_are_deferred_and_all_shown(
    bot: BlackjackBot, world: World, shoes: Any
) -> None:
    fake = world.fake
    table, slow, double = await double_on_a_slow_database(bot, world, shoes)
    [stand] = await waiting_clicks(world, table, "Stand", 1)  # Bob's waits for the lock
    await past_the_window(world, double, stand)
    assert (double.response_type, stand.response_type) == (6, 6)
    slow.open.set()
    # Each is answered by editing the table message through its own webhook.
    await fake.wait_for(lambda: len(fake.requests_to(WEBHOOK_EDIT)) == 2)
    await world.settle()
    # Both actions were applied and the table message shows both (and the round's end).
    text = embed_text(table)
    assert "6♠ 5♥" in text
    assert "**Place your bets**" in text, text
    assert "Last round" in text
    snapshot = world.table()
    assert table_cog(bot).messages.shown_version(snapshot.table_id) == snapshot.version
    assert ("double", -100) in await world.ledger(world.alice)
    assert fake.unexpected_errors() == []


async def test_a_click_on_a_table_with_too_many_waiting_is_told_busy_and_changes_nothing(
    bot: BlackjackBot, world: World, shoes: Any
) -> None:
    fake = world.fake
    table, slow, double = await double_on_a_slow_database(bot, world, shoes)
    stands = await waiting_clicks(world, table, "Stand", MAX_WAITING - 1)
    # The table is held by the slow stake and ten clicks wait for it: Bob's Hit is answered
    # at once, before anything is released, and is never applied.
    hit = await fake.click(world.bob, table, label="Hit")
    assert hit.response_type == 4
    assert hit.ephemeral
    assert hit.content == BUSY
    slow.open.set()
    for reply in (double, *stands):
        await reply.wait_for_response()
    await world.settle()
    # Bob stood on 10 7 (his first Stand); the Hit would have drawn a card.
    assert "Bob: 10♥ 7♦ 17 loses · balance change -100" in embed_text(table)
    assert fake.unexpected_errors() == []
