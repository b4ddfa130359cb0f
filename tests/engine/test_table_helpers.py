"""What a table service leans on: timeouts, who is to act, costs, events, restoring."""

from __future__ import annotations

from engine_stacking import deal

from bot.engine import Action, Outcome, Round, RoundPhase, preset

VEGAS = preset("vegas-shoe")
A = Action
TWO = [("ann", 1), ("bea", 1)]


def test_a_timed_out_player_stands_every_hand() -> None:
    r = deal(VEGAS, ["10♠ 6♥", "10♣ 5♥", "9♠ 9♥"], "9♦ 8♣", players=[("ann", 2), ("bea", 1)])
    events = r.stand_all("ann")
    assert [e.text for e in events] == [
        "ann (hand 1) stands on 16 (timed out)",
        "ann (hand 2) stands on 15 (timed out)",
    ]
    assert r.players_to_act() == ["bea"]


def test_a_player_timed_out_during_insurance_stands_once_play_starts() -> None:
    r = deal(VEGAS, ["10♠ 6♥", "10♣ 5♥"], "A♦ 7♣", players=TWO)
    r.stand_all("ann")
    assert r.phase is RoundPhase.INSURANCE
    assert r.players_to_act() == ["bea"]
    r.act("bea", A.NO_INSURANCE)
    assert r.hands("ann")[0].is_finished
    assert r.players_to_act() == ["bea"]


def test_the_last_timeout_brings_the_dealer_in() -> None:
    r = deal(VEGAS, ["10♠ 8♥", "10♣ 9♥"], "A♦ 7♣", players=TWO)
    r.stand_all("ann")
    r.stand_all("bea")
    assert r.is_finished
    assert [h.outcome for h in r.settlement().hands] == [Outcome.PUSH, Outcome.WIN]


def test_players_act_at_the_same_time_each_on_their_first_unfinished_hand() -> None:
    r = deal(VEGAS, ["10♠ 2♥", "10♣ 3♥", "9♠ 2♥"], "9♦ 8♣", "5♣ 6♦",
             players=[("ann", 2), ("bea", 1)])  # fmt: skip
    r.act("bea", A.HIT)  # bea need not wait for ann
    r.act("ann", A.HIT)
    assert r.hands("bea")[0].total == 16
    assert r.hands("ann")[0].total == 18
    assert r.current_hand_index("ann") == 0


def test_costs_are_known_before_acting() -> None:
    r = deal(VEGAS, ["8♠ 8♥", "5♣ 5♥"], "A♦ 7♣", stakes=[25, 40])
    assert r.cost("alice", A.INSURANCE) == 12 + 20
    r.act("alice", A.INSURANCE)
    assert r.cost("alice", A.SPLIT) == 25
    assert r.cost("alice", A.HIT) == 0


def test_even_money_is_insurance_on_a_blackjack() -> None:
    r = deal(VEGAS, ["A♠ K♥"], "A♦ K♣", stakes=[10])
    events = r.act("alice", A.INSURANCE)
    assert events[0].text == "alice takes even money for 5"
    settlement = r.settlement()
    assert settlement.hands[0].outcome is Outcome.PUSH
    assert settlement.players[0].net == 10  # paid 1:1 on the blackjack, as even money is


def test_events_tell_the_round_in_words() -> None:
    r = deal(VEGAS, ["5♠ 6♥"], "10♦ 7♣", "9♣")
    r.act("alice", A.DOUBLE)
    assert [e.text for e in r.events] == [
        "alice is dealt 5♠ 6♥ (11), stake 10",
        "dealer shows 10♦",
        "dealer checks the hole card: no blackjack",
        "alice doubles: 9♣ → 20",
        "dealer turns over 7♣: 17",
        "dealer stands on 17",
        "alice: 20 beats 17: wins 20, 40 back",
    ]


def test_a_round_restored_from_json_carries_on() -> None:
    r = deal(VEGAS, ["8♠ 8♥"], "10♦ 7♣", "3♦ 2♣ 9♠ K♥")
    r.act("alice", A.SPLIT)
    copy = Round.from_json(r.to_json())
    assert copy == r
    for round_ in (r, copy):
        round_.act("alice", A.DOUBLE)
        round_.act("alice", A.HIT)
        round_.act("alice", A.STAND)
    assert copy == r
    assert copy.settlement() == r.settlement()


def test_has_player_answers_as_players_does() -> None:
    r = deal(VEGAS, ["10♠ 6♥", "10♣ 5♥"], "9♦ 8♣", players=TWO)
    assert r.players == ("ann", "bea")
    assert r.has_player("ann")
    assert r.has_player("bea")
    assert not r.has_player("cat")
    assert not r.has_player("")
