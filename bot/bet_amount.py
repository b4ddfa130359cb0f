"""Reading a bet as players type it: ``500``, ``1,000``, ``1k``, ``2.5k``, ``1m``, ``half``,
``max``, ``all``."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from bot.shown_names import shown_name

_SUFFIXES = {"": 1, "k": 1_000, "m": 1_000_000, "b": 1_000_000_000}
_NUMBER = re.compile(r"^(\d+(?:\.\d+)?)\s*([kmb]?)$")
#: Longest text we even try to read; anything longer is not a bet.
_MAX_TEXT = 24


class BetAmountError(ValueError):
    """A bet that cannot be placed; the message is written for the player."""


#: The words whose amount depends on the balance.
_BALANCE_WORDS = frozenset({"max", "all", "allin", "all-in", "half"})


def _word(text: str) -> str:
    return text.strip().lower().replace(",", "").replace("_", "")


def needs_balance(text: str) -> bool:
    """Whether ``text`` names an amount only the balance can tell (``half``, ``max``, ``all``)."""
    return _word(text) in _BALANCE_WORDS


def bet_range(low: int, high: int) -> str:
    """A table's bet limits in words: ``bets from 10 to 500``, or ``a bet of exactly 2``."""
    return f"a bet of exactly {low:,}" if low == high else f"bets from {low:,} to {high:,}"


def stake_words(stake: int, spots: int) -> str:
    """A bet as the table, the receipt and the refusals all say it: ``50``, or
    ``50 a hand on 2 hands, 100 in all`` (the amount typed is always per hand)."""
    if spots == 1:
        return f"{stake:,}"
    return f"{stake:,} a hand on {spots} hands, {stake * spots:,} in all"


def short_of_chips(needed: int, balance: int) -> str:
    """The refusal for a bet the balance cannot cover."""
    return f"That bet needs {needed:,} chips and you have {balance:,}. Try /daily."


def parse_bet(text: str, *, balance: int | None, min_bet: int, max_bet: int, spots: int = 1) -> int:
    """The stake per spot that ``text`` asks for, checked against limits and balance.

    ``half`` is half the balance, ``max`` the most the table and balance allow,
    and ``all`` the whole balance (split over ``spots``): both must still fit
    the table's limits. ``balance`` may be None for a plain number (see
    ``needs_balance``): the caller's debit then checks the balance, saving a read.
    """
    if spots < 1:
        raise BetAmountError("You need at least one hand to bet on.")
    word = _word(text)
    if balance is None:
        if word in _BALANCE_WORDS:
            raise ValueError(f"{word!r} needs the balance")
        return _check_limits(_parse_number(text, word), min_bet, max_bet, spots)
    affordable = balance // spots
    if word == "max":
        amount = min(max_bet, affordable)
    elif word in ("all", "allin", "all-in"):
        amount = affordable
    elif word == "half":
        amount = (balance // 2) // spots
    else:
        amount = _parse_number(text, word)

    if amount < min_bet and word in _BALANCE_WORDS and affordable < min_bet:
        per = " per hand" if spots > 1 else ""
        raise BetAmountError(
            f"You have {balance:,} chips: not enough for the table minimum of "
            f"{min_bet:,}{per}. Try /daily."
        )
    _check_limits(amount, min_bet, max_bet, spots)
    if amount * spots > balance:
        raise BetAmountError(short_of_chips(amount * spots, balance))
    return amount


def _check_limits(amount: int, min_bet: int, max_bet: int, spots: int) -> int:
    per = " per hand" if spots > 1 else ""
    if amount < min_bet:
        raise BetAmountError(f"The table minimum is {min_bet:,}{per}; you bet {amount:,}.")
    if amount > max_bet:
        raise BetAmountError(f"The table maximum is {max_bet:,}{per}; you bet {amount:,}.")
    return amount


def _parse_number(original: str, word: str) -> int:
    if not word:
        raise BetAmountError(
            "Type an amount of chips: a number like 500, 2.5k or 1m, or half, max or all."
        )
    # What the player typed, echoed back harmless (it is shown in Discord Markdown).
    shown = f"'{shown_name(original.strip()[:_MAX_TEXT])}'"
    if len(word) > _MAX_TEXT:
        raise BetAmountError(f"{shown}… is not an amount of chips.")
    if word.startswith("-"):
        raise BetAmountError("A bet must be a positive number of chips.")
    match = _NUMBER.match(word)
    if match is None:
        raise BetAmountError(
            f"{shown} is not an amount of chips. Use a number like 500, 2.5k or 1m, "
            "or half, max or all."
        )
    try:
        value = Decimal(match.group(1)) * _SUFFIXES[match.group(2)]
    except InvalidOperation:  # pragma: no cover - the pattern admits only plain decimals
        raise BetAmountError(f"{shown} is not an amount of chips.") from None
    if value != value.to_integral_value():
        raise BetAmountError(f"{shown} is not a whole number of chips.")
    amount = int(value)
    if amount <= 0:
        raise BetAmountError("A bet must be a positive number of chips.")
    return amount
