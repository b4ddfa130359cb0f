"""Reading a bet as players type it: ``500``, ``1,000``, ``1k``, ``2.5k``, ``1m``, ``half``,
``max``, ``all``."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from bot.i18n import Text, _, number_text
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


def bet_range(low: int, high: int) -> Text:
    """A table's bet limits in words: ``bets from 10 to 500``, or ``a bet of exactly 2``."""
    if low == high:
        return _("a bet of exactly {amount}", amount=low)
    return _("bets from {low} to {high}", low=low, high=high)


def stake_words(stake: int, spots: int) -> Text:
    """A bet as the table, the receipt and the refusals all say it: ``50``, or
    ``50 a hand on 2 hands, 100 in all`` (the amount typed is always per hand)."""
    if spots == 1:
        return number_text(stake)
    return _(
        "{stake} a hand on {count} hands, {total} in all",
        stake=stake,
        count=spots,
        total=stake * spots,
    )


def short_of_chips(needed: int, balance: int) -> Text:
    """The refusal for a bet the balance cannot cover."""
    return _(
        "That bet needs {needed} chips and you have {balance}. Try /daily.",
        needed=needed,
        balance=balance,
    )


def parse_bet(text: str, *, balance: int | None, min_bet: int, max_bet: int, spots: int = 1) -> int:
    """The stake per spot that ``text`` asks for, checked against limits and balance.

    ``half`` is half the balance, ``max`` the most the table and balance allow,
    and ``all`` the whole balance (split over ``spots``): both must still fit
    the table's limits. ``balance`` may be None for a plain number (see
    ``needs_balance``): the caller's debit then checks the balance, saving a read.
    """
    if spots < 1:
        raise BetAmountError(_("You need at least one hand to bet on."))
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
        if spots > 1:
            raise BetAmountError(
                _(
                    "You have {balance} chips: not enough for the table minimum of "
                    "{minimum} per hand. Try /daily.",
                    balance=balance,
                    minimum=min_bet,
                )
            )
        raise BetAmountError(
            _(
                "You have {balance} chips: not enough for the table minimum of "
                "{minimum}. Try /daily.",
                balance=balance,
                minimum=min_bet,
            )
        )
    _check_limits(amount, min_bet, max_bet, spots)
    if amount * spots > balance:
        raise BetAmountError(short_of_chips(amount * spots, balance))
    return amount


#: A bet outside the table's limits: (below the minimum, on several hands) to the refusal.
_OUTSIDE: dict[tuple[bool, bool], Text] = {
    (True, False): _("The table minimum is {limit}; you bet {amount}."),
    (True, True): _("The table minimum is {limit} per hand; you bet {amount}."),
    (False, False): _("The table maximum is {limit}; you bet {amount}."),
    (False, True): _("The table maximum is {limit} per hand; you bet {amount}."),
}


def _check_limits(amount: int, min_bet: int, max_bet: int, spots: int) -> int:
    if amount < min_bet or amount > max_bet:
        below = amount < min_bet
        refusal = _OUTSIDE[below, spots > 1]
        raise BetAmountError(refusal.filled(limit=min_bet if below else max_bet, amount=amount))
    return amount


def _parse_number(original: str, word: str) -> int:
    if not word:
        raise BetAmountError(
            _("Type an amount of chips: a number like 500, 2.5k or 1m, or half, max or all.")
        )
    # What the player typed, echoed back harmless (it is shown in Discord Markdown).
    shown = f"'{shown_name(original.strip()[:_MAX_TEXT])}'"
    if len(word) > _MAX_TEXT:
        raise BetAmountError(_("{typed}… is not an amount of chips.", typed=shown))
    if word.startswith("-"):
        raise BetAmountError(_("A bet must be a positive number of chips."))
    match = _NUMBER.match(word)
    if match is None:
        raise BetAmountError(
            _(
                "{typed} is not an amount of chips. Use a number like 500, 2.5k or 1m, "
                "or half, max or all.",
                typed=shown,
            )
        )
    try:
        value = Decimal(match.group(1)) * _SUFFIXES[match.group(2)]
    except InvalidOperation:  # pragma: no cover - the pattern admits only plain decimals
        raise BetAmountError(_("{typed} is not an amount of chips.", typed=shown)) from None
    if value != value.to_integral_value():
        raise BetAmountError(_("{typed} is not a whole number of chips.", typed=shown))
    amount = int(value)
    if amount <= 0:
        raise BetAmountError(_("A bet must be a positive number of chips."))
    return amount
