"""A practice table through Discord: its Count button shows, privately, the Hi-Lo running
count of the cards the players have seen, the decks left and the true count."""

from __future__ import annotations

from discord_world import SPARE, ShoeQueue, World, labels_enabled

from bot.app import BlackjackBot

# Alice 5 6 against the dealer's 9 (an 8 in the hole): +1, +1 and 0 seen; the 8 counts 0.
FIVE_SIX_AGAINST_9 = "5s 9h 6c 8d " + SPARE


async def test_the_count_button_shows_the_hi_lo_count_of_the_cards_seen(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add(FIVE_SIX_AGAINST_9)
    table = await world.start(world.alice, practice=True)
    plain = await world.start(world.bob, world.other_channel)
    assert "Count" not in {button["label"] for button in plain.buttons()}
    assert "Count" in labels_enabled(table)  # while the table takes bets too
    await world.bet(world.alice, "100")

    asked = await world.click(world.bob, table, "Count")  # anyone may ask, seated or not
    assert asked.ephemeral
    # 34 stacked cards, 4 dealt, the hole card unseen: 31 cards, 0.6 decks; 2 / (31/52).
    assert asked.content == "Hi-Lo running count: +2. Decks left: 0.6. True count: +3.4."

    await world.click(world.alice, table, "Stand")  # the dealer turns the 8: 17, stands
    after = await world.click(world.alice, table, "Count")
    assert after.content == "Hi-Lo running count: +2. Decks left: 0.6. True count: +3.5."
