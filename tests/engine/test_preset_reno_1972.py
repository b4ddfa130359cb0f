"""The ``reno-1972`` preset follows unix-v3-bj-reno-1972.txt (tests/data/rules/), the
Unix V3 manual page bj(6) of 3/15/72: "a serious attempt at simulating the dealer in
the game of black jack (or twenty-one) as might be found in Reno".

One test per rule sentence of that text, in its order, e.g.:

    "The bet is $2 every hand."
    "A player 'natural' (black jack) pays $3."
    "If the bet is taken, it is a side bet where the player wins $2 if the dealer has
    a natural and loses $1 if the dealer does not."
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
    StackedShoe,
    Standing,
    parse_cards,
    preset,
)

RULES = preset("reno-1972")
A = Action


def test_module_follows_the_unix_v3_bj_manual_page() -> None:
    assert "The bet is $2 every hand." in " ".join(rule_text("unix-v3-bj-reno-1972.txt").split())


def test_the_bet_is_2_every_hand() -> None:
    r = deal(RULES, ["10♠ 8♥"], "10♦ 7♣")
    assert r.hands("alice")[0].stake == 2
    for stake in (1, 3, 4):
        with pytest.raises(InvalidBets, match="2-2"):
            deal(RULES, ["10♠ 8♥"], "10♦ 7♣", stakes=[stake])


def test_a_player_natural_pays_3() -> None:
    r = deal(RULES, ["A♠ K♥"], "10♦ 7♣")
    result = r.settlement().hands[0]
    assert (result.outcome, result.net) == (Outcome.BLACKJACK, 3)


def test_a_dealer_natural_loses_2() -> None:
    r = deal(RULES, ["10♠ 9♥"], "K♦ A♣")
    assert r.is_finished
    assert r.settlement().players[0].net == -2


def test_both_naturals_push_with_no_money_exchanged() -> None:
    r = deal(RULES, ["A♠ K♥"], "K♦ A♣")
    result = r.settlement().hands[0]
    assert (result.outcome, result.net) == (Outcome.PUSH, 0)


def test_an_ace_up_allows_an_insurance_bet() -> None:
    r = deal(RULES, ["10♠ 9♥"], "A♦ 7♣")
    assert r.phase is RoundPhase.INSURANCE
    assert r.legal_actions("alice") == {A.INSURANCE, A.NO_INSURANCE}
    no_ace = deal(RULES, ["10♠ 9♥"], "9♦ 7♣")
    assert no_ace.phase is RoundPhase.PLAYING


def test_play_resumes_as_normal_if_insurance_is_not_taken() -> None:
    r = deal(RULES, ["10♠ 5♥"], "A♦ 6♣", "3♣")
    r.act("alice", A.NO_INSURANCE)
    assert r.phase is RoundPhase.PLAYING
    assert r.insurance_stake("alice") == 0
    r.act("alice", A.HIT)
    r.act("alice", A.STAND)
    assert r.settlement().players[0].net == 2


def test_insurance_wins_2_on_a_dealer_natural() -> None:
    r = deal(RULES, ["10♠ 9♥"], "A♦ K♣")
    assert r.cost("alice", A.INSURANCE) == 1
    r.act("alice", A.INSURANCE)
    settlement = r.settlement()
    assert settlement.insurance[0].payout - settlement.insurance[0].stake == 2
    assert settlement.players[0].net == 2 - 2  # the hand loses 2, insurance wins 2


def test_insurance_loses_1_if_the_dealer_has_no_natural() -> None:
    r = deal(RULES, ["10♠ 9♥"], "A♦ 7♣")
    r.act("alice", A.INSURANCE)
    r.act("alice", A.STAND)
    assert r.settlement().insurance[0].payout == 0
    assert r.settlement().players[0].net == 2 - 1  # 19 beats 18; insurance loses 1


def test_two_cards_of_the_same_value_may_be_split() -> None:
    assert A.SPLIT in deal(RULES, ["K♠ Q♥"], "10♦ 7♣").legal_actions("alice")
    assert A.SPLIT not in deal(RULES, ["K♠ 9♥"], "10♦ 7♣").legal_actions("alice")


def test_a_split_plays_two_hands_each_with_one_of_the_cards() -> None:
    r = deal(RULES, ["8♠ 8♥"], "10♦ 7♣", "8♦ 2♣")
    r.act("alice", A.SPLIT)
    hands = r.hands("alice")
    assert [str(h.cards[0]) for h in hands] == ["8♠", "8♥"]
    assert A.SPLIT not in r.legal_actions("alice")  # two hands, no more


def test_a_split_doubles_the_bet_2_on_each_hand() -> None:
    r = deal(RULES, ["8♠ 8♥"], "10♦ 7♣", "3♦ 2♣")
    assert r.cost("alice", A.SPLIT) == 2
    r.act("alice", A.SPLIT)
    assert [h.stake for h in r.hands("alice")] == [2, 2]


def test_a_dealt_ten_or_eleven_may_double_down() -> None:
    for hand in ("6♠ 4♥", "5♠ 6♥"):
        assert A.DOUBLE in deal(RULES, [hand], "10♦ 7♣").legal_actions("alice")
    for hand in ("5♠ 4♥", "6♠ 6♥", "A♠ 9♥"):
        r = deal(RULES, [hand], "10♦ 7♣")
        assert A.DOUBLE not in r.legal_actions("alice")
        with pytest.raises(ActionNotAllowed, match="10-11"):
            r.act("alice", A.DOUBLE)


def test_double_down_is_2_to_4_and_exactly_one_more_card() -> None:
    r = deal(RULES, ["6♠ 4♥"], "10♦ 7♣", "2♣")
    assert r.cost("alice", A.DOUBLE) == 2
    r.act("alice", A.DOUBLE)
    hand = r.hands("alice")[0]
    assert (hand.stake, len(hand.cards), r.is_finished) == (4, 3, True)
    assert r.settlement().players[0].net == -4


def test_the_player_may_hit_while_not_over_21() -> None:
    r = deal(RULES, ["2♠ 3♥"], "10♦ 7♣", "2♣ 2♦ 3♣ 4♦ 4♠")
    for _ in range(4):
        r.act("alice", A.HIT)
        assert A.HIT in r.legal_actions("alice")
    assert r.hands("alice")[0].total == 16


def test_split_aces_may_be_hit_too() -> None:
    r = deal(RULES, ["A♠ A♥"], "10♦ 7♣", "2♣ 3♦ 4♣")
    r.act("alice", A.SPLIT)
    r.act("alice", A.HIT)
    assert r.hands("alice")[0].total == 17


def test_a_player_bust_the_dealer_wins_the_bet() -> None:
    r = deal(RULES, ["10♠ 6♥"], "10♦ 7♣", "K♣")
    r.act("alice", A.HIT)
    assert r.settlement().hands[0].outcome is Outcome.BUST


def test_when_the_player_stands_the_dealer_hits_to_17_or_more() -> None:
    r = deal(RULES, ["10♠ 8♥"], "2♦ 3♣", "4♠ 2♥ 5♣ 2♦")
    r.act("alice", A.STAND)
    assert r.dealer.total == 18
    r = deal(RULES, ["10♠ 8♥"], "6♦ A♣")
    r.act("alice", A.STAND)
    assert (r.dealer.total, len(r.dealer.cards)) == (17, 2)  # soft 17 is seventeen


def test_if_the_dealer_busts_the_player_wins_the_bet() -> None:
    r = deal(RULES, ["10♠ 2♥"], "10♦ 6♣", "K♣")
    r.act("alice", A.STAND)
    assert r.settlement().players[0].net == 2


def test_if_both_stand_the_largest_total_wins() -> None:
    r = deal(RULES, ["10♠ 7♥"], "10♦ 8♣")
    r.act("alice", A.STAND)
    assert r.settlement().hands[0].outcome is Outcome.LOSE


def test_a_tie_is_a_push() -> None:
    r = deal(RULES, ["10♠ 8♥"], "10♦ 8♣")
    r.act("alice", A.STAND)
    assert r.settlement().hands[0].net == 0


def test_the_three_questions_are_hit_insurance_and_double_down() -> None:
    r = deal(RULES, ["6♠ 4♥"], "A♦ 7♣")
    assert r.legal_actions("alice") == {A.INSURANCE, A.NO_INSURANCE}
    r.act("alice", A.NO_INSURANCE)
    assert r.legal_actions("alice") == {A.HIT, A.STAND, A.DOUBLE}  # no surrender


def test_action_and_standing_are_kept_for_each_shuffle_announcement() -> None:
    standing = Standing()
    shoe = StackedShoe(parse_cards("10♠ 10♦ 9♥ 8♣  A♠ 10♦ K♥ 7♣  6♠ 10♦ 4♥ 7♣ 2♣"))
    first = Round.deal(RULES, shoe, [("alice", [2])])
    first.act("alice", A.STAND)  # 19 beats 18: +2
    second = Round.deal(RULES, shoe, [("alice", [2])])  # natural: +3
    third = Round.deal(RULES, shoe, [("alice", [2])])
    third.act("alice", A.DOUBLE)  # 12 loses to 17: -4
    for round_ in (first, second, third):
        standing.record(round_.settlement())
    assert (standing.action("alice"), standing.standing("alice")) == (2 + 2 + 4, 2 + 3 - 4)
    assert standing.announcement() == "alice: action 8, standing +1"
