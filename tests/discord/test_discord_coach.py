"""The coach through Discord: after a round with a hit on hard 16 against a 10, a double on
11 and a split of 8s, ``/blackjack coach`` shows each decision privately with its best
choice and its cost; the table message never shows anyone's grades. ``/stats`` and the
sharpest board show the figures, teach mode sends its note, and a pocket table's round
(in a group DM) and a tournament's hand are graded too."""

from __future__ import annotations

import re

import pytest

from bot.app import BlackjackBot
from bot.i18n import _
from cogs.coach_figures import SHARPEST_MINIMUM
from cogs.table.coach import TEACH_ON
from fakediscord.models import GROUP_DM
from fakediscord.records import FakeMessage
from tests.support.discord_world import World, embed_text
from tests.support.pocket_tables import play_a_group_dm_round
from tests.support.shoes import SPARE, ShoeQueue
from tests.support.speech import said
from tests.support.tournaments import settled, stack_hands, the_board

# Alice plays three spots against the dealer's 10 (a 9 in the hole): 10 6 (hits a 4, then
# stands on 20), 5 6 (doubles: a king), 8 8 (splits: 8 10 and 8 9, both stand).
ROUND = "Ts 5h 8s Td 6c 6d 8h 9c 4h Kc Ts 9d "
THREE_DECISIONS = ROUND + SPARE
NOTHING_GRADED = _(
    "The coach has no graded round of yours here yet: play a round, and ask again "
    "once it is settled."
)


async def play_three_decisions(world: World, table: FakeMessage | None = None) -> FakeMessage:
    """Alice's round at her table (opened first when ``table`` is None): the table."""
    if table is None:
        table = await world.start(world.alice)
    await world.bet(world.alice, "100", hands=3)
    for label in ("Hit", "Stand", "Double", "Split", "Stand", "Stand"):
        await world.click(world.alice, table, label)
    return table


async def test_the_coach_grades_each_decision_of_the_last_round_privately(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add(THREE_DECISIONS)
    before = await world.say(world.alice, "blackjack coach")
    assert before == said(world.alice, NOTHING_GRADED)
    await play_three_decisions(world)
    await bot.tables.coach.settle()  # graded in the strategy worker after the round

    review = await world.say(world.alice, "blackjack coach")
    lines = review.splitlines()
    assert lines[0].startswith("Your last round: 5 of 6 decisions the best, 3.58 chips given away")
    # Each decision: the choice, the cards and the up card, then its value against the
    # best's (or, when it was the best, against the runner-up's), then every choice's value.
    assert lines[1:] == [
        "Hit hard 16 (10♠ 6♣) against a 10: \u221253.6% against \u221250.0% for surrender, "
        "3.6% of the bet given away.",
        "-# surrender \u221250.0%, hit \u221253.6%, stand \u221254.1%, double \u2212107.2%",
        "Stand hard 20 (10♠ 6♣ 4♥) against a 10: +55.4% against \u221284.5% for hit, "
        "the best choice.",
        "-# stand +55.4%, hit \u221284.5%",
        "Double hard 11 (5♥ 6♦) against a 10: +18.0% against +11.8% for hit, the best choice.",
        "-# double +18.0%, hit +11.8%, surrender \u221250.0%, stand \u221254.2%",
        "Split a pair of 8s (8♠ 8♥) against a 10: \u221247.3% against \u221250.0% for "
        "surrender, the best choice.",
        "-# split \u221247.3%, surrender \u221250.0%, hit \u221253.8%, stand \u221254.1%, "
        "double \u2212107.5%",
        "Stand hard 18 (8♠ 10♠) against a 10: \u221217.2% against \u221263.4% for hit, "
        "the best choice.",
        "-# stand \u221217.2%, hit \u221263.4%, double \u2212126.9%",
        "Stand hard 17 (8♥ 9♦) against a 10: \u221241.5% against \u221257.5% for hit, "
        "the best choice.",
        "-# stand \u221241.5%, hit \u221257.5%, double \u2212115.0%",
    ]
    # Nobody else sees it, and the table message says nothing of it.
    for message in world.fake.messages_in(world.channel):
        assert "given away" not in embed_text(message) + (message.content or "")


async def test_stats_and_the_sharpest_board_show_the_coachs_figures(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add(ROUND + ROUND + SPARE)
    table = await play_three_decisions(world)
    await bot.tables.coach.settle()
    board = await world.slash(world.bob, "leaderboard", board="sharpest")
    assert board.embed is not None
    nobody = _(
        "Nobody has {count} graded decisions here yet: play, and the coach grades each one.",
        count=SHARPEST_MINIMUM,
    )
    assert board.embed["description"] == said(world.bob, nobody)
    await play_three_decisions(world, table)
    await bot.tables.coach.settle()

    figures = await world.store.coach.figures(world.guild.id, world.alice.user.id)
    assert (figures.decisions, figures.best) == (12, 10)
    given = f"{figures.given_away:,.2f} chips"
    reply = await world.slash(world.bob, "stats", member=world.alice)
    assert reply.embed is not None
    fields = {f["name"]: f["value"] for f in reply.embed["fields"]}
    assert fields["Decisions graded"] == fields["Decisions this season"] == "12"
    assert fields["Best decisions"] == fields["Best this season"] == "10"
    assert fields["Chips given away (expected)"] == fields["Given away this season"] == given
    mine = await world.slash(world.bob, "stats")
    assert mine.embed is not None
    assert "Decisions graded" not in {f["name"] for f in mine.embed["fields"]}

    board = await world.slash(world.bob, "leaderboard", board="sharpest")
    assert board.ephemeral
    assert board.embed is not None
    listed = re.fullmatch(
        rf"`#1` <@{world.alice.user.id}> · (\d+\.\d\d) chips given away per 100 decisions "
        r"\(12 decisions\)",
        board.embed["description"],
    )
    assert listed is not None
    assert float(listed[1]) == pytest.approx(
        100 * figures.given_away / 12, abs=0.0051
    )  # written to the cent


async def test_teach_mode_sends_a_private_note_on_each_costly_decision(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add(ROUND + ROUND + ROUND + SPARE)
    table = await play_three_decisions(world)  # teach mode is off by default
    await bot.tables.coach.settle()
    fake = world.fake
    assert not [dm for dm in fake.private_channels.values() if world.alice.user in dm.recipients]

    turned_on = await world.say(world.alice, "blackjack coach", mode="teach")
    assert turned_on.split("\n\n")[0] == said(world.alice, TEACH_ON)  # then the last round
    await play_three_decisions(world, table)
    await bot.tables.coach.settle()
    [dm] = [dm for dm in fake.private_channels.values() if world.alice.user in dm.recipients]
    assert dm.recipients == [world.alice.user, fake.bot_user]
    [note] = fake.messages_in(dm)
    lines = note.content.splitlines()
    # Only the hit on hard 16 (3.6% of the bet given away): the other choices were the best.
    assert lines[0] == "The coach, on your last round: 1 decision cost more than 2% of the bet."
    assert lines[1].startswith("Hit hard 16 (10♠ 6♣) against a 10: ")
    assert lines[1].endswith("% of the bet given away.")
    assert len(lines) == 3

    await world.say(world.alice, "blackjack coach", mode="quiet")
    await play_three_decisions(world, table)
    await bot.tables.coach.settle()
    assert len(fake.messages_in(dm)) == 1


async def test_the_coach_grades_a_pocket_tables_round_in_a_group_dm(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    await play_a_group_dm_round(world, shoes)  # Alice stands on 19, Bob on 16, against a 7
    await bot.tables.coach.settle()
    fake = world.fake
    [group] = [place for place in fake.private_channels.values() if place.type == GROUP_DM]
    asked = await fake.slash(world.bob.user, "blackjack coach", group)
    assert asked.ephemeral
    lines = (asked.content or "").splitlines()
    assert lines[0].startswith("Your last round: 0 of 1 decision the best, ")
    assert lines[1].startswith("Stand hard 16 (9♥ 7♥) against a 7: \u2212")
    assert "% for hit, " in lines[1]
    # The server's coach knows nothing of it: the pocket scope is apart.
    assert await world.say(world.bob, "blackjack coach") == said(world.bob, NOTHING_GRADED)


async def test_the_coach_grades_a_tournament_hand(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    stack_hands(world, shoes)
    shoes.add("Th Td Kc 8h 8d 9s " + SPARE)  # Alice and Bob stand on 18 against the 19
    await world.slash(world.mod, "tournament create", None, fee=100, hands=2)
    await settled(world)
    for member in (world.alice, world.bob):
        await world.say(member, "tournament join")
        await settled(world)
    await world.say(world.mod, "tournament start")
    await settled(world)
    for member in (world.alice, world.bob):
        await world.say(member, "tournament bet", amount="10")
        await settled(world)
    board = the_board(world)
    for member in (world.alice, world.bob):
        await world.click(member, board, "Stand")
    await settled(world)
    await bot.tables.coach.settle()
    review = await world.say(world.alice, "blackjack coach")
    assert review.splitlines()[0].startswith("Your last round: 1 of 1 decision the best, 0.00")
    assert review.splitlines()[1].startswith("Stand hard 18 (10♥ 8♥) against a 10: ")
