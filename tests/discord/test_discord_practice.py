"""A practice table through Discord: its Count button shows, privately, the Hi-Lo running
count of the cards the players have seen, the decks left and the true count."""

from __future__ import annotations

from bot.app import BlackjackBot
from bot.i18n import _
from bot.tables.practice import NOT_A_COUNT, QUIZ_ASKED
from tests.support.discord_world import World, embed_text, labels_enabled
from tests.support.shoes import SPARE, ShoeQueue
from tests.support.speech import said

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


async def test_a_practice_table_quizzes_the_count_when_it_replaces_its_shoe(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    fake = world.fake
    shoes.add("5s 9h 6c 8d")  # one round, then the shoe is done: +1 0 +1 0, a count of +2
    table = await world.start(world.alice, practice=True)
    assert "Quiz" not in {button["label"] for button in table.buttons()}
    await world.bet(world.alice, "100")
    await world.click(world.alice, table, "Stand")  # 11 against 17: settled, a new shoe
    text = embed_text(table)
    assert said(world.alice, QUIZ_ASKED) in text
    assert "Quiz" in labels_enabled(table)

    opened = await fake.click(world.alice, table, label="Quiz")
    wrong = await fake.submit_modal(
        world.alice, opened, {"The running count when the shoe ended": "+1"}
    )
    assert wrong.ephemeral
    assert wrong.content == "The running count was +2; you said +1."
    opened = await fake.click(world.alice, table, label="Quiz")
    again = await fake.submit_modal(
        world.alice, opened, {"The running count when the shoe ended": "2"}
    )
    assert again.content == said(world.alice, _("You have answered this count quiz already."))
    opened = await fake.click(world.bob, table, label="Quiz")  # anyone at the channel may try
    unreadable = await fake.submit_modal(
        world.bob, opened, {"The running count when the shoe ended": "two"}
    )
    assert unreadable.content == said(world.bob, NOT_A_COUNT)
    opened = await fake.click(world.bob, table, label="Quiz")
    right = await fake.submit_modal(
        world.bob, opened, {"The running count when the shoe ended": "\u22122"}
    )
    assert right.content == "The running count was +2; you said \u22122."
    opened = await fake.click(world.carol, table, label="Quiz")
    right = await fake.submit_modal(
        world.carol, opened, {"The running count when the shoe ended": "+2"}
    )
    assert right.content == "Right: the running count was +2."

    # The quiz's figures are kept apart from the play's.
    stats = await world.slash(world.alice, "stats")
    assert stats.embed is not None
    fields = {f["name"]: f["value"] for f in stats.embed["fields"]}
    assert (fields["Count quizzes"], fields["Count quizzes right"]) == ("1", "0")
    carol = await world.slash(world.carol, "stats")
    assert carol.embed is not None
    fields = {f["name"]: f["value"] for f in carol.embed["fields"]}
    assert (fields["Count quizzes"], fields["Count quizzes right"], fields["Hands"]) == (
        "1",
        "1",
        "0",
    )


async def test_an_admin_makes_every_new_table_a_practice_table(
    bot: BlackjackBot, world: World
) -> None:
    said = await world.say(world.admin, "blackjack-admin config", practice_tables=True)
    assert said.startswith("Settings changed.\n")
    assert "\nNew tables are practice tables (a counting trainer).\n" in said
    table = await world.start(world.alice)
    assert "Count" in labels_enabled(table)
    await world.say(world.admin, "blackjack-admin config", practice_tables=False)
    other = await world.start(world.bob, world.other_channel)
    assert "Count" not in {button["label"] for button in other.buttons()}
