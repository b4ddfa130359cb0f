"""The coach through Discord: after a round with a hit on hard 16 against a 10, a double on
11 and a split of 8s, ``/blackjack coach`` shows each decision privately with its best
choice and its cost; the table message never shows anyone's grades."""

from __future__ import annotations

from discord_world import SPARE, ShoeQueue, World, embed_text

from bot.app import BlackjackBot

# Alice plays three spots against the dealer's 10 (a 9 in the hole): 10 6 (hits a 4, then
# stands on 20), 5 6 (doubles: a king), 8 8 (splits: 8 10 and 8 9, both stand).
THREE_DECISIONS = "Ts 5h 8s Td 6c 6d 8h 9c 4h Kc Ts 9d " + SPARE


async def play_three_decisions(world: World) -> None:
    table = await world.start(world.alice)
    await world.bet(world.alice, "100", hands=3)
    for label in ("Hit", "Stand", "Double", "Split", "Stand", "Stand"):
        await world.click(world.alice, table, label)


async def test_the_coach_grades_each_decision_of_the_last_round_privately(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add(THREE_DECISIONS)
    before = await world.say(world.alice, "blackjack coach")
    assert before.startswith("The coach has no graded round of yours here yet")
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
