"""Side bets: each hand's category, pay tables, and the exact house edges.

The edges are pinned against published figures in tests/data/side_bets_reference.csv
(the Wizard of Odds' pages for each bet), through ``python -m bot side-bets --json``.
The counting formulas are checked against every hand of one and two decks, and
Buster's bust odds against the dealer-odds code of the main game.
"""

from __future__ import annotations

import csv
import itertools
import json
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.engine.analysis.dealer_odds import dealer_odds, full_shoe
from bot.engine.analysis.side_bets import (
    buster_odds,
    perfect_pairs_odds,
    player_favourable,
    side_bet_edge,
    twenty_one_plus_three_odds,
)
from bot.engine.cards import DECK, parse_cards
from bot.engine.rules import Rules
from bot.engine.side_bets import (
    BUSTER,
    PERFECT_PAIRS,
    TWENTY_ONE_PLUS_THREE,
    PayTableError,
    buster,
    parse_pay_table,
    perfect_pairs,
    twenty_one_plus_three,
)

DATA = Path(__file__).parent.parent / "data" / "side_bets_reference.csv"


def _three(text: str) -> int | None:
    first, second, up = parse_cards(text)
    return twenty_one_plus_three(first, second, up)


@pytest.mark.parametrize(
    ("cards", "category"),
    [
        ("7♥ 7♥ 7♥", 0),  # suited trips
        ("9♠ 10♠ J♠", 1),  # straight flush
        ("Q♦ K♦ A♦", 1),  # ace high
        ("7♥ 7♠ 7♥", 2),  # trips
        ("A♣ 2♥ 3♦", 3),  # ace low
        ("Q♣ A♥ K♦", 3),
        ("2♥ 5♥ 9♥", 4),  # flush
        ("5♥ 5♥ 9♥", 4),  # a pair inside a flush is a flush
        ("K♣ A♥ 2♦", None),  # no wrap-around straight
        ("5♥ 5♠ 9♥", None),  # a pair alone loses
        ("2♥ 5♠ 9♥", None),
    ],
)
def test_twenty_one_plus_three_categories(cards: str, category: int | None) -> None:
    assert _three(cards) == category


@pytest.mark.parametrize(
    ("cards", "category"),
    [("8♦ 8♦", 0), ("8♦ 8♥", 1), ("8♠ 8♣", 1), ("8♦ 8♣", 2), ("8♦ 9♦", None)],
)
def test_perfect_pairs_categories(cards: str, category: int | None) -> None:
    first, second = parse_cards(cards)
    assert perfect_pairs(first, second) == category


def test_buster_goes_by_the_cards_in_the_busted_hand() -> None:
    assert buster(parse_cards("10♠ 6♥ 9♣"), 25) == 0
    assert buster(parse_cards("2♠ 2♥ 2♣ 2♦ 3♠ A♠ 4♠ 10♥"), 26) == 5
    assert buster(parse_cards("2♠ 2♥ 2♣ 2♦ 3♠ A♠ 4♠ 2♥ 10♥"), 28) == 5
    assert buster(parse_cards("10♠ 7♥"), 17) is None
    assert buster(parse_cards("A♠ 10♥"), 21) is None


def test_pay_tables_are_named_by_their_payouts() -> None:
    nine = parse_pay_table(TWENTY_ONE_PLUS_THREE, "9")
    assert nine.pays == (Fraction(9),) * 5
    assert nine.name == "9"
    assert parse_pay_table(PERFECT_PAIRS, " 25 / 12 / 6 ").name == "25/12/6"
    halves = parse_pay_table(PERFECT_PAIRS, "2.5")
    assert halves.name == "2.5"
    assert halves.winnings(11, 0) == 27  # 27.5 rounded down
    assert parse_pay_table(BUSTER, "2/2/4/12/50/250").winnings(10, 5) == 2500


@pytest.mark.parametrize(
    ("bet", "text", "words"),
    [
        (PERFECT_PAIRS, "25/12", "one payout, or 3"),
        (TWENTY_ONE_PLUS_THREE, "nine", "not a number"),
        (BUSTER, "0", "more than 0"),
        (BUSTER, "-2", "more than 0"),
        ("roulette", "9", "no side bet"),
        # Each would take seconds to hours as an exact fraction: refused as decimals.
        (TWENTY_ONE_PLUS_THREE, "1e999999999", "at most 10,000"),
        (TWENTY_ONE_PLUS_THREE, "1e-999999999", "at least 0.01"),
        (PERFECT_PAIRS, "25/12/-1e999999999", "more than 0"),
        (TWENTY_ONE_PLUS_THREE, "inf", "not a number"),
        (TWENTY_ONE_PLUS_THREE, "Infinity", "not a number"),
        (TWENTY_ONE_PLUS_THREE, "-inf", "not a number"),
        (TWENTY_ONE_PLUS_THREE, "nan", "not a number"),
        (TWENTY_ONE_PLUS_THREE, "sNaN", "not a number"),
    ],
)
def test_a_pay_table_that_cannot_be_played_is_refused(bet: str, text: str, words: str) -> None:
    with pytest.raises(PayTableError, match=words):
        parse_pay_table(bet, text)


@pytest.mark.parametrize("decks", [1, 2])
def test_three_card_counts_agree_with_every_hand_of_the_shoe(decks: int) -> None:
    shoe = DECK * decks
    counts: Counter[int | None] = Counter(
        twenty_one_plus_three(a, b, c) for a, b, c in itertools.combinations(shoe, 3)
    )
    total = sum(counts.values())
    assert twenty_one_plus_three_odds(decks) == tuple(Fraction(counts[k], total) for k in range(5))


@pytest.mark.parametrize("decks", [1, 3, 8])
def test_pair_counts_agree_with_every_pair_of_the_shoe(decks: int) -> None:
    shoe = DECK * decks
    counts: Counter[int | None] = Counter(
        perfect_pairs(a, b) for a, b in itertools.combinations(shoe, 2)
    )
    total = sum(counts.values())
    assert perfect_pairs_odds(decks) == tuple(Fraction(counts[k], total) for k in range(3))


@pytest.mark.parametrize(("decks", "hits"), [(1, True), (2, False), (6, True), (8, False)])
def test_buster_odds_add_up_to_the_dealers_bust_odds(decks: int, hits: bool) -> None:
    rules = Rules(decks=decks, penetration=0, dealer_hits_soft_17=hits)
    shoe = full_shoe(decks)
    bust = 0.0
    for value in range(1, 11):
        counts = list(shoe)
        counts[value - 1] -= 1
        bust += shoe[value - 1] / sum(shoe) * dealer_odds(value, rules, counts=counts).bust
    assert float(sum(buster_odds(decks, hits))) == pytest.approx(bust, abs=1e-12)


def _reference() -> list[dict[str, str]]:
    with DATA.open(newline="") as handle:
        return list(csv.DictReader(handle))


def test_the_reference_file_holds_the_issues_figures_and_six_more() -> None:
    rows = _reference()
    assert len(rows) >= 9
    assert all(row["source"].startswith("http") for row in rows)
    named = {(row["bet"], row["pay_table"], row["decks"], row["soft17"]) for row in rows}
    assert ("21+3", "9", "6", "any") in named
    assert ("perfect-pairs", "25/12/6", "8", "any") in named
    assert ("buster", "2/2/4/12/50/250", "6", "hit") in named
    for decks in ("1", "6", "8"):
        assert ("lucky-ladies", "1000/125/19/9/4", decks, "any") in named
    for decks in ("2", "4", "6"):
        assert ("lucky-ladies", "1000/200/25/10/4", decks, "any") in named


@pytest.mark.parametrize(
    "row", _reference(), ids=lambda row: f"{row['bet']}-{row['pay_table']}-{row['decks']}"
)
def test_cli_figures_match_the_published_ones(
    row: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    soft17 = "stand" if row["soft17"] == "any" else row["soft17"]
    assert main(["side-bets", "--decks", row["decks"], "--soft17", soft17, "--json"]) == 0
    figures = {
        (entry["bet"], entry["pay_table"]): entry["house_edge_pct"]
        for entry in json.loads(capsys.readouterr().out)
    }
    published = row["house_edge_pct"]
    places = len(published.split(".")[1])
    assert f"{figures[(row['bet'], row['pay_table'])]:.{places}f}" == published


def test_cli_prints_every_known_pay_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["side-bets", "--preset", "single-deck"]) == 0
    out = capsys.readouterr().out
    assert "1 deck, the dealer hits soft 17" in out
    for name in ("9", "100/40/30/10/5", "25/12/6", "30/10/5", "25/12/5", "25/15/5"):
        assert f" {name} " in out
    assert "2/2/4/12/50/250" in out


def test_a_player_favourable_pay_table_is_refused_with_the_figure() -> None:
    rules = Rules(decks=6)
    generous = parse_pay_table(PERFECT_PAIRS, "25/15/12")
    assert side_bet_edge(generous, 6, False) < 0
    reason = player_favourable(generous, rules)
    assert reason is not None
    assert "gives the player an edge of" in reason
    assert f"{float(-side_bet_edge(generous, 6, False) * 100):.2f}%" in reason
    assert player_favourable(parse_pay_table(PERFECT_PAIRS, "25/12/6"), rules) is None


def test_whether_a_pay_table_favours_the_player_depends_on_the_decks() -> None:
    # Perfect Pairs pays more often with more decks: 25/15/7 is the house's at 4 decks
    # and the player's at 8.
    table = parse_pay_table(PERFECT_PAIRS, "25/15/7")
    assert player_favourable(table, Rules(decks=4)) is None
    assert player_favourable(table, Rules(decks=8)) is not None
