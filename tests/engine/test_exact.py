"""Exact finite-shoe values against published figures (tests/data, sources named there).

- Every basic-strategy (total-dependent, fresh shoe) house edge of
  tests/data/house_edge_reference.csv within 0.005 points at 1, 2, 4, 6 and 8
  decks, S17 and H17; the infinite deck within 0.0005. Composition-dependent rows
  are a different quantity and are not tested as if they were the same.
- ``python -m bot ev`` decision values (stand, hit, double) within 0.0005 of the
  Wizard of Odds' Blackjack Appendix 9 (a combinatorial analysis with the exact hand
  composition at every step) at 1, 2, 6 and 8 decks, with and without the peek, and
  of E. Farmer's combinatorial analyser at 6 decks with the peek (S17 and H17).
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.engine import Action, Rules
from bot.engine.analysis.edge import house_edge
from bot.engine.analysis.exact_play import decision_values, decision_words
from tests.engine.edge_reference import basic_strategy_rows, rules_of

DATA = Path(__file__).parent.parent / "data"


def _edge_rows() -> list[dict[str, str]]:
    rows = basic_strategy_rows()
    assert {row["decks"] for row in rows} == {"1", "2", "4", "6", "8", "inf"}
    return rows


@pytest.mark.slow
@pytest.mark.parametrize("row", _edge_rows(), ids=lambda row: row["id"])
def test_edge_matches_the_published_basic_strategy_figure(row: dict[str, str]) -> None:
    infinite = row["decks"] == "inf"
    edge = house_edge(rules_of(row), infinite=infinite).house_edge_pct
    published = float(row["house_edge_pct"])
    assert edge == pytest.approx(published, abs=0.0005 if infinite else 0.005)


def _value_rows() -> list[dict[str, str]]:
    with (DATA / "decision_values.csv").open(newline="") as handle:
        return list(csv.DictReader(handle))


def _card(name: str) -> int:
    return 1 if name == "A" else 10 if name == "T" else int(name)


@pytest.mark.parametrize(
    "row",
    _value_rows(),
    ids=lambda row: f"{row['decks']}d-{row['soft17']}-{row['hole_card']}-{row['hand']}v{row['up']}",
)
def test_decision_values_match_the_published_ones(row: dict[str, str]) -> None:
    peek = row["hole_card"] == "peek"
    rules = Rules(
        decks=int(row["decks"]),
        penetration=0,
        dealer_hits_soft_17=row["soft17"] == "H17",
        dealer_peeks=peek,
    )
    hand = [_card(card) for card in row["hand"].split(",")]
    values = decision_values(rules, hand, _card(row["up"]))
    for action, column in ((Action.STAND, "stand"), (Action.HIT, "hit"), (Action.DOUBLE, "double")):
        assert values[action] == pytest.approx(float(row[column]), abs=0.0005), column


def test_enough_published_hands_at_one_deck_and_more() -> None:
    rows = _value_rows()
    assert sum(row["decks"] == "1" for row in rows) >= 20
    six_peek = [row for row in rows if row["decks"] == "6" and row["hole_card"] == "peek"]
    assert len(six_peek) >= 20
    assert {row["soft17"] for row in six_peek} == {"S17", "H17"}
    assert {row["decks"] for row in rows} == {"1", "2", "6", "8"}


def test_every_drawn_card_is_out_of_the_shoe() -> None:
    # One deck, 10,6 against a ten: the hit is worth more than with only the three
    # dealt cards removed, because the small cards the player draws leave the dealer.
    rules = Rules(decks=1, penetration=0)
    values = decision_values(rules, [10, 6], 10)
    assert values[Action.HIT] == pytest.approx(-0.5069, abs=0.0005)
    assert values[Action.STAND] == pytest.approx(-0.5430, abs=0.0005)


def test_ev_prints_every_legal_action_best_first(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ev", "--hand", "10,6", "--up", "T", "--surrender", "none"]) == 0
    out = capsys.readouterr().out.strip()
    assert out == "Hit \u221253.5%, Stand \u221254.1%, Double \u2212106.9%: hit"
    assert main(["ev", "--hand", "8,8", "--up", "T", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["best"] == "split"
    # The Hint's words for the same cards (tests/test_strategy_process.py): surrender −50.0%.
    assert main(["ev", "--hand", "10,6", "--up", "T"]) == 0
    assert capsys.readouterr().out.startswith("Surrender \u221250.0%, Hit \u221253.5%, ")
    assert set(data["values"]) == {"stand", "hit", "double", "split", "surrender"}


def test_ev_refuses_a_card_it_does_not_know(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ev", "--hand", "8,X", "--up", "T"]) == 2
    assert "'X' is not a card" in capsys.readouterr().err
    assert main(["ev", "--hand", "T,9,5", "--up", "T"]) == 2
    assert "totalling 21 or less" in capsys.readouterr().err


def test_ev_takes_the_single_deck_peek_under_an_ace_only(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Under a ten the single-deck dealer does not check: a blackjack still to come
    # costs the hand, so both values are lower than after a peek.
    assert main(["ev", "--hand", "10,6", "--up", "T", "--preset", "single-deck"]) == 0
    no_peek = capsys.readouterr().out.strip()
    assert no_peek == "Hit \u221254.7%, Stand \u221258.0%, Double \u2212109.4%: hit"
    flags = ["--preset", "single-deck", "--no-peek-ace-only"]
    assert main(["ev", "--hand", "10,6", "--up", "T", *flags]) == 0
    assert capsys.readouterr().out.strip().startswith("Hit \u221250.7%, Stand \u221254.3%")


def test_decision_words_rank_the_values() -> None:
    words = decision_words({Action.STAND: -0.540, Action.HIT: -0.535})
    assert words == "Hit \u221253.5%, Stand \u221254.0%: hit"
