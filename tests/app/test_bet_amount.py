"""How players may write a bet, and every way it can be refused."""

from __future__ import annotations

import pytest

from bot.bet_amount import BetAmountError, bet_range, needs_balance, parse_bet
from bot.i18n import ENGLISH


def bet(text: str, balance: int = 10_000, spots: int = 1) -> int:
    return parse_bet(
        text, language=ENGLISH, balance=balance, min_bet=10, max_bet=5_000, spots=spots
    )


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("500", 500),
        (" 1,000 ", 1_000),
        ("1k", 1_000),
        ("2.5k", 2_500),
        ("2.5K", 2_500),
        ("10", 10),
        ("half", 5_000),
        ("max", 5_000),
    ],
)
def test_shorthand_is_read_as_chips(text: str, amount: int) -> None:
    assert bet(text) == amount


def test_max_is_limited_by_balance_and_table() -> None:
    assert bet("max", balance=1_234) == 1_234
    assert bet("max", balance=100_000) == 5_000


def test_all_is_the_whole_balance_split_over_spots() -> None:
    assert bet("all", balance=900, spots=3) == 300


def test_all_over_the_table_maximum_is_refused() -> None:
    with pytest.raises(BetAmountError, match="maximum is 5,000"):
        bet("all", balance=9_000)


def test_one_million_is_over_the_table_maximum() -> None:
    with pytest.raises(BetAmountError, match="maximum"):
        bet("1m", balance=10**7)


@pytest.mark.parametrize("text", ["-5", "-0", "0", "0k"])
def test_bet_must_be_positive(text: str) -> None:
    with pytest.raises(BetAmountError, match="positive"):
        bet(text)


@pytest.mark.parametrize("text", ["abc", "1e3", "5 chips", "k", "1.2.3", "½", "NaN", "inf"])
def test_text_that_is_not_an_amount_is_refused(text: str) -> None:
    with pytest.raises(BetAmountError, match="not an amount"):
        bet(text)


@pytest.mark.parametrize("text", ["", "   ", ",", "_"])
def test_an_empty_amount_says_what_to_type(text: str) -> None:
    with pytest.raises(BetAmountError) as refused:
        bet(text)
    assert str(refused.value) == (
        "Type an amount of chips: a number like 500, 2.5k or 1m, or half, max or all."
    )


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("**all in**", "'\\*\\*all in\\*\\*'"),
        ("@everyone", "'@\u200beveryone'"),
        ("<@800000000000000001>", "'\\<@\u200b800000000000000001\\>'"),
    ],
)
def test_text_that_is_not_an_amount_is_echoed_harmless(text: str, shown: str) -> None:
    with pytest.raises(BetAmountError) as refused:
        bet(text)
    assert str(refused.value).startswith(f"{shown} is not an amount of chips.")


def test_bet_limits_that_agree_are_one_amount_in_words() -> None:
    assert bet_range(2, 2) == "a bet of exactly 2"
    assert bet_range(10, 5_000) == "bets from 10 to 5,000"


def test_a_huge_number_is_refused_without_reading_it() -> None:
    with pytest.raises(BetAmountError, match="not an amount"):
        bet("1" + "0" * 30)


def test_ten_to_the_thirty_is_refused() -> None:
    with pytest.raises(BetAmountError, match="not an amount"):
        bet("10^30")


def test_fractional_chips_are_refused() -> None:
    with pytest.raises(BetAmountError, match="whole number"):
        bet("2.5")


def test_below_minimum_names_the_minimum() -> None:
    with pytest.raises(BetAmountError, match="minimum is 10"):
        bet("5")


def test_bet_over_balance_names_both() -> None:
    with pytest.raises(BetAmountError, match="needs 1,500 chips and you have 1,000"):
        bet("500", balance=1_000, spots=3)


def test_broke_player_asking_for_max_is_sent_to_daily() -> None:
    with pytest.raises(BetAmountError, match="/daily"):
        bet("max", balance=5)


@pytest.mark.parametrize("text", ["500", "2.5k", "1,000"])
def test_a_plain_number_is_checked_against_the_limits_without_the_balance(text: str) -> None:
    # The table's debit checks the balance: a plain number needs no balance read first.
    assert parse_bet(text, language=ENGLISH, balance=None, min_bet=10, max_bet=5_000) == bet(text)
    with pytest.raises(BetAmountError, match="The table maximum is 1,000; you bet"):
        parse_bet("1m", language=ENGLISH, balance=None, min_bet=10, max_bet=1_000)
    with pytest.raises(BetAmountError, match="The table minimum is 10; you bet 5"):
        parse_bet("5", language=ENGLISH, balance=None, min_bet=10, max_bet=1_000)


@pytest.mark.parametrize("text", ["half", "max", "all", " All-In "])
def test_half_max_and_all_need_the_balance(text: str) -> None:
    assert needs_balance(text, language=ENGLISH)
    with pytest.raises(ValueError, match="needs the balance"):
        parse_bet(text, language=ENGLISH, balance=None, min_bet=10, max_bet=5_000)
