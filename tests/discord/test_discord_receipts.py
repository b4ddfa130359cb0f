"""A bet is answered by its one interaction response: the receipt of a ``/bet`` is that
response, private, and nothing follows it or deletes it; a Bet button's answer is the table
itself, which shows the bet. Only a player's first bet brings the no-value notice, once."""

from __future__ import annotations

from bot.app import BlackjackBot
from bot.tables.play_words import FIRST_BET_NOTICE
from fakediscord.interactions import FakeInteraction
from fakediscord.rest import RecordedRequest
from fakediscord.server import FakeDiscord
from tests.support.discord_world import World
from tests.support.shoes import SPARE, ShoeQueue
from tests.support.speech import receipt, said

# Alice 10 8 and Bob 9 9 against the dealer's 7 10: both stand, the dealer stands on 17.
BOTH_STAND = "Ts 9s 7c 8d 9h Tc " + SPARE


def requests_of(fake: FakeDiscord, interaction: FakeInteraction) -> list[RecordedRequest]:
    """Every request the bot made for an interaction: its response, followups, deletions."""
    return [r for r in fake.requests if interaction.token in r.path]


async def test_a_bet_is_answered_by_its_receipt_alone_and_the_receipt_stays(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add(BOTH_STAND + " " + BOTH_STAND)
    fake, alice, bob = world.fake, world.alice, world.bob
    table = await world.start(alice)
    await world.click(bob, table, "Join")

    first = await world.slash(alice, "bet", amount="100")
    answer = first.original
    assert answer is not None
    assert answer.ephemeral
    assert answer.content == said(alice, receipt(100, 900))
    # The first bet's notice, once a player, in the receipt itself: one request.
    assert answer.embed is not None
    assert answer.embed["description"] == FIRST_BET_NOTICE
    assert [r.method for r in requests_of(fake, first)] == ["POST"]
    assert first.followups == []
    await world.bet(bob, "100")
    await world.click(alice, table, "Stand")
    await world.click(bob, table, "Stand")

    later = await world.slash(alice, "bet", amount="50")
    assert later.original is not None
    balance = await world.balance(alice)
    assert later.original.content == said(alice, receipt(50, balance))
    assert later.original.embeds == []
    await world.tick(30)
    # One request: the response. No followup, no deletion; the receipt stays to dismiss.
    assert [r.method for r in requests_of(fake, later)] == ["POST"]
    assert later.followups == []
    assert not later.original.deleted
    assert not answer.deleted


async def test_a_bet_button_is_answered_by_the_table_alone(
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
    assert again.response_type == 7  # the table itself is the click's answer
    assert "Bet 100" in next(
        f["value"] for f in (table.embed or {}).get("fields", []) if f["name"] == "Alice"
    )
    await world.tick(30)
    assert [r.method for r in requests_of(fake, again)] == ["POST"]
    assert again.followups == []
    assert fake.messages_in(world.channel) == [table]
