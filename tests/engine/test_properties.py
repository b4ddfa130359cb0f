"""Acceptance 3: over random rules, seeds and legal action sequences, every round ends,
no illegal action is accepted, every payout is one its outcome allows, no chip is made
or lost, and the JSON round trip is exact (the restored round plays on identically)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from bot.engine import (
    Action,
    IllegalAction,
    Outcome,
    Round,
    RoundPhase,
    Rules,
    Shoe,
)
from bot.engine.serialise import round_to_dict

ALL_ACTIONS = sorted(Action)


@st.composite
def rules_values(draw: st.DrawFn) -> Rules:
    """Any valid Rules, built so every combination the validator allows can come up."""
    hit_stand_only = draw(st.booleans())
    naturals = draw(st.booleans())
    split_by = "none" if hit_stand_only else draw(st.sampled_from(["value", "rank", "none"]))
    max_hands = 1 if split_by == "none" else draw(st.integers(2, 8))
    double_on = (
        "none" if hit_stand_only else draw(st.sampled_from(["any", "9-11", "10-11", "none"]))
    )
    min_bet = draw(st.integers(1, 50))
    decks = draw(st.integers(1, 8))
    # A one-deck shoe cut at 0.75 leaves too few cards for a round: the validator says so.
    penetration = draw(st.sampled_from([0, 0.25, 0.5] if decks == 1 else [0, 0.25, 0.5, 0.75]))
    return Rules(
        decks=decks,
        penetration=penetration,
        dealer_hits_soft_17=draw(st.booleans()),
        naturals=naturals,
        blackjack_pays=draw(st.sampled_from(["3:2", "6:5", "1:1", "2:1"])) if naturals else "1:1",
        dealer_peeks=naturals and draw(st.booleans()),
        insurance=naturals and not hit_stand_only and draw(st.booleans()),
        double_on=double_on,
        double_after_split=split_by != "none" and double_on != "none" and draw(st.booleans()),
        split_by=split_by,
        max_hands=max_hands,
        resplit_aces=max_hands >= 3 and draw(st.booleans()),
        hit_split_aces=split_by != "none" and draw(st.booleans()),
        surrender="none" if hit_stand_only else draw(st.sampled_from(["none", "late"])),
        max_spots=draw(st.integers(1, 7)),
        max_players=draw(st.integers(1, 7)),
        hit_stand_only=hit_stand_only,
        min_bet=min_bet,
        max_bet=min_bet + draw(st.integers(0, 100)),
    )


def allowed_payouts(rules: Rules, outcome: Outcome, stake: int) -> set[int]:
    """What a hand of ``stake`` may be paid for ``outcome`` (computed independently)."""
    won, per = (int(part) for part in rules.blackjack_pays.split(":"))
    return {
        Outcome.WIN: {2 * stake},
        Outcome.LOSE: {0},
        Outcome.BUST: {0},
        Outcome.PUSH: {stake},
        Outcome.BLACKJACK: {stake + (stake * won) // per} if rules.naturals else set(),
        Outcome.SURRENDER: {stake // 2} if rules.surrender == "late" else set(),
    }[outcome]


@st.composite
def bets_for(draw: st.DrawFn, rules: Rules) -> list[tuple[str, list[int]]]:
    players = draw(st.integers(1, rules.max_players))
    stakes = st.integers(rules.min_bet, rules.max_bet)
    return [
        (f"p{n}", draw(st.lists(stakes, min_size=1, max_size=rules.max_spots)))
        for n in range(players)
    ]


def check_refused(round_: Round, player: str, action: Action) -> None:
    before = round_.to_json()
    try:
        round_.act(player, action)
    except IllegalAction:
        pass
    else:
        raise AssertionError(f"{action} was accepted though it was not legal")
    assert round_.to_json() == before


@given(data=st.data(), rules=rules_values(), seed=st.binary(min_size=32, max_size=32))
def test_random_rounds_end_legally_and_pay_what_their_outcomes_allow(
    data: st.DataObject, rules: Rules, seed: bytes
) -> None:
    shoe = Shoe(rules.decks, rules.penetration, seed)
    bets = data.draw(bets_for(rules))
    round_ = Round.deal(rules, shoe, bets)
    debited = {player: sum(stakes) for player, stakes in bets}
    steps = 0
    while not round_.is_finished:
        steps += 1
        assert steps < 400, "the round never ended"
        player = data.draw(st.sampled_from(round_.players_to_act()))
        legal = round_.legal_actions(player)
        assert legal
        for action in ALL_ACTIONS:
            if action not in legal:
                check_refused(round_, player, action)
        action = data.draw(st.sampled_from(sorted(legal)))
        debited[player] += round_.cost(player, action)
        if data.draw(st.booleans()):
            restored = Round.from_json(round_.to_json())
            assert restored == round_
            round_ = restored
            shoe = restored.shoe
        round_.act(player, action)
    assert round_.phase is RoundPhase.SETTLED
    assert Round.from_json(round_.to_json()) == round_
    # Written by orjson, the text is what the standard library writes in the same style.
    data = round_to_dict(round_)
    assert round_.to_json() == json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    settlement = round_.settlement()
    for hand in settlement.hands:
        assert hand.payout in allowed_payouts(rules, hand.outcome, hand.stake)
    for result in settlement.players:
        assert result.staked == debited[result.player_id]  # every chip debited is accounted
        hands_paid = sum(h.payout for h in settlement.hands_of(result.player_id))
        insurance_paid = sum(
            i.payout for i in settlement.insurance if i.player_id == result.player_id
        )
        assert result.returned == hands_paid + insurance_paid


def _json_roundtrip_sample() -> dict[str, Any]:
    shoe = Shoe(6, 0.75, bytes(32))
    round_ = Round.deal(Rules(), shoe, [("ann", [10, 20])])
    return {"round": round_, "text": round_.to_json()}


def test_a_restored_round_is_equal_and_plays_on_identically() -> None:
    sample = _json_roundtrip_sample()
    original: Round = sample["round"]
    restored = Round.from_json(sample["text"])
    assert restored == original
    while not original.is_finished:
        player = original.players_to_act()[0]
        action = sorted(original.legal_actions(player))[0]
        assert original.act(player, action) == restored.act(player, action)
    assert restored == original
    assert restored.settlement() == original.settlement()
