"""Side bets: the registry of every bet's spec, and pay tables: what each hand wins.

A side bet is decided by cards the round deals anyway, so it needs no randomness of
its own. Each is one ``SideBetSpec`` (``bot.engine.side_bet_spec``) in ``SPECS``: its
names, categories, pay tables, when it settles, and its classification and odds hooks,
written in a module of its own (``side_bet_three_card``, ``side_bet_buster``,
``side_bet_lucky_ladies``). Adding a bet is adding its module and its line in ``SPECS``.

A pay table lists the "to 1" payouts of a bet's categories, highest first (Buster's
by cards, 3 first), and is named by them: ``"100/40/30/10/5"``, ``"2/2/4/12/50/250"``.
One figure alone pays every category alike (``"9"``: any 21+3 win pays 9 to 1). A win
returns the stake and the stake times the payout, rounded down to whole chips.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Final

from bot.engine.side_bet_buster import BUSTER_SPEC, buster
from bot.engine.side_bet_lucky_ladies import LUCKY_LADIES_SPEC
from bot.engine.side_bet_spec import SideBetSpec
from bot.engine.side_bet_three_card import (
    PERFECT_PAIRS_SPEC,
    TWENTY_ONE_PLUS_THREE_SPEC,
    is_red,
    perfect_pairs,
    twenty_one_plus_three,
)

#: Every side bet, by key, in the order they are shown.
SPECS: Final[dict[str, SideBetSpec]] = {
    spec.key: spec
    for spec in (TWENTY_ONE_PLUS_THREE_SPEC, PERFECT_PAIRS_SPEC, BUSTER_SPEC, LUCKY_LADIES_SPEC)
}

TWENTY_ONE_PLUS_THREE: Final = TWENTY_ONE_PLUS_THREE_SPEC.key
PERFECT_PAIRS: Final = PERFECT_PAIRS_SPEC.key
BUSTER: Final = BUSTER_SPEC.key
#: Every side bet's key, in the order they are shown.
SIDE_BETS: Final = tuple(SPECS)

#: Each bet's winning categories in the order of a pay table's payouts.
SIDE_BET_CATEGORIES: Final[dict[str, tuple[str, ...]]] = {
    key: spec.categories for key, spec in SPECS.items()
}

#: The pay tables casinos use, by bet, the first the default.
KNOWN_PAY_TABLES: Final[dict[str, tuple[str, ...]]] = {
    key: spec.pay_tables for key, spec in SPECS.items()
}

__all__ = [
    "BUSTER",
    "KNOWN_PAY_TABLES",
    "PERFECT_PAIRS",
    "SIDE_BETS",
    "SIDE_BET_CATEGORIES",
    "SPECS",
    "TWENTY_ONE_PLUS_THREE",
    "PayTable",
    "PayTableError",
    "SideBetSpec",
    "buster",
    "default_pay_table",
    "is_red",
    "parse_pay_table",
    "perfect_pairs",
    "twenty_one_plus_three",
]

#: The largest "to 1" payout a pay table may name.
MAX_PAYS: Final = 10_000
#: The smallest: with it, a payout's exponent is bounded by the digits typed, so the
#: exact fraction built from it stays small (``1e-999999999`` would take hours).
MIN_PAYS: Final = Decimal("0.01")


class PayTableError(ValueError):
    """A pay table that cannot be used: the message says why, for the admin who typed it."""


@dataclass(frozen=True, slots=True)
class PayTable:
    """The payouts of one side bet's categories, highest category first."""

    bet: str
    pays: tuple[Fraction, ...]

    @property
    def name(self) -> str:
        """The pay table as it is written: ``"25/12/6"``, or one figure when all pay alike."""
        if len(set(self.pays)) == 1:
            return _figure(self.pays[0])
        return "/".join(_figure(pay) for pay in self.pays)

    def winnings(self, stake: int, category: int) -> int:
        """Chips won (besides the stake back) by ``stake`` on ``category``, rounded down."""
        return math.floor(stake * self.pays[category])


def _figure(pay: Fraction) -> str:
    if pay.denominator == 1:
        return str(pay.numerator)
    return format(Decimal(pay.numerator) / Decimal(pay.denominator), "f")


def parse_pay_table(bet: str, text: str) -> PayTable:
    """A pay table from its name (``"25/12/6"``, or ``"9"`` for every category alike).

    Buster's are written by cards in the busted hand, 3 first: ``"2/2/4/12/50/250"``
    pays 2 for 3 cards and 250 for 8 or more. Raises ``PayTableError`` with a
    sentence an admin can act on.
    """
    if bet not in SIDE_BET_CATEGORIES:
        raise PayTableError(f"there is no side bet called {bet!r}")
    categories = SIDE_BET_CATEGORIES[bet]
    parts = [part.strip() for part in text.strip().split("/")]
    pays: list[Fraction] = []
    for part in parts:
        pays.append(_payout(part))
    if len(pays) == 1:
        pays *= len(categories)
    if len(pays) != len(categories):
        raise PayTableError(
            f"a pay table for {bet} has one payout, or {len(categories)} "
            f"({', '.join(categories)}), not {len(parts)}"
        )
    return PayTable(bet, tuple(pays))


def _payout(part: str) -> Fraction:
    """One "to 1" payout, range-checked as a decimal before its exact fraction is built:
    ``Fraction(Decimal("1e10000000"))`` alone holds the event loop for seconds."""
    try:
        written = Decimal(part)
    except InvalidOperation:
        raise PayTableError(f"{part!r} is not a number of chips to 1") from None
    if not written.is_finite():
        raise PayTableError(f"{part!r} is not a number of chips to 1")
    if not MIN_PAYS <= written <= MAX_PAYS:
        raise PayTableError(
            f"each payout must be more than 0 (at least {MIN_PAYS}) and at most {MAX_PAYS:,} to 1"
        )
    return Fraction(written)


def default_pay_table(bet: str) -> PayTable:
    """The first of the bet's known pay tables."""
    return parse_pay_table(bet, KNOWN_PAY_TABLES[bet][0])
