"""The ``classic`` preset follows terminal-table-1-to-7-hands.txt (tests/data/rules/).

One test per rule sentence of that text, in its order, e.g.:

    "This program allows a single player to play this game with one to seven hands."
    "Once a hand has more than two cards, only two options are available: hit and stand."
    "A 10-valued card and an ace resulting from a split isn't considered a blackjack."
    "If the dealer has a total of 17 including an ace valued as 11 (a "soft 17"), the
    dealer stops drawing cards."
"""

from __future__ import annotations

import pytest
from engine_stacking import deal, rule_text

from bot.engine import (
    Action,
    ActionNotAllowed,
    Hand,
    InvalidBets,
    Outcome,
    Round,
    parse_cards,
    preset,
)

RULES = preset("classic")
A = Action


def test_module_follows_the_terminal_table_text() -> None:
    assert "one to seven\n    hands" in rule_text("terminal-table-1-to-7-hands.txt")


# ABOUT


def test_goal_a_total_closer_to_21_beats_a_lower_one() -> None:
    r = deal(RULES, ["10♠ 9♥"], "10♦ 8♣")
    r.act("alice", A.STAND)
    assert r.settlement().hands[0].outcome is Outcome.WIN


def test_going_over_21_is_a_bust_and_loses() -> None:
    r = deal(RULES, ["10♠ 6♥"], "10♦ 6♣", "K♣")
    r.act("alice", A.HIT)
    result = r.settlement().hands[0]
    assert (result.outcome, result.payout) == (Outcome.BUST, 0)


def test_each_hand_starts_with_two_cards() -> None:
    r = deal(RULES, ["2♠ 3♥", "4♠ 5♥", "6♠ 7♥"], "10♦ 7♣")
    assert [len(hand.cards) for hand in r.hands("alice")] == [2, 2, 2]


def test_two_card_21_is_a_blackjack_paying_3_to_2() -> None:
    r = deal(RULES, ["A♠ K♥"], "10♦ 7♣", stakes=[10])
    result = r.settlement().hands[0]
    assert r.hands("alice")[0].is_blackjack
    assert (result.outcome, result.payout) == (Outcome.BLACKJACK, 25)


def test_blackjack_is_the_most_valuable_hand_beating_a_dealer_three_card_21() -> None:
    r = deal(RULES, ["A♠ K♥", "10♠ 9♥"], "6♦ 5♣", "10♣")
    r.act("alice", A.STAND)
    assert [h.outcome for h in r.settlement().hands] == [Outcome.BLACKJACK, Outcome.LOSE]


def test_a_single_player_may_play_one_to_seven_hands() -> None:
    for count in range(1, 8):
        hands = ["2♠ 3♥"] * count
        r = deal(RULES, hands, "10♦ 7♣")
        assert len(r.hands("alice")) == count
    with pytest.raises(InvalidBets, match="1 to 7 hands"):
        deal(RULES, ["2♠ 3♥"] * 8, "10♦ 7♣")


def test_only_a_single_player_sits_at_the_table() -> None:
    with pytest.raises(InvalidBets, match="1 to 1 players"):
        deal(RULES, ["2♠ 3♥", "4♠ 5♥"], "10♦ 7♣", players=[("alice", 1), ("bob", 1)])


def test_hands_are_played_independently() -> None:
    r = deal(RULES, ["10♠ 6♥", "10♣ 9♥"], "10♦ 7♣", "K♣")
    r.act("alice", A.HIT)  # hand 1 busts; hand 2 is untouched
    assert r.hands("alice")[0].is_bust
    assert r.legal_actions("alice") >= {A.HIT, A.STAND}
    r.act("alice", A.STAND)
    assert [h.outcome for h in r.settlement().hands] == [Outcome.BUST, Outcome.WIN]


def test_the_player_decides_for_each_hand_in_turn() -> None:
    r = deal(RULES, ["10♠ 6♥", "10♣ 5♥"], "10♦ 7♣", "2♣ 3♦")
    assert r.current_hand_index("alice") == 0
    r.act("alice", A.HIT)
    r.act("alice", A.STAND)
    assert r.current_hand_index("alice") == 1
    r.act("alice", A.HIT)
    assert r.hands("alice")[1].total == 18


def test_a_hand_that_reaches_21_takes_no_more_cards() -> None:
    r = deal(RULES, ["10♠ 6♥", "10♣ 5♥"], "10♦ 7♣", "5♣")
    r.act("alice", A.HIT)
    assert r.hands("alice")[0].is_finished
    assert r.current_hand_index("alice") == 1


def test_the_dealer_resolves_his_hand_after_every_hand_is_finished() -> None:
    r = deal(RULES, ["10♠ 6♥", "10♣ 5♥"], "10♦ 6♣", "2♣")
    r.act("alice", A.STAND)
    assert not r.is_finished
    assert len(r.dealer.cards) == 2
    r.act("alice", A.STAND)
    assert r.is_finished
    assert r.dealer.total == 18


# CARD VALUES


def test_number_cards_are_valued_at_their_number() -> None:
    for rank in range(2, 11):
        assert Hand.of([*parse_cards(f"{rank}♠")]).total == rank


def test_face_cards_are_valued_at_10() -> None:
    assert [Hand.of(parse_cards(c)).total for c in ("J♦", "Q♠", "K♥")] == [10, 10, 10]


def test_aces_are_11_unless_that_busts_then_1() -> None:
    assert Hand.of(parse_cards("A♠ 6♥")).total == 17
    assert Hand.of(parse_cards("A♠ 6♥ 9♣")).total == 16
    assert Hand.of(parse_cards("A♠ A♥")).total == 12


def test_sample_hands_have_the_values_shown() -> None:
    samples = {"5♠ 3♥": 8, "A♥ 9♠": 20, "7♣ 6♣ A♠": 14, "J♦ 3♦ 5♦": 18}
    for text, value in samples.items():
        assert Hand.of(parse_cards(text)).total == value


# PLAYER OPTIONS


def test_the_first_two_cards_offer_up_to_five_options() -> None:
    r = deal(RULES, ["8♠ 8♥"], "10♦ 7♣")
    assert r.legal_actions("alice") == {A.HIT, A.STAND, A.DOUBLE, A.SPLIT, A.SURRENDER}


def test_after_more_than_two_cards_only_hit_and_stand() -> None:
    r = deal(RULES, ["2♠ 3♥"], "10♦ 7♣", "4♣")
    r.act("alice", A.HIT)
    assert r.legal_actions("alice") == {A.HIT, A.STAND}


def test_hit_draws_a_card() -> None:
    r = deal(RULES, ["2♠ 3♥"], "10♦ 7♣", "4♣")
    events = r.act("alice", A.HIT)
    assert str(r.hands("alice")[0].cards[-1]) == "4♣"
    assert events[0].text == "alice hits: 4♣ → 9"


def test_stand_stops_drawing_cards() -> None:
    r = deal(RULES, ["10♠ 8♥"], "10♦ 7♣")
    r.act("alice", A.STAND)
    assert len(r.hands("alice")[0].cards) == 2
    assert r.is_finished


def test_double_down_doubles_the_bet_and_draws_exactly_one_card() -> None:
    r = deal(RULES, ["5♠ 6♥"], "10♦ 7♣", "2♣", stakes=[10])
    assert r.cost("alice", A.DOUBLE) == 10
    events = r.act("alice", A.DOUBLE)
    hand = r.hands("alice")[0]
    assert (hand.stake, len(hand.cards), hand.is_finished) == (20, 3, True)
    assert events[0].text == "alice doubles: 2♣ → 13"
    assert r.settlement().hands[0].payout == 0


def test_split_needs_two_initial_cards_of_the_same_value() -> None:
    assert A.SPLIT in deal(RULES, ["K♠ 10♥"], "10♦ 7♣").legal_actions("alice")
    r = deal(RULES, ["9♠ 10♥"], "10♦ 7♣")
    assert A.SPLIT not in r.legal_actions("alice")
    with pytest.raises(ActionNotAllowed, match="pair"):
        r.act("alice", A.SPLIT)


def test_split_draws_a_card_for_each_hand_making_two_starting_hands() -> None:
    r = deal(RULES, ["8♠ 8♥"], "10♦ 7♣", "3♦ K♣")
    r.act("alice", A.SPLIT)
    assert [h.describe() for h in r.hands("alice")] == ["8♠ 3♦ (11)", "8♥ K♣ (18)"]


def test_the_second_split_hand_requires_an_additional_bet() -> None:
    r = deal(RULES, ["8♠ 8♥"], "10♦ 7♣", "3♦ K♣", stakes=[30])
    assert r.cost("alice", A.SPLIT) == 30
    r.act("alice", A.SPLIT)
    assert [h.stake for h in r.hands("alice")] == [30, 30]


def test_the_two_split_hands_are_played_out_independently() -> None:
    r = deal(RULES, ["8♠ 8♥"], "10♦ 7♣", "3♦ K♣ 10♠")
    r.act("alice", A.SPLIT)
    r.act("alice", A.HIT)  # 21 on the first hand
    r.act("alice", A.STAND)
    outcomes = [h.outcome for h in r.settlement().hands]
    assert outcomes == [Outcome.WIN, Outcome.WIN]


def test_the_split_hand_is_not_resplit_beyond_two_hands() -> None:
    r = deal(RULES, ["8♠ 8♥"], "10♦ 7♣", "8♦ 8♣")
    r.act("alice", A.SPLIT)
    assert A.SPLIT not in r.legal_actions("alice")


def test_surrender_forfeits_half_the_bet_and_stops_drawing() -> None:
    r = deal(RULES, ["10♠ 6♥"], "10♦ 7♣", stakes=[10])
    r.act("alice", A.SURRENDER)
    result = r.settlement().hands[0]
    assert (result.outcome, result.payout, len(result.cards)) == (Outcome.SURRENDER, 5, 2)


# SPECIAL RULES FOR SPLITTING


def test_ten_and_ace_after_a_split_is_not_a_blackjack() -> None:
    r = deal(RULES, ["A♠ A♥"], "10♦ 7♣", "K♣ 5♦", stakes=[10])
    r.act("alice", A.SPLIT)
    first = r.settlement().hands[0]
    assert not r.hands("alice")[0].is_blackjack
    assert (first.total, first.outcome, first.payout) == (21, Outcome.WIN, 20)


def test_an_ace_drawn_to_a_split_ten_is_not_a_blackjack() -> None:
    r = deal(RULES, ["K♠ 10♥"], "10♦ 7♣", "A♣ 9♦")
    r.act("alice", A.SPLIT)
    r.act("alice", A.STAND)
    assert r.settlement().hands[0].outcome is Outcome.WIN


def test_you_cant_hit_split_aces() -> None:
    r = deal(RULES, ["A♠ A♥"], "10♦ 7♣", "5♣ 6♦")
    r.act("alice", A.SPLIT)
    assert all(hand.is_finished for hand in r.hands("alice"))
    assert [len(hand.cards) for hand in r.hands("alice")] == [2, 2]
    assert r.is_finished


def test_you_cant_surrender_after_splitting() -> None:
    r = deal(RULES, ["8♠ 8♥"], "10♦ 7♣", "3♦ 2♣")
    r.act("alice", A.SPLIT)
    assert A.SURRENDER not in r.legal_actions("alice")
    with pytest.raises(ActionNotAllowed, match="surrender after splitting"):
        r.act("alice", A.SURRENDER)


# AFTER THE PLAYERS HAVE FINISHED


def test_the_dealer_draws_until_17_or_higher() -> None:
    r = deal(RULES, ["10♠ 8♥"], "2♦ 3♣", "4♠ 2♥ 5♣ K♦")
    r.act("alice", A.STAND)
    assert r.dealer.total == 16 + 10  # 2+3+4+2+5 = 16, so one more card
    r = deal(RULES, ["10♠ 8♥"], "10♦ 6♣", "A♠ 5♣")
    r.act("alice", A.STAND)
    assert r.dealer.total == 17


def test_the_dealer_stops_on_soft_17() -> None:
    r = deal(RULES, ["10♠ 8♥"], "A♦ 6♣", "5♣")
    r.act("alice", A.STAND)
    assert (r.dealer.total, r.dealer.is_soft, len(r.dealer.cards)) == (17, True, 2)
    assert r.settlement().hands[0].outcome is Outcome.WIN


def test_if_the_dealer_busts_every_hand_not_busted_wins() -> None:
    r = deal(RULES, ["10♠ 6♥", "10♣ 5♥"], "10♦ 6♣", "K♠ 9♣")
    r.act("alice", A.HIT)  # K: busts
    r.act("alice", A.STAND)
    assert [h.outcome for h in r.settlement().hands] == [Outcome.BUST, Outcome.WIN]


def test_otherwise_a_higher_hand_wins_and_a_lower_hand_loses() -> None:
    r = deal(RULES, ["10♠ 9♥", "10♣ 7♥"], "10♦ 8♣")
    r.act("alice", A.STAND)
    r.act("alice", A.STAND)
    assert [h.outcome for h in r.settlement().hands] == [Outcome.WIN, Outcome.LOSE]


def test_a_tie_is_a_push_and_the_bet_is_returned() -> None:
    r = deal(RULES, ["10♠ 8♥"], "10♦ 8♣", stakes=[40])
    r.act("alice", A.STAND)
    result = r.settlement().hands[0]
    assert (result.outcome, result.payout) == (Outcome.PUSH, 40)


def test_a_dealer_blackjack_beats_a_player_hand_that_is_not_one() -> None:
    # "After the players have finished playing, the dealer's hand is resolved." No
    # hole-card check: the blackjack shows at the end and takes a doubled stake too.
    r = deal(RULES, ["5♠ 6♥"], "A♦ K♣", "10♣", stakes=[40])
    assert isinstance(r, Round)
    assert not r.is_finished  # the player acts first
    r.act("alice", A.DOUBLE)
    result = r.settlement().hands[0]
    assert (result.outcome, result.payout) == (Outcome.LOSE, 0)
    assert "peek" not in [e.kind for e in r.events]
