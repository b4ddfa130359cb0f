"""Every interaction on the bet path is answered by its one request, its interaction response,
whatever it says: a first bet (its no-value notice in the receipt), a later bet, a refused
bet, a sit, a leave, a tournament's bet and a bet at a table in a group DM. Table edits for
the others are channel edits, counted apart (coalesced)."""

from __future__ import annotations

from bot.app import BlackjackBot
from bot.tables.play_words import FIRST_BET_NOTICE
from fakediscord.interactions import FakeInteraction
from fakediscord.server import FakeDiscord
from tests.support.discord_world import World
from tests.support.shoes import SPARE, ShoeQueue
from tests.support.tournaments import entered, settled

# Alice 10 8 and Bob 9 9 against the dealer's 7 10: both stand, the dealer stands on 17.
BOTH_STAND = "Ts 9s 7c 8d 9h Tc " + SPARE


def answered_once(fake: FakeDiscord, interaction: FakeInteraction, since: int) -> str:
    """The interaction's one request (its response) and no followup or deletion through any
    webhook since ``since``: the answer's text, its notice (an embed) after it."""
    mine = [r.route for r in fake.requests if interaction.token in r.path]
    assert mine == ["POST /interactions/{interaction_id}/{interaction_token}/callback"], mine
    # A pocket table's edits go through its own message's token (PATCH): a table edit.
    webhooks = [r.route for r in fake.requests[since:] if "/webhooks/" in r.path]
    assert [route for route in webhooks if not route.startswith("PATCH ")] == [], webhooks
    assert interaction.followups == []
    message = interaction.original
    assert message is not None
    assert message.ephemeral
    notice = [str(embed["description"]) for embed in message.embeds]
    return "\n".join([message.content, *notice])


async def slash_once(world: World, member: object, command: str, **options: object) -> str:
    """A slash command, answered by its one request: what it said."""
    since = len(world.fake.requests)
    interaction = await world.slash(member, command, **options)  # type: ignore[arg-type]
    return answered_once(world.fake, interaction, since)


async def test_each_bet_sit_and_leave_is_one_request(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add(BOTH_STAND + " " + BOTH_STAND)
    alice, bob, carol = world.alice, world.bob, world.carol
    table = await world.start(alice)
    assert (
        await slash_once(world, bob, "blackjack join")
        == "You sat down. Bet with /bet amount [hands]."
    )
    refused = await slash_once(world, alice, "bet", amount="lots")
    assert FIRST_BET_NOTICE not in refused  # a refused bet is no first bet
    first = await slash_once(world, alice, "bet", amount="100")
    assert first == f"Bet 100. Balance: 900.\n{FIRST_BET_NOTICE}"
    assert await slash_once(world, bob, "bet", amount="100") == (
        f"Bet 100. Balance: 900.\n{FIRST_BET_NOTICE}"
    )
    during = await slash_once(world, carol, "bet", amount="100")
    assert during == "The cards are out: bet when the next round opens."
    await world.click(alice, table, "Stand")
    await world.click(bob, table, "Stand")

    assert await slash_once(world, alice, "bet", amount="50") == "Bet 50. Balance: 1,050."
    assert await slash_once(world, carol, "bet", amount="10") == (
        f"Bet 10. Balance: 990.\n{FIRST_BET_NOTICE}"
    )
    assert await slash_once(world, bob, "blackjack leave") == "You left."  # and the deal


async def test_a_tournament_bet_is_one_request_with_its_notice(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add(BOTH_STAND)
    await entered(world, world.alice, world.bob)
    await world.slash(world.mod, "tournament start")
    await settled(world)
    sealed = await slash_once(world, world.alice, "tournament bet", amount="10")
    assert sealed == f"Your bet of 10 chips is sealed.\n{FIRST_BET_NOTICE}"
    await settled(world)


async def test_a_bet_at_a_group_dm_table_is_one_request(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add(BOTH_STAND)
    fake, alice = world.fake, world.alice.user
    fake.install_app(alice)
    group = fake.add_group_dm(alice, world.bob.user)
    await fake.slash(alice, "blackjack start", group)
    await world.settle()
    since = len(fake.requests)
    bet = await fake.slash(alice, "bet", group, amount="100")
    await world.settle()
    assert answered_once(fake, bet, since) == f"Bet 100. Balance: 900.\n{FIRST_BET_NOTICE}"
