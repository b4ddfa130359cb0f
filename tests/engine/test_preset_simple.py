"""The ``simple`` preset follows simple-group-hit-stand.txt (tests/data/rules/).

One test per rule sentence of that text, in its order, e.g.:

    "A game of blackjack may involve any number of players (but for our purposes,
    three or fewer)"
    "Then he hits until his score is 17 or higher."
    "If her score exceeds 21, she has "busted" and immediately loses this round"
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
    RoundPhase,
    Shoe,
    parse_cards,
    preset,
)

RULES = preset("simple")
A = Action
THREE = [("ann", 1), ("bea", 1), ("cy", 1)]


def test_module_follows_the_simple_group_text() -> None:
    assert "three or fewer" in rule_text("simple-group-hit-stand.txt")


def test_a_deck_is_52_cards_of_4_suits_and_13_faces() -> None:
    shoe = Shoe(RULES.decks, RULES.penetration, bytes(32))
    dealt = [shoe.draw() for _ in range(52)]
    assert len(set(dealt)) == 52
    assert {card.suit for card in dealt} == {0, 1, 2, 3}
    assert {card.rank for card in dealt} == set(range(1, 14))


def test_the_suits_are_spades_hearts_diamonds_and_clubs() -> None:
    assert [str(card) for card in parse_cards("A♠ A♥ A♦ A♣")] == ["A♠", "A♥", "A♦", "A♣"]


def test_the_back_of_a_face_down_card_tells_nothing() -> None:
    one = deal(RULES, ["10♠ 6♥"], "10♦ 7♣")
    other = deal(RULES, ["10♠ 6♥"], "10♦ A♣")
    assert one.dealer_cards_shown == other.dealer_cards_shown


def test_the_goal_is_a_score_as_high_as_possible_without_going_over_21() -> None:
    r = deal(RULES, ["10♠ 9♥", "10♣ 6♥"], "10♦ 8♣", "6♠", players=THREE[:2])
    r.act("ann", A.STAND)
    r.act("bea", A.HIT)  # 22: over 21
    assert [h.outcome for h in r.settlement().hands] == [Outcome.WIN, Outcome.BUST]


def test_numbered_cards_are_worth_their_number_faces_ten() -> None:
    assert Hand.of(parse_cards("7♠ 3♥")).total == 10
    assert Hand.of(parse_cards("J♠ Q♥")).total == 20
    assert Hand.of(parse_cards("K♠ 2♥")).total == 12


def test_an_ace_is_1_or_11_whichever_is_closer_to_21_without_going_over() -> None:
    assert Hand.of(parse_cards("A♠ 8♥")).total == 19
    assert Hand.of(parse_cards("A♠ 8♥ 5♣")).total == 14


def test_the_score_is_the_sum_of_the_cards() -> None:
    assert Hand.of(parse_cards("2♠ 3♥ 4♣ 5♦")).total == 14


def test_three_or_fewer_players_against_one_dealer() -> None:
    r = deal(RULES, ["10♠ 6♥", "9♣ 7♥", "8♦ 8♣"], "10♦ 7♣", players=THREE)
    assert r.players == ("ann", "bea", "cy")
    with pytest.raises(InvalidBets, match="1 to 3 players"):
        deal(RULES, ["10♠ 6♥"] * 4, "10♦ 7♣", players=[*THREE, ("dee", 1)])


def test_players_compete_against_the_dealer_not_each_other() -> None:
    r = deal(RULES, ["10♠ 9♥", "10♣ 8♥"], "10♦ 7♣", players=THREE[:2])
    r.act("ann", A.STAND)
    r.act("bea", A.STAND)
    assert [h.outcome for h in r.settlement().hands] == [Outcome.WIN, Outcome.WIN]


def test_each_player_is_dealt_two_cards_face_up() -> None:
    r = deal(RULES, ["10♠ 6♥", "9♣ 7♥", "8♦ 8♣"], "10♦ 7♣", players=THREE)
    assert [len(r.hands(p)[0].cards) for p in r.players] == [2, 2, 2]


def test_the_dealer_has_one_card_face_down_and_one_face_up() -> None:
    r = deal(RULES, ["10♠ 6♥"], "10♦ 7♣")
    assert len(r.dealer.cards) == 2
    assert [str(c) for c in r.dealer_cards_shown] == ["10♦"]


def test_each_player_is_asked_hit_or_stand() -> None:
    r = deal(RULES, ["10♠ 6♥", "9♣ 2♥"], "10♦ 7♣", players=THREE[:2])
    assert r.players_to_act() == ["ann", "bea"]
    assert r.legal_actions("ann") == {A.HIT, A.STAND}


def test_a_player_who_stands_receives_no_more_cards() -> None:
    r = deal(RULES, ["10♠ 6♥", "9♣ 2♥"], "10♦ 7♣", players=THREE[:2])
    r.act("ann", A.STAND)
    assert r.legal_actions("ann") == frozenset()
    assert r.players_to_act() == ["bea"]


def test_a_player_who_hits_gets_a_card_and_is_asked_again() -> None:
    r = deal(RULES, ["10♠ 2♥"], "10♦ 7♣", "3♣")
    r.act("alice", A.HIT)
    assert r.hands("alice")[0].total == 15
    assert r.legal_actions("alice") == {A.HIT, A.STAND}


def test_a_bust_loses_at_once_even_if_the_dealer_busts_later() -> None:
    r = deal(RULES, ["10♠ 6♥", "10♣ 6♣"], "10♦ 6♦", "K♠ K♥", players=THREE[:2])
    r.act("ann", A.HIT)
    assert r.hands("ann")[0].is_finished
    assert r.players_to_act() == ["bea"]
    r.act("bea", A.STAND)
    assert r.dealer.total == 26
    outcomes = [(h.outcome, h.payout) for h in r.settlement().hands]
    assert outcomes == [(Outcome.BUST, 0), (Outcome.WIN, 20)]


def test_a_player_can_hit_until_she_stands_or_busts() -> None:
    r = deal(RULES, ["2♠ 2♥"], "10♦ 7♣", "2♣ 2♦ 3♠ 3♥ 4♣ 5♦")
    for _ in range(6):
        r.act("alice", A.HIT)
    assert r.hands("alice")[0].is_bust


def test_the_hit_or_stand_process_repeats_for_each_player() -> None:
    r = deal(RULES, ["10♠ 2♥", "10♣ 3♥"], "10♦ 7♣", "5♣ 4♦", players=THREE[:2])
    r.act("bea", A.HIT)
    r.act("ann", A.HIT)
    assert [r.hands(p)[0].total for p in ("ann", "bea")] == [16, 18]


def test_no_double_split_or_surrender_at_this_table() -> None:
    r = deal(RULES, ["8♠ 8♥"], "10♦ 7♣")
    assert r.legal_actions("alice") == {A.HIT, A.STAND}
    for action in (A.DOUBLE, A.SPLIT, A.SURRENDER):
        with pytest.raises(ActionNotAllowed, match="only hit and stand"):
            r.act("alice", action)


def test_the_dealer_plays_only_once_all_players_are_done() -> None:
    r = deal(RULES, ["10♠ 8♥", "10♣ 9♥"], "10♦ 6♣", "2♣", players=THREE[:2])
    r.act("ann", A.STAND)
    assert len(r.dealer.cards) == 2
    assert r.phase is RoundPhase.PLAYING
    r.act("bea", A.STAND)
    assert r.dealer.total == 18


def test_the_dealer_turns_his_face_down_card_over() -> None:
    r = deal(RULES, ["10♠ 8♥"], "10♦ 7♣")
    events = r.act("alice", A.STAND)
    assert events[1].text == "dealer turns over 7♣: 17"
    assert [str(c) for c in r.dealer_cards_shown] == ["10♦", "7♣"]


def test_the_dealer_hits_until_17_or_higher() -> None:
    r = deal(RULES, ["10♠ 8♥"], "2♦ 3♣", "4♠ 2♥ 5♣ 2♦")
    r.act("alice", A.STAND)
    assert r.dealer.total == 18


def test_the_dealer_must_hit_below_17_and_must_stand_on_any_17() -> None:
    r = deal(RULES, ["10♠ 8♥"], "10♦ 6♣", "A♠")
    r.act("alice", A.STAND)
    assert r.dealer.total == 17
    r = deal(RULES, ["10♠ 8♥"], "A♦ 6♣", "5♣")
    r.act("alice", A.STAND)
    assert (r.dealer.total, r.dealer.is_soft) == (17, True)


def test_if_the_dealer_busts_players_who_did_not_bust_win() -> None:
    r = deal(RULES, ["10♠ 8♥"], "10♦ 6♣", "K♠")
    r.act("alice", A.STAND)
    assert r.settlement().hands[0].outcome is Outcome.WIN


def test_higher_score_wins_lower_loses_same_pushes() -> None:
    r = deal(RULES, ["10♠ 9♥", "10♣ 8♥", "10♥ 6♥"], "10♦ 8♣", players=THREE)
    for player in ("ann", "bea", "cy"):
        r.act(player, A.STAND)
    outcomes = [h.outcome for h in r.settlement().hands]
    assert outcomes == [Outcome.WIN, Outcome.PUSH, Outcome.LOSE]


def test_every_win_pays_1_to_1_and_a_two_card_21_is_just_21() -> None:
    r = deal(RULES, ["A♠ K♥", "10♣ 5♥"], "10♦ 8♣", "6♣", players=THREE[:2])
    assert not r.hands("ann")[0].is_blackjack
    assert r.hands("ann")[0].is_finished
    r.act("bea", A.HIT)
    results = [(h.outcome, h.payout) for h in r.settlement().hands]
    assert results == [(Outcome.WIN, 20), (Outcome.WIN, 20)]


def test_a_two_card_21_ties_any_other_21() -> None:
    r = deal(RULES, ["A♠ K♥"], "10♦ 6♣", "5♦")
    assert r.dealer.total == 21
    assert r.settlement().hands[0].outcome is Outcome.PUSH
    r = deal(RULES, ["10♠ 5♥"], "A♦ K♣", "6♦")
    assert r.phase is RoundPhase.PLAYING  # no peek: the dealer has no blackjack to find
    r.act("alice", A.HIT)
    assert r.settlement().hands[0].outcome is Outcome.PUSH


def test_the_group_may_play_again_from_the_same_table() -> None:
    shoe = Shoe(RULES.decks, RULES.penetration, bytes(range(32)))
    first = Round.deal(RULES, shoe, [("ann", [10])])
    first.stand_all("ann")
    assert first.is_finished
    assert shoe.cut_card_reached
    shoe = Shoe(RULES.decks, RULES.penetration, bytes(range(1, 33)))
    second = Round.deal(RULES, shoe, [("ann", [10]), ("bea", [10])])
    assert second.players == ("ann", "bea")
