"""The bench player's decision: basic strategy from what the table message shows, and never
a crash when the bot refused what it guessed."""

from __future__ import annotations

import pytest

from bench.table_reading import decide, hand_decision
from bot.engine import Action, Card
from bot.tables.snapshot import TablePhase
from cogs.table.render import render_table
from fakediscord.models import FakeChannel, FakeGuild, FakeUser
from fakediscord.records import FakeMessage
from tests.support.render_snapshots import hand, seat, table

ELEVEN = [Card.parse("6s"), Card.parse("5h")]
SIX = Card.parse("6c")


def test_eleven_against_a_six_doubles() -> None:
    assert hand_decision(ELEVEN, SIX, hands=1, refused=()) == Action.DOUBLE


def test_a_double_refused_for_lack_of_chips_falls_back_to_a_hit() -> None:
    assert hand_decision(ELEVEN, SIX, hands=1, refused={Action.DOUBLE}) == Action.HIT


def test_a_refused_stand_on_three_cards_leaves_a_hit() -> None:
    seventeen = [Card.parse("Ts"), Card.parse("4h"), Card.parse("3d")]
    assert hand_decision(seventeen, SIX, hands=1, refused=()) == Action.STAND
    assert hand_decision(seventeen, SIX, hands=1, refused={Action.STAND}) == Action.HIT


@pytest.mark.parametrize("cards", [ELEVEN, [Card.parse("8s"), Card.parse("8h")]])
def test_with_hit_and_stand_refused_the_player_waits_instead_of_guessing(
    cards: list[Card],
) -> None:
    # Only Double, Split or Surrender were left to guess: the message is behind the table.
    refused = {Action.HIT, Action.STAND}
    assert hand_decision(cards, SIX, hands=1, refused=refused) is None
    assert hand_decision(cards, SIX, hands=2, refused=refused) is None


def table_message(*seats: object) -> FakeMessage:
    """The table message as the bot renders it, as the fake stores it."""
    rendered = render_table(table(TablePhase.PLAYING, *seats))
    guild = FakeGuild(1, "Casino", owner_id=1)
    bot = FakeUser(2, "blackjack", bot=True)
    return FakeMessage(
        3,
        FakeChannel(4, guild, "blackjack"),
        bot,
        embeds=[rendered.embed.to_dict()],
        components=rendered.components(),
    )


def test_the_player_reads_their_current_hand_and_the_dealers_card() -> None:
    alice = seat(
        1, "alice", hand("6♠ 5♥", 11, is_current=True), legal=frozenset(Action) - {Action.SPLIT}
    )
    message = table_message(alice, seat(2, "bob", hand("10♠ 7♥", 17)))
    assert decide(message, "alice", set()) == Action.DOUBLE  # 11 against the dealer's 9
    assert decide(message, "alice", {Action.HIT, Action.STAND}) is None
    assert decide(message, "bob", set()) is None  # not his hand to play
