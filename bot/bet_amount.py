"""Reading a bet as players type it: ``500``, ``1,000``, ``1k``, ``2.5k``, ``1m``, ``half``,
``max``, ``all``."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

_SUFFIXES = {"": 1, "k": 1_000, "m": 1_000_000, "b": 1_000_000_000}
_NUMBER = re.compile(r"^(\d+(?:\.\d+)?)\s*([kmb]?)$")
#: Longest text we even try to read; anything longer is not a bet.
_MAX_TEXT = 24


class BetAmountError(ValueError):
    """A bet that cannot be placed; the message is written for the player."""


def parse_bet(text: str, *, balance: int, min_bet: int, max_bet: int, spots: int = 1) -> int:
    """The stake per spot that ``text`` asks for, checked against limits and balance.

    ``half`` is half the balance, ``max`` the most the table and balance allow,
    and ``all`` the whole balance (split over ``spots``): both must still fit
    the table's limits.
    """
    if spots < 1:
        raise BetAmountError("You need at least one hand to bet on.")
    word = text.strip().lower().replace(",", "").replace("_", "")
    affordable = balance // spots
    if word == "max":
        amount = min(max_bet, affordable)
    elif word in ("all", "allin", "all-in"):
        amount = affordable
    elif word == "half":
        amount = (balance // 2) // spots
    else:
        amount = _parse_number(text, word)

    per = " per hand" if spots > 1 else ""
    if amount < min_bet:
        if word in ("max", "all", "allin", "all-in", "half") and affordable < min_bet:
            raise BetAmountError(
                f"You have {balance:,} chips: not enough for the table minimum of "
                f"{min_bet:,}{per}. Try /daily."
            )
        raise BetAmountError(f"The table minimum is {min_bet:,}{per}; you bet {amount:,}.")
    if amount > max_bet:
        raise BetAmountError(f"The table maximum is {max_bet:,}{per}; you bet {amount:,}.")
    if amount * spots > balance:
        raise BetAmountError(
            f"That bet needs {amount * spots:,} chips and you have {balance:,}. Try /daily."
        )
    return amount


def _parse_number(original: str, word: str) -> int:
    shown = original.strip()[:_MAX_TEXT]
    if len(word) > _MAX_TEXT:
        raise BetAmountError(f"{shown!r}… is not an amount of chips.")
    if word.startswith("-"):
        raise BetAmountError("A bet must be a positive number of chips.")
    match = _NUMBER.match(word)
    if match is None:
        raise BetAmountError(
            f"{shown!r} is not an amount of chips. Use a number like 500, 2.5k or 1m, "
            "or half, max or all."
        )
    try:
        value = Decimal(match.group(1)) * _SUFFIXES[match.group(2)]
    except InvalidOperation:  # pragma: no cover - the pattern admits only plain decimals
        raise BetAmountError(f"{shown!r} is not an amount of chips.") from None
    if value != value.to_integral_value():
        raise BetAmountError(f"{shown!r} is not a whole number of chips.")
    amount = int(value)
    if amount <= 0:
        raise BetAmountError("A bet must be a positive number of chips.")
    return amount
