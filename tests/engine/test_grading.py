"""A decision graded exactly: each legal choice's value for the shoe it was made from, the
best, and the cost of the choice made (0 when it was the best).

Oracles: the published decision values of tests/data/decision_values.csv (a fresh shoe:
the unseen cards are a full shoe less the up card and the hand) and ``python -m bot ev``'s
own figures; insurance from the chance of a ten among the unseen cards, worked by hand.
"""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.engine import Action, Card, Rules, preset
from bot.engine.analysis import grade_decision, lookup_for

DATA = Path(__file__).parent.parent / "data"
FIRST_CHOICES = frozenset({Action.HIT, Action.STAND, Action.DOUBLE, Action.SURRENDER})


def unseen(decks: int, *seen: int) -> list[int]:
    """A fresh shoe's cards by value (aces first) less the ``seen`` ones."""
    left = [4 * decks] * 9 + [16 * decks]
    for card in seen:
        left[card - 1] -= 1
    return left


def _published() -> list[dict[str, str]]:
    with (DATA / "decision_values.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    return [row for row in rows if row["decks"] == "1" and row["soft17"] == "S17"][:8]


def _card(name: str) -> int:
    return 1 if name == "A" else 10 if name == "T" else int(name)


@pytest.mark.parametrize("row", _published(), ids=lambda row: f"{row['hand']}v{row['up']}")
def test_a_fresh_shoe_decision_is_graded_with_the_published_values(row: dict[str, str]) -> None:
    rules = Rules(decks=1, penetration=0, dealer_hits_soft_17=False, surrender="none")
    hand, up = [_card(card) for card in row["hand"].split(",")], _card(row["up"])
    legal = {Action.HIT, Action.STAND, Action.DOUBLE}
    grade = grade_decision(rules, hand, up, unseen(1, up, *hand), legal, Action.STAND)
    published = {action: float(row[action.value]) for action in legal}
    assert grade.values == pytest.approx(published, abs=0.0000005)
    best = max(published, key=lambda action: published[action])
    assert grade.best is best
    assert grade.cost == pytest.approx(published[best] - published[Action.STAND], abs=1e-6)


def _ev(hand: str, up: str) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, "-m", "bot", "ev", "--hand", hand, "--up", up, "--json"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    values: dict[str, float] = json.loads(out)["values"]
    return values


def test_the_grades_are_the_ev_commands_figures_exactly() -> None:
    rules = preset("vegas-shoe")
    cases = [
        ("T,6", "T", [10, 6], 10, FIRST_CHOICES, Action.HIT),
        ("5,6", "6", [5, 6], 6, FIRST_CHOICES, Action.DOUBLE),
        ("8,8", "T", [8, 8], 10, FIRST_CHOICES | {Action.SPLIT}, Action.STAND),
    ]
    for text, up_text, hand, up, legal, chosen in cases:
        figures = {Action(name): value for name, value in _ev(text, up_text).items()}
        grade = grade_decision(rules, hand, up, unseen(rules.decks, up, *hand), legal, chosen)
        assert grade.values == figures  # the same computation: equal to the last bit
        best = max(figures, key=lambda action: figures[action])
        assert grade.best is best
        assert grade.cost == figures[best] - figures[chosen]


def test_the_best_choice_costs_nothing() -> None:
    rules = preset("vegas-shoe")
    grade = grade_decision(rules, [5, 6], 6, unseen(6, 6, 5, 6), FIRST_CHOICES, Action.DOUBLE)
    assert (grade.best, grade.cost) == (Action.DOUBLE, 0.0)


def test_a_composition_that_flips_the_chart_is_graded_by_the_composition() -> None:
    rules = Rules(decks=6, penetration=0.75, surrender="none")
    legal = {Action.HIT, Action.STAND, Action.DOUBLE}
    chart = lookup_for(rules).advise([Card.parse("Ts"), Card.parse("6h")], Card.parse("Kd"), legal)
    assert chart is Action.HIT  # basic strategy hits hard 16 against a ten
    fresh = grade_decision(rules, [10, 6], 10, unseen(6, 10, 10, 6), legal, Action.HIT)
    assert (fresh.best, fresh.cost) == (Action.HIT, 0.0)
    # Twenty-four small cards (2 to 6) dealt in earlier rounds: a shoe rich in tens.
    rich = unseen(6, 10, 10, 6)
    for card in (2, 3, 4, 5, 6):
        rich[card - 1] -= 5 if card != 6 else 4
    graded = grade_decision(rules, [10, 6], 10, rich, legal, Action.HIT)
    assert graded.best is Action.STAND
    assert graded.cost == graded.values[Action.STAND] - graded.values[Action.HIT] > 0


def test_insurance_is_graded_by_the_chance_of_a_ten_in_the_unseen_cards() -> None:
    rules = Rules(decks=1, penetration=0.5)
    insurance = {Action.INSURANCE, Action.NO_INSURANCE}
    # One deck less the ace up and the player's two tens: 14 tens in 49 cards.
    left = unseen(1, 1, 10, 10)
    declined = grade_decision(rules, [10, 10], 1, left, insurance, Action.NO_INSURANCE)
    assert declined.values[Action.INSURANCE] == pytest.approx((3 * 14 / 49 - 1) / 2, abs=1e-12)
    assert (declined.best, declined.cost) == (Action.NO_INSURANCE, 0.0)
    taken = grade_decision(rules, [10, 10], 1, left, insurance, Action.INSURANCE)
    assert taken.cost == pytest.approx(1 / 14, abs=1e-12)
    # Twenty small cards gone: 14 tens in 29 cards, and insurance is worth taking.
    rich = [0, 0, 0, 0, 3, 4, 4, 4, 0, 14]
    assert grade_decision(rules, [10, 10], 1, rich, insurance, Action.INSURANCE).cost == 0.0


def test_a_choice_that_was_not_legal_cannot_be_graded() -> None:
    rules = preset("vegas-shoe")
    with pytest.raises(ValueError, match="not a legal choice"):
        grade_decision(rules, [10, 6], 10, unseen(6, 10, 10, 6), {Action.HIT}, Action.SPLIT)
