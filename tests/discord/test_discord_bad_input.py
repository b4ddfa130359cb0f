"""Bad input from anyone gets a clear ephemeral reason and moves no chip."""

from __future__ import annotations

import asyncio
import copy

import pytest

from bot.app import BlackjackBot
from bot.bet_amount import short_of_chips
from bot.i18n import Text, _, number_text
from bot.tables.press_checks import EARLIER_ROUND
from cogs.table.commands import table_cog
from tests.support.discord_world import World, embed_text, labels_enabled
from tests.support.shoes import SPARE, START_CHIPS, ShoeQueue
from tests.support.speech import receipt, said

NOT_POSITIVE = _("A bet must be a positive number of chips.")
NOT_SEATED = _("You are not seated at this table. Join, then bet in the next round.")


def not_an_amount(typed: str) -> Text:
    """The refusal of an amount that is no number, with the English examples."""
    return _(
        "{typed} is not an amount of chips. Use a number like {small}, {short} or {large}, "
        "or {half}, {max} or {all}.",
        typed=typed,
        small=500,
        short="2.5k",
        large="1m",
        half="half",
        max="max",
        all="all",
    )


# Alice 10 6 against a dealer 9 (hole 8): hard 16, every action open to her.
ALICE_SIXTEEN = "Ts 9h 6c 8d " + SPARE


@pytest.mark.parametrize(
    ("amount", "reason"),
    [
        ("-5", NOT_POSITIVE),
        ("abc", not_an_amount("'abc'")),
        (
            "1" + "0" * 30,
            _("{typed}… is not an amount of chips.", typed="'100000000000000000000000'"),
        ),
        ("0", NOT_POSITIVE),
        ("2.5", _("{typed} is not a whole number of chips.", typed="'2.5'")),
        ("5", _("The table minimum is {limit}; you bet {amount}.", limit=10, amount=5)),
        ("20k", _("The table maximum is {limit}; you bet {amount}.", limit=10_000, amount=20_000)),
        ("5000", short_of_chips(5_000, 1_000)),
    ],
)
async def test_a_bet_that_cannot_be_placed_is_explained_and_moves_nothing(
    bot: BlackjackBot, world: World, amount: str, reason: Text
) -> None:
    table = await world.start(world.alice)
    before, shown = await world.chips(), (table.embeds, table.edits)
    answer = await world.bet(world.alice, amount)
    assert answer == said(world.alice, reason)
    assert await world.chips() == before
    assert (table.embeds, table.edits) == shown


async def test_a_second_bet_in_the_same_round_is_refused(bot: BlackjackBot, world: World) -> None:
    await world.start(world.alice)
    await world.click(world.bob, world.fake.last_message(world.channel), "Join")
    await world.bet(world.alice, "100")
    before = await world.chips()
    already = _("You have already bet this round ({stake}).", stake=number_text(100))
    assert await world.bet(world.alice, "100") == said(world.alice, already)
    assert await world.chips() == before


async def test_a_bet_on_several_hands_says_per_hand_and_in_all_everywhere(
    bot: BlackjackBot, world: World
) -> None:
    table = await world.start(world.alice)
    await world.click(world.bob, table, "Join")
    words = "50 a hand on 2 hands, 100 in all"
    assert await world.bet(world.alice, "50", hands=2) == f"Bet {words}. Balance: 900."
    assert f"Bet {words}" in embed_text(table)
    before = await world.chips()
    assert await world.bet(world.alice, "20") == f"You have already bet this round ({words})."
    assert await world.chips() == before


async def test_too_many_hands_is_refused(bot: BlackjackBot, world: World) -> None:
    await world.start(world.alice, preset="reno-1972")
    before = await world.chips()
    refused = await world.bet(world.alice, "2", hands=3)
    assert refused == said(world.alice, _("You can play one hand at this table."))
    assert await world.chips() == before


async def test_a_press_by_someone_with_no_hand_changes_nothing(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add(ALICE_SIXTEEN)
    table = await world.start(world.alice)
    await world.bet(world.alice, "100")
    before = await world.chips()
    stranger = await world.refused(world.bob, table, "Hit")
    assert stranger == said(world.bob, NOT_SEATED)
    await world.click(world.carol, table, "Join")
    seated = await world.refused(world.carol, table, "Double")
    assert seated == said(world.carol, _("You have no hand in this round. Bet in the next one."))
    assert await world.chips() == before


async def test_an_action_the_rules_forbid_is_explained(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add("Ts 8s 9h 6c 8h 8d 2c " + SPARE)  # Alice 10 6 (then a 2), Bob 8 8, dealer 9 8
    table = await world.start(world.alice)
    await world.click(world.bob, table, "Join")
    await world.bet(world.alice, "100")
    await world.bet(world.bob, "100")
    before = await world.chips()
    # Split is enabled (Bob holds a pair) but Alice's 10 6 is no pair.
    no_pair = _("You have no pair to split.")
    assert await world.refused(world.alice, table, "Split") == said(world.alice, no_pair)
    await world.click(world.alice, table, "Hit")
    # Double and Surrender stay enabled for Bob's two cards; Alice's three cannot.
    assert {"Double", "Surrender"} <= labels_enabled(table)
    assert await world.refused(world.alice, table, "Double") == said(
        world.alice, _("You have no two-card hand to double.")
    )
    assert await world.refused(world.alice, table, "Surrender") == said(
        world.alice, _("You have no two-card hand to surrender.")
    )
    assert await world.chips() == before


async def test_a_double_click_acts_once(bot: BlackjackBot, world: World, shoes: ShoeQueue) -> None:
    shoes.add(ALICE_SIXTEEN)
    table = await world.start(world.alice)
    await world.click(world.bob, table, "Join")
    await world.bet(world.bob, "100")
    await world.bet(world.alice, "100")
    first, second = await asyncio.gather(
        world.fake.click(world.alice, table, label="Double"),
        world.fake.click(world.alice, table, label="Double"),
    )
    await world.settle()
    answers = sorted([first, second], key=lambda reply: reply.response_type or 0)
    refused, accepted = answers
    assert accepted.response_type == 7
    assert refused.response_type == 4
    assert refused.ephemeral
    assert refused.content == said(world.alice, _("You have no hand left to play this round."))
    assert [kind for kind, _ in await world.ledger(world.alice)] == ["grant", "bet", "double"]


async def test_a_button_from_an_earlier_round_is_stale(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add(ALICE_SIXTEEN)
    table = await world.start(world.alice)
    await world.bet(world.alice, "100")
    round_one = copy.deepcopy(table.components)
    await world.click(world.alice, table, "Stand")
    await world.bet(world.alice, "100")
    before = await world.chips()
    # A client that missed the last edits still shows the first round's buttons.
    table.components = round_one
    stale = await world.refused(world.alice, table, "Hit")
    assert stale == said(world.alice, EARLIER_ROUND)
    assert await world.chips() == before


async def test_a_deleted_table_message_is_posted_again_and_the_bet_stands(
    bot: BlackjackBot, world: World
) -> None:
    fake = world.fake
    fake.expect_errors(10008)
    table = await world.start(world.alice)
    await world.click(world.bob, table, "Join")
    await world.bet(world.alice, "100")
    fake.delete_message(table)
    answer = await world.bet(world.bob, "200")
    assert answer == said(world.bob, receipt(200, START_CHIPS - 200))
    # Bob's bet dealt the cards; the table goes on, on a new message below.
    assert bot.tables.table_in(world.channel.id) is not None
    again = fake.last_message(world.channel)
    assert again is not None
    assert again.id != table.id
    assert "Dealer" in embed_text(again)
    assert await world.balance(world.bob) == START_CHIPS - 200
    assert [kind for kind, _ in await world.ledger(world.bob)] == ["grant", "bet"]
    where = table_cog(bot).messages.message_of(bot.tables.table_in(world.channel.id).table_id)
    assert where == (world.channel.id, again.id)


async def test_a_lost_permission_closes_the_table_and_names_it_to_the_host(
    bot: BlackjackBot, world: World
) -> None:
    fake = world.fake
    fake.expect_errors(50013)
    table = await world.start(world.alice)
    await world.click(world.bob, table, "Join")
    await world.bet(world.alice, "100")
    fake.deny_bot(world.channel, "embed_links")
    await fake.sync()
    # Bob's bet deals the cards; the channel edit showing them is refused.
    await world.bet(world.bob, "50")
    assert bot.tables.table_in(world.channel.id) is None
    assert await world.balance(world.alice) == START_CHIPS
    assert await world.balance(world.bob) == START_CHIPS
    notice = fake.last_message(world.channel)
    assert notice is not None
    assert notice.content == (
        f"<@{world.alice.id}> The blackjack table here closed and its round was refunded: "
        "I am missing Embed Links in this channel. Give me that, then /blackjack start."
    )
    refused = await world.say(world.alice, "blackjack start")
    assert refused == (
        "I can't run a table here: I need Embed Links in this channel. "
        "Ask a moderator to allow that."
    )


async def test_a_channel_the_bot_can_no_longer_see_closes_its_table(
    bot: BlackjackBot, world: World
) -> None:
    fake = world.fake
    fake.expect_errors(50001)
    table = await world.start(world.alice)
    await world.click(world.bob, table, "Join")
    await world.bet(world.alice, "100")
    fake.deny_bot(world.channel, "view_channel")
    await fake.sync()
    await world.tick(30)  # the bet timer deals; the edit is refused: the table closes
    assert bot.tables.table_in(world.channel.id) is None
    assert await world.balance(world.alice) == START_CHIPS
    assert said(world.alice, _("**Place your bets**")) in embed_text(table)  # never edited again


async def test_a_deleted_channel_closes_its_table_and_refunds(
    bot: BlackjackBot, world: World
) -> None:
    fake = world.fake
    fake.expect_errors(10003)
    table = await world.start(world.alice)
    await world.click(world.bob, table, "Join")
    await world.bet(world.alice, "100")
    fake.delete_channel(world.channel)
    await fake.sync()
    await world.tick(30)  # the bet timer deals; the channel is gone: the table closes
    assert bot.tables.table_in(world.channel.id) is None
    assert await world.balance(world.alice) == START_CHIPS
