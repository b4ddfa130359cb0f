"""Timers on the injected clock: betting ends, idle hands stand, an idle table closes.

Countdowns are Discord timestamps, so the table message is not edited while a timer runs.
"""

from __future__ import annotations

from bot.app import BlackjackBot
from bot.tables import TablePhase
from tests.support.discord_world import World, embed_text
from tests.support.shoes import SPARE, START_CHIPS, ShoeQueue

# Alice 10 7 against a dealer 9 8: 17 pushes 17.
ALICE_SEVENTEEN = "Ts 9h 7c 8d " + SPARE


async def test_the_bet_timer_deals_to_those_who_bet(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add(ALICE_SEVENTEEN)
    table = await world.start(world.alice)
    await world.click(world.bob, table, "Join")
    await world.bet(world.alice, "100")
    deal_at = int(world.fake.clock.now()) + 30
    assert f"**Place your bets** · <t:{deal_at}:R>" in embed_text(table)
    edits = table.edits
    await world.tick(29)
    assert table.edits == edits  # the countdown ticks on the client, not by edits
    await world.tick(1)
    text = embed_text(table)
    assert "**Your move**" in text
    assert "▶ 10♠ 7♣ · **17** · 100" in text
    assert "## Bob\nSitting out this round" in text


async def test_a_hand_left_idle_past_the_action_timer_stands(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add(ALICE_SEVENTEEN)
    table = await world.start(world.alice)
    await world.bet(world.alice, "100")
    act_by = int(world.fake.clock.now()) + 30
    assert f"▶ 10♠ 7♣ · **17** · 100 · <t:{act_by}:R>" in embed_text(table)
    await world.tick(30)
    text = embed_text(table)
    assert world.table().phase is TablePhase.BETTING
    assert "Alice: 10♠ 7♣ — 17 ties 17: push, 100 back" in text
    assert await world.balance(world.alice) == START_CHIPS


async def test_a_betting_round_with_no_bets_is_void_and_an_idle_table_closes(
    bot: BlackjackBot, world: World
) -> None:
    table = await world.start(world.alice)
    await world.tick(30)
    assert world.table().round_no == 2  # nobody bet: the next betting round opened
    await world.tick(300)
    assert bot.tables.table_in(world.channel.id) is None
    assert "**Table closed** · Closed after 5 min without bets." in embed_text(table)
    assert table.buttons() == []
    assert await world.balance(world.alice) == START_CHIPS
    assert [kind for kind, _ in await world.ledger(world.alice)] == ["grant"]
