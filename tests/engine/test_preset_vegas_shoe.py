"""The ``vegas-shoe`` preset follows no single rule text: it is the common modern shoe
game as the project's issue describes it, one test per rule of that sentence:

    "6 decks, S17, double any two, double after split, late surrender, 3:2, split to
    4 hands, no resplit of aces, peek."
"""

from __future__ import annotations

import pytest
from engine_stacking import deal

from bot.engine import Action, Outcome, RoundOver, Shoe, preset

RULES = preset("vegas-shoe")
A = Action


def test_six_decks() -> None:
    assert Shoe(RULES.decks, RULES.penetration, bytes(32)).cards_left == 6 * 52


def test_dealer_stands_on_soft_17() -> None:
    r = deal(RULES, ["10♠ 8♥"], "A♦ 6♣")
    r.act("alice", A.NO_INSURANCE)
    r.act("alice", A.STAND)
    assert (r.dealer.total, len(r.dealer.cards)) == (17, 2)


def test_double_on_any_two_cards() -> None:
    assert A.DOUBLE in deal(RULES, ["10♠ 8♥"], "9♦ 8♣").legal_actions("alice")


def test_double_after_split() -> None:
    r = deal(RULES, ["8♠ 8♥"], "9♦ 8♣", "3♦ 2♣ 10♣")
    r.act("alice", A.SPLIT)
    assert A.DOUBLE in r.legal_actions("alice")
    r.act("alice", A.DOUBLE)
    assert r.hands("alice")[0].stake == 2 * RULES.min_bet


def test_late_surrender_returns_half_after_the_peek() -> None:
    r = deal(RULES, ["10♠ 6♥"], "10♦ 7♣", stakes=[15])
    assert [e.kind for e in r.events][-1] == "peek"
    r.act("alice", A.SURRENDER)
    result = r.settlement().hands[0]
    assert (result.payout, result.rounded_down) == (7, True)


def test_blackjack_pays_3_to_2() -> None:
    r = deal(RULES, ["A♠ K♥"], "9♦ 8♣", stakes=[10])
    assert r.settlement().hands[0].payout == 25


def test_split_to_four_hands() -> None:
    r = deal(RULES, ["8♠ 8♥"], "9♦ 8♣", "8♦ 2♣ 8♣ 3♦ 4♦ 5♦")
    for _ in range(3):
        r.act("alice", A.SPLIT)
    assert len(r.hands("alice")) == 4
    assert A.SPLIT not in r.legal_actions("alice")


def test_no_resplit_of_aces() -> None:
    r = deal(RULES, ["A♠ A♥"], "9♦ 8♣", "A♦ 2♣")
    r.act("alice", A.SPLIT)
    assert r.is_finished  # split aces took one card each and cannot resplit
    assert [len(h.cards) for h in r.hands("alice")] == [2, 2]


def test_dealer_peeks_so_a_dealer_blackjack_ends_the_round_before_play() -> None:
    r = deal(RULES, ["8♠ 8♥"], "10♦ A♣")
    assert r.is_finished
    assert r.settlement().hands[0].outcome is Outcome.LOSE
    with pytest.raises(RoundOver):
        r.act("alice", A.SPLIT)
