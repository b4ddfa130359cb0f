"""Basic strategy computed from expected values, its chart, and ``advise``.

The charts are checked cell for cell against the published six-deck charts in
tests/data/basic_strategy_6D_S17_DAS_LS.csv and basic_strategy_6D_H17_DAS_LS.csv.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.__main__ import main
from bot.engine.actions import Action
from bot.engine.analysis.strategy import PAIR_ROWS, UP_CARDS, advise, chart_for
from bot.engine.cards import Card, parse_cards
from bot.engine.rules import Rules, preset

DATA = Path(__file__).parent.parent / "data"
VEGAS = preset("vegas-shoe")
H17 = VEGAS.replace(dealer_hits_soft_17=True)
FIRST_TWO = frozenset({Action.HIT, Action.STAND, Action.DOUBLE, Action.SURRENDER})
WITH_SPLIT = FIRST_TWO | {Action.SPLIT}
HIT_STAND = frozenset({Action.HIT, Action.STAND})
#: A split hand under double after split: no surrender.
SPLIT_HAND = frozenset({Action.HIT, Action.STAND, Action.DOUBLE})


def _strategy_csv(capsys: pytest.CaptureFixture[str], *flags: str) -> str:
    assert main(["strategy", "--preset", "vegas-shoe", *flags, "--csv"]) == 0
    return capsys.readouterr().out


def _published(name: str) -> str:
    with (DATA / name).open(newline="") as handle:
        return handle.read()


def _cells(text: str) -> list[list[str]]:
    return [line.split(",") for line in text.splitlines()]


def test_vegas_shoe_strategy_csv_matches_published_s17_chart(
    capsys: pytest.CaptureFixture[str],
) -> None:
    published = _published("basic_strategy_6D_S17_DAS_LS.csv")
    out = _strategy_csv(capsys)
    assert _cells(out) == _cells(published)
    assert out == published  # the same bytes, quoting and line ends included


def test_vegas_shoe_with_soft17_hit_matches_published_h17_chart(
    capsys: pytest.CaptureFixture[str],
) -> None:
    published = _published("basic_strategy_6D_H17_DAS_LS.csv")
    out = _strategy_csv(capsys, "--soft17", "hit")
    assert _cells(out) == _cells(published)
    assert out == published


def test_readable_chart_shows_every_row_and_a_legend(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["strategy", "--preset", "vegas-shoe"]) == 0
    out = capsys.readouterr().out
    rows = {line[:17].strip(): line[17:].split() for line in out.splitlines()}
    assert rows["hard 16"] == ["S", "S", "S", "S", "S", "H", "H", "Uh", "Uh", "Uh"]
    assert "pair A,A" in out
    assert "Dh: double, else hit" in out


def test_chart_does_not_depend_on_penetration_or_bet_limits() -> None:
    other = VEGAS.replace(penetration=0.5, min_bet=5, max_bet=500)
    assert chart_for(other).orders == chart_for(VEGAS).orders


def test_every_cell_ends_in_a_hit_or_stand() -> None:
    chart = chart_for(VEGAS)
    for order in chart.orders.values():
        assert Action.HIT in order
        assert Action.STAND in order


def test_hit_and_stand_table_chart_has_only_hit_and_stand() -> None:
    chart = chart_for(preset("simple"))
    letters = {code for _, _, codes in chart.rows() for code in codes}
    assert letters == {"H", "S"}


def test_without_surrender_no_cell_surrenders() -> None:
    chart = chart_for(VEGAS.replace(surrender="none"))
    assert not any("U" in code for _, _, codes in chart.rows() for code in codes)


def test_double_on_10_11_only_never_doubles_9_or_soft_hands() -> None:
    chart = chart_for(VEGAS.replace(double_on="10-11"))
    for section, label, codes in chart.rows():
        if section == "soft" or label == "hard 9":
            assert not any(code.startswith("D") for code in codes), label
    assert chart.code("hard", 10, 5) == "Dh"


def test_without_double_after_split_fours_are_never_split() -> None:
    chart = chart_for(VEGAS.replace(double_after_split=False))
    assert [chart.code("pair", 4, up) for up in UP_CARDS] == ["H"] * 10
    assert chart_for(VEGAS).code("pair", 4, 5) == "Ph"


def test_without_splitting_no_cell_splits() -> None:
    rules = VEGAS.replace(split_by="none", max_hands=1, double_after_split=False)
    chart = chart_for(rules)
    assert not any("P" in chart.code("pair", value, up) for value in PAIR_ROWS for up in UP_CARDS)


def test_single_deck_h17_doubles_11_against_an_ace() -> None:
    assert chart_for(preset("single-deck")).code("hard", 11, 1) == "Dh"
    assert chart_for(VEGAS).code("hard", 11, 1) == "H"


# ------------------------------------------------------------------ advise


def _advise(rules: Rules, hand: str, up: str, legal: frozenset[Action]) -> Action:
    return advise(rules, parse_cards(hand), parse_cards(up)[0], legal)


def test_advise_dh_doubles_eleven_on_two_cards() -> None:
    assert _advise(VEGAS, "5♠ 6♥", "6♣", FIRST_TWO) == Action.DOUBLE


def test_advise_dh_hits_eleven_when_double_is_not_allowed() -> None:
    assert _advise(VEGAS, "2♠ 4♥ 5♦", "6♣", HIT_STAND) == Action.HIT


def test_advise_ds_doubles_soft_18_against_4() -> None:
    assert _advise(VEGAS, "A♠ 7♥", "4♣", FIRST_TWO) == Action.DOUBLE


def test_advise_ds_stands_on_soft_18_when_double_is_not_allowed() -> None:
    assert _advise(VEGAS, "A♠ 3♥ 4♦", "4♣", HIT_STAND) == Action.STAND


def test_advise_uh_surrenders_16_against_a_ten() -> None:
    assert _advise(VEGAS, "10♠ 6♥", "K♣", FIRST_TWO) == Action.SURRENDER


def test_advise_uh_hits_16_when_surrender_is_not_allowed() -> None:
    assert _advise(VEGAS, "10♠ 6♥", "K♣", SPLIT_HAND) == Action.HIT
    assert _advise(VEGAS, "10♠ 2♥ 4♦", "K♣", HIT_STAND) == Action.HIT


def test_advise_us_surrenders_17_against_an_ace_under_h17() -> None:
    assert chart_for(H17).code("hard", 17, 1) == "Us"
    assert _advise(H17, "10♠ 7♥", "A♣", FIRST_TWO) == Action.SURRENDER


def test_advise_us_stands_on_17_when_surrender_is_not_allowed() -> None:
    assert _advise(H17, "10♠ 7♥", "A♣", SPLIT_HAND) == Action.STAND


def test_advise_ph_splits_eights_against_a_ten() -> None:
    assert _advise(VEGAS, "8♠ 8♥", "10♣", WITH_SPLIT) == Action.SPLIT


def test_advise_ph_hits_eights_when_split_is_not_allowed() -> None:
    # The hand limit is reached: a split hand may not surrender either.
    assert _advise(VEGAS, "8♠ 8♥", "10♣", SPLIT_HAND) == Action.HIT


def test_advise_ps_splits_nines_against_a_2() -> None:
    assert _advise(VEGAS, "9♠ 9♥", "2♣", WITH_SPLIT) == Action.SPLIT


def test_advise_ps_stands_on_nines_when_split_is_not_allowed() -> None:
    assert _advise(VEGAS, "9♠ 9♥", "2♣", SPLIT_HAND) == Action.STAND


def test_advise_uph_surrenders_eights_against_an_ace_under_h17() -> None:
    assert chart_for(H17).code("pair", 8, 1) == "Uph"
    assert _advise(H17, "8♠ 8♥", "A♣", WITH_SPLIT) == Action.SURRENDER


def test_advise_uph_splits_eights_when_surrender_is_not_allowed() -> None:
    legal = SPLIT_HAND | {Action.SPLIT}
    assert _advise(H17, "8♠ 8♥", "A♣", legal) == Action.SPLIT


def test_advise_uph_hits_eights_when_neither_surrender_nor_split_is_allowed() -> None:
    assert _advise(H17, "8♠ 8♥", "A♣", SPLIT_HAND) == Action.HIT


def test_advise_plain_hit_and_stand_cells() -> None:
    assert _advise(VEGAS, "10♠ 2♥", "2♣", FIRST_TWO) == Action.HIT
    assert _advise(VEGAS, "10♠ 7♥", "10♣", FIRST_TWO) == Action.STAND


def test_advise_split_aces_that_may_not_be_hit_stand() -> None:
    assert _advise(VEGAS, "A♠ A♥", "6♣", frozenset({Action.STAND})) == Action.STAND


def test_advise_never_takes_insurance() -> None:
    legal = frozenset({Action.INSURANCE, Action.NO_INSURANCE})
    assert _advise(VEGAS, "A♠ K♥", "A♣", legal) == Action.NO_INSURANCE


def test_advise_reads_a_king_and_queen_as_hard_20_when_splits_go_by_rank() -> None:
    rules = VEGAS.replace(split_by="rank")
    assert _advise(rules, "K♠ Q♥", "5♣", FIRST_TWO) == Action.STAND


@pytest.mark.parametrize(
    "rules", [VEGAS, H17, VEGAS.replace(split_by="rank")], ids=["s17", "h17", "split-by-rank"]
)
def test_advise_follows_the_chart_cell_of_every_two_card_hand(rules: Rules) -> None:
    chart = chart_for(rules)
    legal_sets = [FIRST_TWO, WITH_SPLIT, SPLIT_HAND, HIT_STAND]
    for first in range(1, 14):
        for second in range(first, 14):
            hand = [Card(first, 0), Card(second, 1)]
            values = (hand[0].value, hand[1].value)
            by_rank = rules.split_by == "rank"
            if first == second or (not by_rank and values[0] == values[1]):
                section, row = "pair", values[0]
            elif 1 in values and sum(values) <= 11:
                section, row = "soft", sum(values) + 10
            else:
                section, row = "hard", sum(values)
            for up_rank in range(1, 14):
                up = Card(up_rank, 2)
                for legal in legal_sets:
                    expected = chart.choose(section, row, up.value, legal)
                    # The Round's frozensets take a remembered path; other collections do not.
                    assert advise(rules, hand, up, legal) == expected
                    assert advise(rules, hand, up, list(legal)) == expected
