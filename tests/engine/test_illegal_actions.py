"""Every illegal action raises a named error and changes nothing."""

from __future__ import annotations

import pytest
from engine_stacking import deal

from bot.engine import (
    Action,
    ActionNotAllowed,
    IllegalAction,
    InvalidBets,
    NoSuchHand,
    NoSuchPlayer,
    NotYourTurn,
    Round,
    RoundNotSettled,
    RoundOver,
    Shoe,
    preset,
)

VEGAS = preset("vegas-shoe")
A = Action


def refused(round_: Round, player: str, action: Action, error: type[IllegalAction]) -> str:
    """Assert ``action`` raises ``error`` from both act and cost, leaving the round as it was."""
    before = round_.to_json()
    with pytest.raises(error) as caught:
        round_.act(player, action)
    with pytest.raises(error):
        round_.cost(player, action)
    assert round_.to_json() == before
    return str(caught.value)


def test_a_stranger_cannot_act() -> None:
    r = deal(VEGAS, ["10♠ 6♥"], "9♦ 7♣")
    assert "bob has no hand" in refused(r, "bob", A.HIT, NoSuchPlayer)
    with pytest.raises(NoSuchPlayer):
        r.legal_actions("bob")


def test_a_player_with_every_hand_finished_is_not_on_turn() -> None:
    r = deal(VEGAS, ["10♠ 8♥", "10♣ 5♥"], "9♦ 7♣", players=[("ann", 1), ("bea", 1)])
    r.act("ann", A.STAND)
    assert "no hand left" in refused(r, "ann", A.HIT, NotYourTurn)


def test_no_double_after_a_hit() -> None:
    r = deal(VEGAS, ["2♠ 3♥"], "9♦ 7♣", "4♣")
    r.act("alice", A.HIT)
    assert "first two cards" in refused(r, "alice", A.DOUBLE, ActionNotAllowed)


def test_no_split_of_a_non_pair() -> None:
    r = deal(VEGAS, ["9♠ 3♥"], "9♦ 7♣")
    assert "pair" in refused(r, "alice", A.SPLIT, ActionNotAllowed)


def test_no_surrender_after_a_split() -> None:
    r = deal(VEGAS, ["8♠ 8♥"], "9♦ 7♣", "2♣ 3♦")
    r.act("alice", A.SPLIT)
    assert "after splitting" in refused(r, "alice", A.SURRENDER, ActionNotAllowed)


def test_insurance_only_while_it_is_offered() -> None:
    r = deal(VEGAS, ["10♠ 6♥"], "9♦ 7♣")
    assert "only offered" in refused(r, "alice", A.INSURANCE, ActionNotAllowed)


def test_insurance_must_be_decided_before_playing() -> None:
    r = deal(VEGAS, ["10♠ 6♥"], "A♦ 7♣")
    assert "decide on insurance" in refused(r, "alice", A.HIT, ActionNotAllowed)


def test_insurance_is_decided_once() -> None:
    r = deal(VEGAS, ["10♠ 6♥", "10♣ 6♣"], "A♦ 7♣", players=[("ann", 1), ("bea", 1)])
    r.act("ann", A.NO_INSURANCE)
    assert "already decided" in refused(r, "ann", A.INSURANCE, NotYourTurn)
    assert "other players" in refused(r, "ann", A.HIT, NotYourTurn)


def test_nothing_after_the_round_is_over() -> None:
    r = deal(VEGAS, ["10♠ 8♥"], "9♦ 8♣")
    r.act("alice", A.STAND)
    assert "over" in refused(r, "alice", A.STAND, RoundOver)
    assert r.legal_actions("alice") == frozenset()


def test_a_word_that_is_no_action_is_refused() -> None:
    r = deal(VEGAS, ["10♠ 6♥"], "9♦ 7♣")
    assert "not an action" in refused(r, "alice", "fold", ActionNotAllowed)  # type: ignore[arg-type]


def test_plain_strings_name_actions_too() -> None:
    r = deal(VEGAS, ["10♠ 6♥"], "9♦ 7♣", "2♣")
    r.act("alice", "hit")  # type: ignore[arg-type]
    assert r.hands("alice")[0].total == 18


def test_no_such_hand() -> None:
    r = deal(VEGAS, ["10♠ 6♥"], "9♦ 7♣")
    with pytest.raises(NoSuchHand, match="no hand 3"):
        r.legal_actions("alice", 2)


def test_the_settlement_waits_for_the_end_of_the_round() -> None:
    r = deal(VEGAS, ["10♠ 6♥"], "9♦ 7♣")
    with pytest.raises(RoundNotSettled):
        r.settlement()


@pytest.mark.parametrize(
    ("bets", "message"),
    [
        ([], "1 to 7 players"),
        ([("ann", [10]), ("ann", [10])], "seated twice"),
        ([("", [10])], "non-empty"),
        ([("ann", [])], "1 to 7 hands"),
        ([("ann", [10] * 8)], "1 to 7 hands"),
        ([("ann", [9])], "outside the table limits 10-10000"),
        ([("ann", [10_001])], "outside the table limits"),
        ([("ann", [True])], "outside the table limits"),
        ([("ann", [10.0])], "outside the table limits"),
        ([(f"p{n}", [10]) for n in range(8)], "1 to 7 players"),
    ],
)
def test_bad_bets_are_refused_before_any_card_is_dealt(
    bets: list[tuple[str, list[int]]], message: str
) -> None:
    shoe = Shoe(6, 0.75, bytes(32))
    with pytest.raises(InvalidBets, match=message):
        Round.deal(VEGAS, shoe, bets)
    assert shoe.position == 0
