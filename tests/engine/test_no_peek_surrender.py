"""Without the peek (European no hole card) a dealer blackjack takes everything that is
not a natural: doubles, splits, and a surrendered hand too, which then gets nothing back.
The Round's settlement and the expected values of ``bot.engine.analysis.ev`` agree on it."""

from __future__ import annotations

import pytest
from engine_stacking import deal

from bot.engine import Action, Outcome, preset
from bot.engine.analysis.edge import house_edge
from bot.engine.analysis.ev import ShoeModel

NO_PEEK = preset("vegas-shoe").replace(dealer_peeks=False, insurance=False)
A = Action


def test_surrender_returns_nothing_when_a_no_peek_dealer_has_blackjack() -> None:
    r = deal(NO_PEEK, ["10♠ 6♥"], "10♦ A♣", stakes=[20])
    r.act("alice", A.SURRENDER)
    result = r.settlement().hands[0]
    assert (result.outcome, result.payout) == (Outcome.LOSE, 0)
    assert r.settlement().player("alice").net == -20
    assert result.text == "dealer blackjack: loses 20"


def test_surrender_returns_half_when_a_no_peek_dealer_has_no_blackjack() -> None:
    r = deal(NO_PEEK, ["10♠ 6♥"], "10♦ 7♣", stakes=[20])
    r.act("alice", A.SURRENDER)
    result = r.settlement().hands[0]
    assert (result.outcome, result.payout) == (Outcome.SURRENDER, 10)


def test_a_no_peek_dealer_blackjack_takes_a_double_and_a_surrender_alike() -> None:
    r = deal(NO_PEEK, ["10♠ 6♥", "5♠ 6♦"], "A♦ 10♣", "9♣", stakes=[20, 20])
    r.act("alice", A.SURRENDER)
    r.act("alice", A.DOUBLE)
    assert [h.payout for h in r.settlement().hands] == [0, 0]
    assert r.settlement().player("alice").net == -60


def test_surrender_value_without_the_peek_loses_the_whole_bet_to_a_blackjack() -> None:
    model = ShoeModel(NO_PEEK)
    sit = model.situation(10, 10, 6)
    assert sit.p_blackjack > 0
    expected = -0.5 * (1 - sit.p_blackjack) - 1.0 * sit.p_blackjack
    assert sit.play().surrender() == pytest.approx(expected)


def test_surrender_value_with_the_peek_is_half_the_bet() -> None:
    model = ShoeModel(preset("vegas-shoe"))
    assert model.situation(10, 10, 6).play().surrender() == -0.5


def test_vegas_shoe_without_the_peek_is_a_house_edge() -> None:
    edge = house_edge(preset("vegas-shoe").replace(dealer_peeks=False)).house_edge_pct
    assert 0.35 < edge < 0.55
