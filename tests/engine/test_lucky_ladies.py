"""Lucky Ladies: each hand's category, its exact odds, and its published house edges.

The published figures (tests/data/side_bets_reference.csv) are checked through
``python -m bot side-bets --json`` by tests/engine/test_side_bets.py; here the
counting formula is checked against every deal of a small shoe, and the bet against
the registry that every other part of the bot reads.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from bot.engine import SPECS, parse_cards, parse_pay_table
from bot.engine.analysis import side_bet_edge
from bot.engine.analysis.side_bets import known_edges
from bot.engine.cards import DECK, Card
from bot.engine.side_bet_lucky_ladies import LUCKY_LADIES_SPEC, lucky_ladies, lucky_ladies_odds

LUCKY_LADIES = LUCKY_LADIES_SPEC.key

QUEEN_OF_HEARTS = Card(12, 1)


@pytest.mark.parametrize(
    ("player", "dealer", "category"),
    [
        ("Q♥ Q♥", "A♠ K♣", 0),  # queens of hearts, dealer blackjack
        ("Q♥ Q♥", "J♣ A♦", 0),  # the ace in the hole
        ("Q♥ Q♥", "A♠ 9♣", 1),
        ("Q♥ Q♥", "10♠ 10♣", 1),
        ("K♠ K♠", "A♠ K♣", 2),  # matched 20 (same rank and suit)
        ("Q♦ Q♦", "A♠ K♣", 2),  # a matched pair of another queen is only matched
        ("10♣ J♣", "2♠ 3♣", 3),  # suited 20
        ("A♥ 9♥", "2♠ 3♣", 3),  # a soft 20 counts
        ("Q♥ Q♠", "A♠ K♣", 4),  # two queens, one of hearts: any 20
        ("9♦ A♣", "2♠ 3♣", 4),
        ("K♠ 9♠", "2♠ 3♣", None),  # 19
        ("A♠ A♠", "2♠ 3♣", None),  # 12, or 2
        ("A♠ K♠", "2♠ 3♣", None),  # 21 is not 20
    ],
)
def test_categories(player: str, dealer: str, category: int | None) -> None:
    first, second = parse_cards(player)
    assert lucky_ladies(first, second, parse_cards(dealer)) == category
    spec = SPECS[LUCKY_LADIES]
    assert spec.classify(first, second, parse_cards(dealer), 0) == category


@pytest.mark.parametrize("decks", [2, 3])
def test_odds_agree_with_every_deal_of_the_shoe(decks: int) -> None:
    shoe = [card for card in DECK for _ in range(decks)]
    counts: Counter[int | None] = Counter()
    deals = 0
    for i, j in itertools.permutations(range(len(shoe)), 2):
        first, second = shoe[i], shoe[j]
        if first == second == QUEEN_OF_HEARTS:
            # The top two categories depend on the dealer's two cards from the rest.
            rest = [card for k, card in enumerate(shoe) if k not in (i, j)]
            total = len(rest) * (len(rest) - 1)
            for a, b in itertools.permutations(range(len(rest)), 2):
                counts[lucky_ladies(first, second, (rest[a], rest[b]))] += Fraction(1, total)
        else:
            counts[lucky_ladies(first, second, ())] += 1
        deals += 1
    expected = tuple(Fraction(counts[k], deals) for k in range(5))
    assert lucky_ladies_odds(decks) == expected


def test_the_spec_settles_it_at_the_settlement_and_names_its_pay_tables() -> None:
    spec = SPECS[LUCKY_LADIES]
    assert (spec.shown, spec.option) == ("Lucky Ladies", "lucky_ladies")
    assert not spec.settles_at_deal
    assert not spec.dealer_plays_out
    assert spec.pay_tables[0] == "1000/125/19/9/4"
    assert parse_pay_table(LUCKY_LADIES, "1000/125/19/9/4").name == "1000/125/19/9/4"
    assert parse_pay_table(LUCKY_LADIES, "3").name == "3"
    # Every known pay table is priced at every number of decks, from the spec's hook.
    for decks in range(1, 9):
        priced = {edge.pay_table for edge in known_edges(decks, False) if edge.bet == LUCKY_LADIES}
        assert priced == set(spec.pay_tables)


def test_one_deck_has_no_pair_of_queens_of_hearts_and_no_matched_20() -> None:
    odds = lucky_ladies_odds(1)
    assert odds[:3] == (0, 0, 0)
    # Paying only for any 20 at 1 deck: 4 to 1 on 20s of every kind.
    assert side_bet_edge(parse_pay_table(LUCKY_LADIES, "4"), 1, False) == 1 - 5 * sum(odds)
