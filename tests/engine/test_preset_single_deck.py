"""The ``single-deck`` preset follows single-deck-h17-casino.txt (tests/data/rules/).

One test per rule sentence of that text, in its order ("General Rules", "How it
goes", the options, "Scoring", "Notes"), e.g.:

    "8. Splits any pair of cards: a maximum of 3 times to make 4 hands"
    "6. Soft 17: dealer hits"
    "If a player receives 21 on the 1st and 2nd card it is considered a "blackjack"
    and the player is paid out immediately."
"""

from __future__ import annotations

import pytest
from engine_stacking import deal, rule_text

from bot.engine import (
    Action,
    ActionNotAllowed,
    InvalidBets,
    Outcome,
    Round,
    RoundPhase,
    RulesError,
    Shoe,
    preset,
)

RULES = preset("single-deck")
A = Action


def test_module_follows_the_single_deck_h17_text() -> None:
    assert "Soft 17: dealer hits" in rule_text("single-deck-h17-casino.txt")


# General Rules


def test_1_one_deck_up_to_8() -> None:
    assert RULES.decks == 1
    assert RULES.replace(decks=8).decks == 8
    with pytest.raises(RulesError, match="1 to 8"):
        RULES.replace(decks=9)


def test_2_blackjack_pays_3_to_2() -> None:
    r = deal(RULES, ["A♠ K♥"], "10♦ 7♣", stakes=[20])
    assert r.settlement().hands[0].payout == 20 + 30


def test_3_the_dealer_peeks_for_blackjack() -> None:
    # "If the dealer has an Ace exposed, then he checks for a blackjack": under an ace only.
    r = deal(RULES, ["10♠ 9♥"], "A♦ K♣")
    r.act("alice", A.NO_INSURANCE)
    assert r.is_finished
    assert r.settlement().dealer_blackjack
    r = deal(RULES, ["10♠ 9♥"], "A♦ 7♣")
    r.act("alice", A.NO_INSURANCE)
    assert "dealer checks the hole card: no blackjack" in [e.text for e in r.events]
    # A ten up: no check; the blackjack shows at the end and beats the hand.
    r = deal(RULES, ["10♠ 9♥"], "K♦ A♣")
    assert not r.is_finished
    assert "dealer checks the hole card: no blackjack" not in [e.text for e in r.events]
    r.act("alice", A.STAND)
    assert r.settlement().dealer_blackjack
    assert r.settlement().hands[0].outcome is Outcome.LOSE


def test_split_aces_may_be_hit() -> None:
    # "Each card is the first card of a new hand." Nothing limits a split ace to one card.
    r = deal(RULES, ["A♠ A♥"], "10♦ 7♣", "2♣ 3♦ 4♦")
    r.act("alice", A.SPLIT)
    assert A.HIT in r.legal_actions("alice")
    r.act("alice", A.HIT)
    assert len(r.hands("alice")[0].cards) == 3


def test_4_insurance_is_offered_when_the_dealer_shows_an_ace() -> None:
    assert deal(RULES, ["10♠ 9♥"], "A♦ 7♣").phase is RoundPhase.INSURANCE
    assert deal(RULES, ["10♠ 9♥"], "K♦ 7♣").phase is RoundPhase.PLAYING


def test_5_insurance_pays_2_to_1() -> None:
    r = deal(RULES, ["10♠ 9♥"], "A♦ K♣", stakes=[20])
    r.act("alice", A.INSURANCE)
    insurance = r.settlement().insurance[0]
    assert (insurance.stake, insurance.payout) == (10, 30)


def test_6_the_dealer_hits_soft_17() -> None:
    r = deal(RULES, ["10♠ 8♥"], "A♦ 6♣", "2♣")
    r.act("alice", A.NO_INSURANCE)
    r.act("alice", A.STAND)
    assert r.dealer.total == 19


def test_7_double_down_on_any_two_cards() -> None:
    for hand in ("2♠ 3♥", "10♠ 9♥", "A♠ 7♥"):
        assert A.DOUBLE in deal(RULES, [hand], "10♦ 7♣").legal_actions("alice")


def test_8_any_pair_splits_up_to_3_times_to_make_4_hands() -> None:
    r = deal(RULES, ["8♠ 8♥"], "10♦ 7♣", "8♦ 2♣ 8♣ 3♦ 4♦ 5♦")
    for _ in range(3):
        r.act("alice", A.SPLIT)
    assert len(r.hands("alice")) == 4
    assert A.SPLIT not in r.legal_actions("alice")
    r = deal(RULES, ["A♠ A♥"], "10♦ 7♣", "A♦ 2♣ 3♦ 4♦")
    r.act("alice", A.SPLIT)
    r.act("alice", A.SPLIT)  # aces resplit too
    assert len(r.hands("alice")) == 3


def test_9_no_double_after_split() -> None:
    r = deal(RULES, ["8♠ 8♥"], "10♦ 7♣", "3♦ 2♣")
    r.act("alice", A.SPLIT)
    assert A.DOUBLE not in r.legal_actions("alice")
    with pytest.raises(ActionNotAllowed, match="no doubling after a split"):
        r.act("alice", A.DOUBLE)


def test_10_no_surrender() -> None:
    r = deal(RULES, ["10♠ 6♥"], "10♦ 7♣")
    with pytest.raises(ActionNotAllowed, match="does not allow surrender"):
        r.act("alice", A.SURRENDER)


# How it goes


def test_one_deck_of_52_cards_is_used() -> None:
    shoe = Shoe(RULES.decks, RULES.penetration, bytes(32))
    assert shoe.cards_left == 52


def test_a_player_is_offered_a_new_round_after_each_round() -> None:
    shoe = Shoe(RULES.decks, RULES.penetration, bytes(32))
    for _ in range(3):
        round_ = Round.deal(RULES, shoe, [("alice", [10])])
        round_.stand_all("alice")
        assert round_.is_finished
    assert shoe.position >= 3 * 4  # three rounds dealt one after another from the deck


def test_the_player_places_a_bet_within_the_limits() -> None:
    with pytest.raises(InvalidBets, match="outside the table limits"):
        deal(RULES, ["10♠ 9♥"], "10♦ 7♣", stakes=[RULES.max_bet + 1])


def test_player_and_dealer_get_2_cards_one_of_the_dealers_face_down() -> None:
    r = deal(RULES, ["10♠ 9♥"], "10♦ 7♣")
    assert len(r.hands("alice")[0].cards) == 2
    assert len(r.dealer.cards) == 2
    assert len(r.dealer_cards_shown) == 1


def test_with_an_ace_exposed_insurance_is_offered_then_the_dealer_checks() -> None:
    r = deal(RULES, ["10♠ 9♥"], "A♦ 7♣")
    r.act("alice", A.NO_INSURANCE)
    assert r.phase is RoundPhase.PLAYING
    assert [e.kind for e in r.events][-1] == "peek"


def test_a_dealer_blackjack_beats_the_player_unless_she_has_one_too() -> None:
    r = deal(RULES, ["10♠ 9♥", "A♣ K♥"], "A♦ K♣")
    r.act("alice", A.NO_INSURANCE)
    assert [h.outcome for h in r.settlement().hands] == [Outcome.LOSE, Outcome.PUSH]


def test_stand_takes_no_action() -> None:
    r = deal(RULES, ["10♠ 9♥"], "10♦ 7♣")
    r.act("alice", A.STAND)
    assert len(r.hands("alice")[0].cards) == 2


def test_hit_gives_another_card_and_the_player_may_stop_at_any_point() -> None:
    r = deal(RULES, ["2♠ 3♥"], "10♦ 7♣", "2♣ 4♦")
    r.act("alice", A.HIT)
    r.act("alice", A.HIT)
    r.act("alice", A.STAND)
    assert r.hands("alice")[0].total == 11
    assert r.is_finished


def test_double_down_doubles_the_bet_for_exactly_one_card() -> None:
    r = deal(RULES, ["5♠ 6♥"], "10♦ 7♣", "2♣", stakes=[10])
    r.act("alice", A.DOUBLE)
    hand = r.hands("alice")[0]
    assert (hand.stake, len(hand.cards), hand.is_finished) == (20, 3, True)


def test_no_double_down_after_the_first_2_cards() -> None:
    r = deal(RULES, ["2♠ 3♥"], "10♦ 7♣", "2♣")
    r.act("alice", A.HIT)
    with pytest.raises(ActionNotAllowed, match="first two cards"):
        r.act("alice", A.DOUBLE)


def test_split_makes_each_card_the_first_card_of_a_new_hand() -> None:
    r = deal(RULES, ["9♠ 9♥"], "10♦ 7♣", "2♣ 3♦")
    r.act("alice", A.SPLIT)
    assert [h.describe() for h in r.hands("alice")] == ["9♠ 2♣ (11)", "9♥ 3♦ (12)"]


def test_split_is_for_equally_valued_cards() -> None:
    assert A.SPLIT in deal(RULES, ["K♠ 10♥"], "10♦ 7♣").legal_actions("alice")
    assert A.SPLIT not in deal(RULES, ["K♠ 9♥"], "10♦ 7♣").legal_actions("alice")


def test_each_split_hand_takes_a_second_stake_equal_to_the_bet() -> None:
    r = deal(RULES, ["9♠ 9♥"], "10♦ 7♣", "2♣ 3♦", stakes=[25])
    assert r.cost("alice", A.SPLIT) == 25
    r.act("alice", A.SPLIT)
    assert [h.stake for h in r.hands("alice")] == [25, 25]


def test_the_dealer_hits_until_17_or_more() -> None:
    r = deal(RULES, ["10♠ 8♥"], "2♦ 3♣", "4♠ 2♥ 5♣ 2♦")
    r.act("alice", A.STAND)
    assert r.dealer.total == 18


# Scoring


def test_the_greater_total_without_going_over_21_wins() -> None:
    r = deal(RULES, ["10♠ 9♥"], "9♦ 9♣")
    r.act("alice", A.STAND)
    assert r.settlement().hands[0].outcome is Outcome.WIN


def test_a_winning_blackjack_pays_3_to_2_and_rounds_a_half_chip_down() -> None:
    r = deal(RULES, ["A♠ K♥"], "10♦ 7♣", stakes=[15])
    result = r.settlement().hands[0]
    assert (result.payout, result.rounded_down) == (15 + 22, True)
    assert "rounded down" in result.text


def test_a_tie_pushes_even_with_blackjacks() -> None:
    r = deal(RULES, ["10♠ 8♥"], "9♦ 9♣")
    r.act("alice", A.STAND)
    assert r.settlement().hands[0].outcome is Outcome.PUSH
    r = deal(RULES, ["A♠ K♥"], "K♦ A♣")
    assert r.settlement().hands[0].outcome is Outcome.PUSH


def test_other_wins_pay_even_money() -> None:
    r = deal(RULES, ["10♠ 9♥"], "9♦ 9♣", stakes=[15])
    r.act("alice", A.STAND)
    assert r.settlement().hands[0].payout == 30


def test_a_bust_loses_automatically() -> None:
    r = deal(RULES, ["10♠ 6♥"], "10♦ 7♣", "K♣")
    r.act("alice", A.HIT)
    assert r.settlement().hands[0].outcome is Outcome.BUST
    r = deal(RULES, ["10♠ 8♥"], "10♦ 6♣", "K♣")
    r.act("alice", A.STAND)
    assert r.settlement().hands[0].outcome is Outcome.WIN


def test_if_both_bust_the_player_loses() -> None:
    r = deal(RULES, ["10♠ 6♥", "10♣ 7♥"], "10♦ 6♣", "K♣ K♦")
    r.act("alice", A.HIT)
    r.act("alice", A.STAND)
    assert r.dealer.is_bust
    assert [h.outcome for h in r.settlement().hands] == [Outcome.BUST, Outcome.WIN]


def test_insurance_pays_2_to_1_in_scoring_too() -> None:
    r = deal(RULES, ["10♠ 9♥"], "A♦ 7♣", stakes=[20])
    r.act("alice", A.INSURANCE)
    r.act("alice", A.STAND)
    insurance = r.settlement().insurance[0]
    assert (insurance.won, insurance.payout) == (False, 0)


# Notes


def test_a_two_card_21_is_a_blackjack_paid_at_once() -> None:
    r = deal(RULES, ["A♠ K♥", "10♣ 5♦"], "10♦ 7♣")
    assert r.hands("alice")[0].is_blackjack
    assert r.hands("alice")[0].is_finished
    assert r.current_hand_index("alice") == 1
    assert "alice (hand 1) has blackjack: A♠ K♥" in [e.text for e in r.events]


def test_a_blackjack_ties_a_dealer_natural() -> None:
    r = deal(RULES, ["A♠ K♥"], "A♦ K♣")
    r.act("alice", A.NO_INSURANCE)
    assert r.settlement().hands[0].outcome is Outcome.PUSH
