"""Two tables in two channels play at once, each with its own message, and share one bank."""

from __future__ import annotations

import asyncio

from bot.app import BlackjackBot
from bot.bet_amount import short_of_chips
from bot.i18n import _
from tests.support.discord_world import World, embed_text
from tests.support.shoes import SPARE, START_CHIPS, ShoeQueue
from tests.support.speech import receipt, said


async def test_two_tables_in_two_channels_play_at_once(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add("Ts 9h 7c 8d " + SPARE)  # first table: Alice 17 against 17
    shoes.add("As 9h Kc 8d " + SPARE)  # second table: Bob blackjack
    first = await world.start(world.alice)
    second = await world.start(world.bob, world.other_channel)
    assert first is not second
    assert world.table().table_id != world.table(world.other_channel).table_id

    await asyncio.gather(
        world.bet(world.alice, "100"),
        world.bet(world.bob, "100", channel=world.other_channel),
    )
    await world.click(world.alice, first, "Stand")
    assert "Alice: 10♠ 7♣ 17 push · balance change ±0" in embed_text(first)
    assert "Bob: A♠ K♣ blackjack · balance change +150" in embed_text(second)
    assert "Bob" not in embed_text(first)
    assert await world.balance(world.alice) == START_CHIPS
    assert await world.balance(world.bob) == START_CHIPS + 150
    assert world.fake.messages_in(world.channel) == [first]
    assert world.fake.messages_in(world.other_channel) == [second]


async def test_one_player_at_two_tables_cannot_spend_the_same_chips_twice(
    bot: BlackjackBot, world: World
) -> None:
    await world.start(world.alice)
    await world.start(world.bob, world.other_channel)
    await world.click(world.alice, world.fake.last_message(world.other_channel), "Join")
    first, second = await asyncio.gather(
        world.bet(world.alice, "700"),
        world.bet(world.alice, "700", channel=world.other_channel),
    )
    answers = sorted([first, second])
    assert answers[0] == said(world.alice, receipt(700, 300))
    assert answers[1] == said(world.alice, short_of_chips(700, 300))
    assert await world.balance(world.alice) == START_CHIPS - 700


async def test_a_thread_has_its_own_table(bot: BlackjackBot, world: World) -> None:
    thread = world.fake.add_thread(world.channel, "high-stakes")
    await world.fake.sync()
    in_channel = await world.start(world.alice)
    in_thread = await world.start(world.bob, thread)
    assert in_thread.channel is thread
    assert await world.bet(world.bob, "100", channel=thread) == said(world.bob, receipt(100, 900))
    assert "▶" in embed_text(in_thread)
    assert said(world.alice, _("**Place your bets**")) in embed_text(in_channel)
