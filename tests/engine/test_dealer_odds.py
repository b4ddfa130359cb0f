"""The dealer's draw rule and the odds of each final dealer total.

Checked against every row of tests/data/dealer_final_totals.csv (published
figures: 1-8 decks and an infinite deck, S17 and H17, before and after the peek).
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from bot.engine.analysis.dealer_odds import dealer_odds
from bot.engine.cards import Card
from bot.engine.dealer_play import dealer_must_hit
from bot.engine.rules import Rules, preset

DATA = Path(__file__).parent.parent / "data" / "dealer_final_totals.csv"
COLUMNS = ("p_17", "p_18", "p_19", "p_20", "p_21", "p_BJ", "p_bust")


def _rows() -> list[dict[str, str]]:
    with DATA.open(newline="") as handle:
        return list(csv.DictReader(handle))


def _row_id(row: dict[str, str]) -> str:
    return f"{row['decks']}D-{row['dealer_soft17']}-{row['conditioning']}-{row['upcard']}"


@pytest.mark.parametrize("row", _rows(), ids=_row_id)
def test_dealer_final_totals_match_published_row(row: dict[str, str]) -> None:
    infinite = row["decks"] == "inf"
    rules = Rules(
        decks=1 if infinite else int(row["decks"]),
        penetration=0,
        dealer_hits_soft_17=row["dealer_soft17"] == "H17",
    )
    up = {"A": 1, "T": 10}.get(row["upcard"]) or int(row["upcard"])
    odds = dealer_odds(
        up,
        rules,
        infinite=infinite,
        after_peek=row["conditioning"] == "after_peek_no_dealer_BJ",
    )
    expected = tuple(float(row[column]) for column in COLUMNS)
    assert odds.as_tuple() == pytest.approx(expected, abs=1e-6)


def test_published_table_has_every_deck_count_rule_conditioning_and_up_card() -> None:
    assert len(_rows()) == 6 * 2 * 2 * 10


def test_dealer_hits_16_and_stands_on_hard_17() -> None:
    s17 = preset("vegas-shoe")
    assert dealer_must_hit(16, False, s17)
    assert dealer_must_hit(16, True, s17)
    assert not dealer_must_hit(17, False, s17)
    assert not dealer_must_hit(17, False, s17.replace(dealer_hits_soft_17=True))


def test_dealer_stands_on_soft_17_under_s17_and_hits_it_under_h17() -> None:
    s17 = preset("vegas-shoe")
    assert not dealer_must_hit(17, True, s17)
    assert dealer_must_hit(17, True, s17.replace(dealer_hits_soft_17=True))


def test_dealer_stands_on_soft_18_even_under_h17() -> None:
    assert not dealer_must_hit(18, True, preset("single-deck"))


def test_without_naturals_an_ace_and_ten_is_just_21_for_the_dealer() -> None:
    simple = preset("simple")
    odds = dealer_odds(1, simple)
    assert odds.blackjack == 0
    with_naturals = dealer_odds(1, Rules(decks=1, penetration=0))
    assert odds.p21 == pytest.approx(with_naturals.p21 + with_naturals.blackjack)
    assert sum(odds.as_tuple()) == pytest.approx(1.0)


def test_after_the_peek_no_blackjack_is_left() -> None:
    odds = dealer_odds(Card.parse("K♠"), preset("vegas-shoe"), after_peek=True)
    assert odds.blackjack == 0
    assert sum(odds.as_tuple()) == pytest.approx(1.0)


def test_a_given_shoe_is_used_as_it_is() -> None:
    # Only tens left: a dealer showing 7 makes 17 every time.
    odds = dealer_odds(7, preset("vegas-shoe"), counts=[0] * 9 + [5])
    assert odds.p17 == 1.0


def test_an_up_card_outside_1_to_10_is_refused() -> None:
    with pytest.raises(ValueError, match="1 \\(ace\\) to 10"):
        dealer_odds(11, preset("vegas-shoe"))
