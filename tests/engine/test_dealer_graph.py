"""The dealer's odds from the graph (bot/engine/analysis/dealer_graph.py) are final_odds' odds."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bot.engine.analysis.dealer_graph import DealerGraph, stand_class, worth
from bot.engine.analysis.dealer_odds import final_odds, full_shoe
from bot.engine.rules import Rules


def _rules_and_chooser(decks: int, hits_soft_17: bool) -> tuple[Rules, random.Random]:
    rules = Rules(decks=decks, penetration=0, dealer_hits_soft_17=hits_soft_17)
    return rules, random.Random(decks * 2 + hits_soft_17)


def _graphs(rules: Rules) -> Iterator[tuple[int, list[int], DealerGraph]]:
    """(up card, shoe without it, the graph for that shoe) for every up card."""
    for up in range(1, 11):
        shoe = full_shoe(rules.decks)
        shoe[up - 1] -= 1
        yield up, shoe, DealerGraph(rules, up, shoe)


@pytest.mark.parametrize("decks", [1, 2, 6])
@pytest.mark.parametrize("hits_soft_17", [False, True])
def test_graph_odds_equal_final_odds_for_shoes_short_of_cards(
    decks: int, hits_soft_17: bool
) -> None:
    rules, chooser = _rules_and_chooser(decks, hits_soft_17)
    for up, shoe, graph in _graphs(rules):
        for _ in range(15):
            left = list(shoe)
            for _ in range(chooser.randint(0, 8)):
                value = chooser.randrange(10)
                left[value] -= 1 if left[value] else 0
            for after_peek in (False, True):
                expected = final_odds(up, left, rules, after_peek=after_peek)
                got = graph.odds(left, after_peek=after_peek)
                assert got == pytest.approx(expected, abs=1e-12)


def test_without_naturals_a_two_card_21_is_just_21() -> None:
    rules = Rules(
        decks=1,
        penetration=0,
        naturals=False,
        blackjack_pays="1:1",
        dealer_peeks=False,
        insurance=False,
    )
    shoe = full_shoe(1)
    shoe[0] -= 1
    graph = DealerGraph(rules, 1, shoe)
    odds = graph.odds(shoe, after_peek=False)
    assert odds[5] == 0.0
    assert odds == pytest.approx(final_odds(1, shoe, rules, after_peek=False), abs=1e-12)
    standing = sum(worth(stand_class(21), outcome) * p for outcome, p in enumerate(odds))
    assert graph.stand_value(shoe, 21, after_peek=False) == pytest.approx(standing, abs=1e-12)


@pytest.mark.parametrize("decks", [1, 2, 6])
@pytest.mark.parametrize("hits_soft_17", [False, True])
def test_stand_value_is_what_final_odds_make_of_standing(decks: int, hits_soft_17: bool) -> None:
    """Shoes asked for in any order (each from the state of another kept on the way)."""
    rules, chooser = _rules_and_chooser(decks, hits_soft_17)
    for up, shoe, graph in _graphs(rules):
        left = list(shoe)
        for _ in range(25):
            if chooser.random() < 0.3:
                left = list(shoe)  # start again from a full shoe
            for _ in range(chooser.randint(0, 4)):
                value = chooser.randrange(10)
                left[value] -= 1 if left[value] else 0
            for after_peek in (False, True):
                odds = final_odds(up, left, rules, after_peek=after_peek)
                for total in range(4, 22):
                    cls = stand_class(total)
                    expected = sum(worth(cls, outcome) * p for outcome, p in enumerate(odds))
                    got = graph.stand_value(left, total, after_peek=after_peek)
                    assert got == pytest.approx(expected, abs=1e-12)


def test_standing_is_worth_what_the_totals_say() -> None:
    """16 or less wins only on a bust; 17 to 21 win below, push on and lose above."""
    assert [worth(0, outcome) for outcome in range(7)] == [-1, -1, -1, -1, -1, -1, 1]
    assert [worth(stand_class(19), outcome) for outcome in range(7)] == [1, 1, 0, -1, -1, -1, 1]
    assert [worth(stand_class(21), outcome) for outcome in range(7)] == [1, 1, 1, 1, 0, -1, 1]
