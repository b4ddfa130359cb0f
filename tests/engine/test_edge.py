"""The house edge of basic strategy, computed without simulation.

The six-deck figure is checked against tests/data/house_edge_reference.csv;
the rest are the well-known costs of rule changes. Relations between rules are
checked on an infinite deck, where the computation is exact and quick.
"""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.engine.analysis.edge import house_edge
from bot.engine.rules import PRESETS, Rules, preset

DATA = Path(__file__).parent.parent / "data" / "house_edge_reference.csv"
VEGAS = preset("vegas-shoe")


def _edge(rules: Rules) -> float:
    return house_edge(rules, infinite=True).house_edge_pct


def _cost(**changes: object) -> float:
    """What a change to the vegas-shoe rules costs the player, in points of edge."""
    return _edge(VEGAS.replace(**changes)) - _edge(VEGAS)


def _published_basic_strategy_edge() -> float:
    with DATA.open(newline="") as handle:
        for row in csv.DictReader(handle):
            if row["strategy"].startswith("basic"):
                assert (row["decks"], row["soft17"], row["das"], row["late_surrender"]) == (
                    "6",
                    "S17",
                    "yes",
                    "yes",
                )
                return float(row["house_edge_pct"])
    raise AssertionError("no basic-strategy row in the reference")


def test_vegas_shoe_fresh_shoe_edge_matches_published_figure() -> None:
    edge = house_edge(VEGAS.replace(penetration=0))
    assert edge.house_edge_pct == pytest.approx(_published_basic_strategy_edge(), abs=0.03)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_has_a_finite_edge(name: str) -> None:
    edge = house_edge(PRESETS[name]).house_edge_pct
    assert math.isfinite(edge)
    assert -1.0 < edge < 6.0


def test_edge_json_gives_the_figure_and_the_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["edge", "--preset", "vegas-shoe", "--penetration", "0", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"house_edge_pct", "rules"}
    assert out["house_edge_pct"] == pytest.approx(0.333, abs=0.03)
    assert Rules.from_dict(out["rules"]) == VEGAS.replace(penetration=0)


def test_edge_prints_a_sentence_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["edge", "--preset", "reno-1972"]) == 0
    assert "House edge of basic strategy" in capsys.readouterr().out


def test_dealer_hitting_soft_17_costs_about_two_tenths() -> None:
    assert 0.15 < _cost(dealer_hits_soft_17=True) < 0.25


def test_blackjack_paying_6_to_5_costs_about_1_4_points() -> None:
    assert 1.25 < _cost(blackjack_pays="6:5") < 1.5


def test_blackjack_paying_1_to_1_costs_about_2_3_points() -> None:
    assert 2.1 < _cost(blackjack_pays="1:1") < 2.5


def test_blackjack_paying_2_to_1_helps_the_player() -> None:
    assert -2.5 < _cost(blackjack_pays="2:1") < -2.1


def test_late_surrender_helps_the_player() -> None:
    assert 0.04 < _cost(surrender="none") < 0.12


def test_double_after_split_helps_the_player() -> None:
    assert 0.1 < _cost(double_after_split=False) < 0.2


def test_restricting_doubles_costs_more_the_tighter_it_is() -> None:
    nine_to_eleven = _cost(double_on="9-11")
    ten_eleven = _cost(double_on="10-11")
    no_doubles = _cost(double_on="none", double_after_split=False)
    assert 0 < nine_to_eleven < ten_eleven < no_doubles
    assert 1.2 < no_doubles < 2.0


def test_no_peek_costs_about_a_tenth_when_dealer_blackjack_takes_doubles_and_splits() -> None:
    assert 0.08 < _cost(dealer_peeks=False, surrender="none") - _cost(surrender="none") < 0.15


def test_resplitting_aces_and_hitting_split_aces_help_the_player() -> None:
    assert -0.12 < _cost(resplit_aces=True) < -0.03
    assert -0.25 < _cost(hit_split_aces=True) < -0.1


def test_more_split_hands_help_the_player_a_little() -> None:
    costs = [_cost(max_hands=hands) for hands in (2, 3, 4, 8)]
    assert costs == sorted(costs, reverse=True)
    assert 0.02 < costs[0] < 0.1


def test_splitting_by_rank_costs_nothing_under_basic_strategy() -> None:
    # Basic strategy never splits tens, the only pairs whose ranks can differ.
    assert _cost(split_by="rank") == pytest.approx(0.0, abs=1e-9)


def test_hit_and_stand_only_table_costs_several_points() -> None:
    rules = VEGAS.replace(
        hit_stand_only=True,
        double_on="none",
        double_after_split=False,
        split_by="none",
        max_hands=1,
        surrender="none",
        insurance=False,
    )
    assert 1.5 < _edge(rules) - _edge(VEGAS.replace(surrender="none")) < 3.0


def test_without_naturals_the_player_loses_more_than_a_1_to_1_blackjack_bonus() -> None:
    # Without naturals a dealer's ace and ten is a 21 the player's 21 ties, but the
    # player's two-card 21 also just ties the dealer's 21s instead of winning.
    base = VEGAS.replace(surrender="none")
    no_naturals = base.replace(
        naturals=False, blackjack_pays="1:1", dealer_peeks=False, insurance=False
    )
    even_money = _edge(base.replace(blackjack_pays="1:1")) - _edge(base)
    assert even_money < _edge(no_naturals) - _edge(base) < even_money + 0.3


def test_fewer_decks_help_the_player() -> None:
    edges = [
        house_edge(VEGAS.replace(decks=decks, penetration=0)).house_edge_pct
        for decks in (1, 2, 6, 8)
    ]
    assert edges == sorted(edges)
    assert 0.35 < edges[2] - edges[0] < 0.6
    # Eight decks come close to an infinite deck from below.
    assert edges[3] < _edge(VEGAS) < edges[3] + 0.15


def test_the_infinite_deck_edge_does_not_depend_on_the_deck_count() -> None:
    assert _edge(VEGAS.replace(decks=2)) == _edge(VEGAS)


def test_without_the_peek_surrender_saves_no_more_than_with_it() -> None:
    # A no-peek dealer blackjack takes a surrendered bet whole, so surrender is worth
    # about what it is with the peek (not the 0.2+ points of surrendering before it).
    with_peek = _cost(surrender="none")
    without_peek = _cost(dealer_peeks=False, surrender="none") - _cost(dealer_peeks=False)
    assert with_peek - 0.03 < without_peek < with_peek + 0.03
