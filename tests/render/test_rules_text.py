"""The /blackjack rules text, in plain words, for each preset."""

from __future__ import annotations

from bot.engine import PRESETS, preset
from cogs.table.table_info import rules_lines, rules_text


def test_a_fixed_bet_table_says_every_bet_is_that_amount() -> None:
    assert rules_lines(preset("reno-1972"))[-1].startswith("Every bet is 2 a hand;")


def test_a_table_with_a_range_of_bets_names_both_limits() -> None:
    assert rules_lines(preset("vegas-shoe"))[-1].startswith("Bets 10 to 10,000 a hand;")


def test_every_preset_opens_with_a_plain_sentence() -> None:
    for name, rules in PRESETS.items():
        heading, sentence = rules_text(name, rules, 0.5).splitlines()[:2]
        assert heading == f"**Table rules: {name}**"
        assert sentence.startswith("This table deals ")
        assert sentence.endswith(".")
        assert ".txt" not in sentence
        assert "((" not in sentence
        assert "))" not in sentence
