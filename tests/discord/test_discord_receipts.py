"""A bet's private receipt is deleted a few seconds after it is sent (the clock is the
fake's: no real waiting), so receipts do not pile up under the table message."""

from __future__ import annotations

from bot.app import BlackjackBot
from bot.tables.play_words import FIRST_BET_NOTICE
from cogs.table.receipts import RECEIPT_SHOWN_S
from tests.support.discord_world import World
from tests.support.shoes import SPARE, ShoeQueue

# Alice 10 8 and Bob 9 9 against the dealer's 7 10: both stand, the dealer stands on 17.
BOTH_STAND = "Ts 9s 7c 8d 9h Tc " + SPARE


async def test_a_bet_receipt_leaves_after_a_few_seconds_and_the_table_stays(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add(BOTH_STAND)
    fake, alice = world.fake, world.alice
    table = await world.start(alice)
    await world.click(world.bob, table, "Join")

    bet = await world.slash(alice, "bet", amount="100")
    receipt = bet.original
    assert receipt is not None
    assert receipt.ephemeral
    assert receipt.content.startswith("Bet 100.")
    (notice,) = await bet.wait_for_followups(1)  # the first bet's notice: it stays
    assert notice.content == FIRST_BET_NOTICE
    refused = (await world.slash(alice, "bet", amount="50")).original
    assert refused is not None
    assert refused.content.startswith("You have already bet")
    assert receipt in fake.messages_in(world.channel, viewer=alice)

    await world.tick(RECEIPT_SHOWN_S - 1)
    assert not receipt.deleted
    await world.tick(1)
    await fake.wait_for(lambda: receipt.deleted)
    # Only the receipt goes: the table, the notice and a refusal's reason stay.
    assert fake.messages_in(world.channel, viewer=alice) == [table, notice, refused]


async def test_a_bet_buttons_receipt_leaves_but_the_table_message_stays(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add(BOTH_STAND)
    fake, alice, bob = world.fake, world.alice, world.bob
    table = await world.start(alice)
    await world.click(bob, table, "Join")
    await world.bet(alice, "100")
    await world.bet(bob, "100")
    await world.click(alice, table, "Stand")
    await world.click(bob, table, "Stand")
    assert "Place your bets" in (table.embed or {}).get("description", "")

    again = await world.click(alice, table, "Bet again")
    assert again.response_type == 7  # the table itself is the click's original response
    (receipt,) = await again.wait_for_followups(1)
    assert receipt.content.startswith("Bet 100.")
    await world.tick(RECEIPT_SHOWN_S)
    await fake.wait_for(lambda: receipt.deleted)
    assert not table.deleted
    assert fake.messages_in(world.channel) == [table]
