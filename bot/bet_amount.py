"""Reading a bet as players type it, in their language: ``500``, ``1,000`` / ``1.000``,
``2.5k`` / ``2,5k``, ``1m``, ``2 mil``, ``half`` / ``mitad`` / ``metade``, ``max``, ``all``.

A number is read with Babel, strictly, as the language writes it (``bot.amount_words``):
``2.5k`` is no Spanish number, and is refused with what it could be (``25k`` or ``2,5k``).
A lone sign followed by exactly three digits, where that sign is the language's decimal
sign (``1.000`` in English, ``1,000`` in Spanish and French) or, in a language that groups
with a space, a point (``1.000`` in French), is as much a thousands group as a decimal: it
is refused with both readings, never guessed."""

from __future__ import annotations

import functools
import re
from decimal import Decimal

from babel.numbers import NumberFormatError, parse_decimal

from bot.amount_words import ALL, HALF, MAX, AmountWords, amount_words, folded
from bot.i18n import Text, _, babel_code, number_text
from bot.shown_names import shown_name

#: Digits with the signs any language groups or splits them with (which of them the
#: language uses is Babel's to judge), then a short form.
_NUMBER = re.compile(r"([0-9](?:[0-9.,\s]*[0-9])?)\s*([^0-9]*)")
#: Longest text we even try to read; anything longer is not a bet.
_MAX_TEXT = 24


class BetAmountError(ValueError):
    """A bet that cannot be placed; the message is written for the player."""


class AmbiguousAmount(BetAmountError):
    """A number the language reads two ways (``1.000`` in English); the message shows both."""


def _word(text: str) -> str:
    return folded(text).replace(",", "").replace("_", "")


def balance_word(text: str, *, language: str) -> str | None:
    """What ``text`` names if it is a word for an amount only the balance can tell:
    ``bot.amount_words.HALF``, ``MAX`` or ``ALL``; None for anything else."""
    return amount_words(language).words.get(_word(text))


def needs_balance(text: str, *, language: str) -> bool:
    """Whether ``text`` names an amount only the balance can tell (``half``, ``max``,
    ``all``, or a word of ``language`` for one)."""
    return balance_word(text, language=language) is not None


def bet_range(low: int, high: int) -> Text:
    """A table's bet limits in words: ``bets from 10 to 500``, or ``a bet of exactly 2``."""
    if low == high:
        return _("a bet of exactly {amount}", amount=low)
    return _("bets from {low} to {high}", low=low, high=high)


@functools.lru_cache(maxsize=1024)
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


def parse_bet(
    text: str,
    *,
    language: str,
    balance: int | None,
    min_bet: int,
    max_bet: int,
    spots: int = 1,
) -> int:
    """The stake per spot that ``text``, written in ``language``, asks for, checked against
    limits and balance.

    ``half`` is half the balance, ``max`` the most the table and balance allow,
    and ``all`` the whole balance (split over ``spots``): both must still fit
    the table's limits. ``balance`` may be None for a plain number (see
    ``needs_balance``): the caller's debit then checks the balance, saving a read.
    """
    if spots < 1:
        raise BetAmountError(_("You need at least one hand to bet on."))
    word = balance_word(text, language=language)
    if balance is None:
        if word is not None:
            raise ValueError(f"{text.strip()!r} needs the balance")
        return _check_limits(_parse_number(text, language), min_bet, max_bet, spots)
    affordable = balance // spots
    if word == MAX:
        amount = min(max_bet, affordable)
    elif word == ALL:
        amount = affordable
    elif word == HALF:
        amount = (balance // 2) // spots
    else:
        amount = _parse_number(text, language)

    if amount < min_bet and word is not None and affordable < min_bet:
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


def _help(words: AmountWords) -> dict[str, object]:
    """The examples the refusals give, in the language the bet was read in."""
    shown = words.shown_words
    return {
        "small": 500,
        "short": words.example(2.5, 1_000),
        "large": words.example(1, 1_000_000),
        "half": shown[HALF],
        "max": shown[MAX],
        "all": shown[ALL],
    }


def _parse_number(original: str, language: str) -> int:
    words = amount_words(language)
    word = _word(original)
    if not word:
        raise BetAmountError(
            _(
                "Type an amount of chips: a number like {small}, {short} or {large}, "
                "or {half}, {max} or {all}.",
                **_help(words),
            )
        )
    # What the player typed, echoed back harmless (it is shown in Discord Markdown).
    shown = f"'{shown_name(original.strip()[:_MAX_TEXT])}'"
    if len(word) > _MAX_TEXT:
        raise BetAmountError(_("{typed}… is not an amount of chips.", typed=shown))
    if word.startswith(("-", "\N{MINUS SIGN}")):
        raise BetAmountError(_("A bet must be a positive number of chips."))
    value = _read_number(original.strip().replace("_", ""), words, shown)
    if value != value.to_integral_value():
        raise BetAmountError(_("{typed} is not a whole number of chips.", typed=shown))
    amount = int(value)
    if amount <= 0:
        raise BetAmountError(_("A bet must be a positive number of chips."))
    return amount


def _read_number(text: str, words: AmountWords, shown: str) -> Decimal:
    """The number ``text`` writes in the language of ``words``, short form applied."""
    match = _NUMBER.fullmatch(text)
    multiplier = None if match is None else words.units.get(folded(match[2]), None)
    if match is None or (match[2] and multiplier is None):
        raise BetAmountError(_not_an_amount(shown, words))
    digits, unit, multiplier = match[1], match[2].strip(), multiplier or 1
    if words.group.isspace():  # French groups with a narrow space: any space will do
        digits = re.sub(r"\s", words.group, digits)
    if digits.isascii() and digits.isdigit():
        # Plain digits read the same in every language: Babel's strict parse (about half of
        # a bet's reading, bench/load.py --profile) would return this very number.
        return Decimal(digits) * multiplier
    _refuse_two_readings(digits, unit, multiplier, words, shown)
    try:
        return parse_decimal(digits, locale=babel_code(words.language), strict=True) * multiplier
    except NumberFormatError as error:
        readings = [f"{reading}{unit}" for reading in error.suggestions or []]
        raise BetAmountError(_misread(shown, readings, words)) from None


def _refuse_two_readings(
    digits: str, unit: str, multiplier: int, words: AmountWords, shown: str
) -> None:
    """Refuse a lone decimal sign followed by exactly three digits (``1.000`` in English,
    ``1,000`` in Spanish) after one to three digits: it reads as a decimal and as a group."""
    for sign in _decimal_signs(words):
        whole, found, thousandths = digits.partition(sign)
        if (
            found
            and whole.isdigit()
            and thousandths.isdigit()
            and len(thousandths) == 3
            and 1 <= len(whole) <= 3
            and not whole.startswith("0")
        ):
            break
    else:
        return
    as_decimal = Decimal(f"{whole}.{thousandths}") * multiplier
    as_group = int(whole + thousandths) * multiplier
    raise AmbiguousAmount(
        _(
            "{typed} could mean {decimal} or {group}, so nothing was bet: type {plain} "
            "for {group}.",
            typed=shown,
            decimal=words.written(as_decimal),
            group=words.written(as_group),
            plain=f"{whole}{thousandths}{unit}",
        )
    )


def _decimal_signs(words: AmountWords) -> tuple[str, ...]:
    """The signs Babel reads as a decimal in the language: its own, and a point where the
    language groups with a space (French), which players there also write as a group
    (``1.000``)."""
    if words.group.isspace() and words.decimal != ".":
        return (words.decimal, ".")
    return (words.decimal,)


def _not_an_amount(shown: str, words: AmountWords) -> Text:
    return _(
        "{typed} is not an amount of chips. Use a number like {small}, {short} or {large}, "
        "or {half}, {max} or {all}.",
        typed=shown,
        **_help(words),
    )


def _misread(shown: str, readings: list[str], words: AmountWords) -> Text:
    """The refusal of a number the language does not write so, with what it could be
    (Babel's readings) when there is something it could be."""
    if not readings:
        return _not_an_amount(shown, words)
    if len(readings) == 1:
        return _(
            "{typed} is not an amount of chips: did you mean {first}?",
            typed=shown,
            first=readings[0],
        )
    return _(
        "{typed} is not an amount of chips: did you mean {first} or {second}?",
        typed=shown,
        first=readings[0],
        second=readings[1],
    )
