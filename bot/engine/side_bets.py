"""Side bets: 21+3, Perfect Pairs and Buster Blackjack. What each hand wins, and how much.

A side bet is decided by cards the round deals anyway, so it needs no randomness of
its own:

- **21+3** by the spot's first two cards and the dealer's up card, as a three-card
  poker hand: suited trips, straight flush, trips, straight, flush (highest first;
  a hand counts once, at its highest category; 12 straights, A-2-3 to Q-K-A; a pair
  inside a flush is a flush).
- **Perfect Pairs** by the spot's first two cards: a perfect pair (same rank and
  suit), a coloured pair (same rank and colour) or a mixed pair.
- **Buster Blackjack** by the dealer's final hand: it wins when the dealer busts,
  by the number of cards in the busted hand (3, 4, 5, 6, 7, 8 or more).

A pay table lists the "to 1" payouts of a bet's categories, highest first (Buster's
by cards, 3 first), and is named by them: ``"100/40/30/10/5"``, ``"2/2/4/12/50/250"``.
One figure alone pays every category alike (``"9"``: any 21+3 win pays 9 to 1). A win
returns the stake and the stake times the payout, rounded down to whole chips.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Final

from bot.engine.cards import Card

TWENTY_ONE_PLUS_THREE: Final = "21+3"
PERFECT_PAIRS: Final = "perfect-pairs"
BUSTER: Final = "buster"
#: Every side bet, in the order they are shown.
SIDE_BETS: Final = (TWENTY_ONE_PLUS_THREE, PERFECT_PAIRS, BUSTER)

#: Each bet's winning categories in the order of a pay table's payouts: highest first,
#: except Buster's, which go by the number of cards in the busted hand, 3 first.
SIDE_BET_CATEGORIES: Final[dict[str, tuple[str, ...]]] = {
    TWENTY_ONE_PLUS_THREE: (
        "suited trips",
        "straight flush",
        "three of a kind",
        "straight",
        "flush",
    ),
    PERFECT_PAIRS: ("perfect pair", "coloured pair", "mixed pair"),
    # Buster's pay tables are written by the number of cards, 3 first.
    BUSTER: (
        "dealer busts with 3 cards",
        "dealer busts with 4 cards",
        "dealer busts with 5 cards",
        "dealer busts with 6 cards",
        "dealer busts with 7 cards",
        "dealer busts with 8 or more cards",
    ),
}

#: The pay tables casinos use, by bet, the first the default.
KNOWN_PAY_TABLES: Final[dict[str, tuple[str, ...]]] = {
    TWENTY_ONE_PLUS_THREE: ("9", "100/40/30/10/5"),
    PERFECT_PAIRS: ("25/12/6", "30/10/5", "25/12/5", "25/15/5"),
    BUSTER: ("2/2/4/12/50/250",),
}

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


def is_red(card: Card) -> bool:
    """Hearts and diamonds."""
    return card.suit in (1, 2)


def twenty_one_plus_three(first: Card, second: Card, up: Card) -> int | None:
    """The 21+3 category (index into ``SIDE_BET_CATEGORIES``) of three cards, or None."""
    ranks = sorted((first.rank, second.rank, up.rank))
    flush = first.suit == second.suit == up.suit
    trips = ranks[0] == ranks[2]
    if trips:
        return 0 if flush else 2
    straight = (ranks[0] + 1 == ranks[1] and ranks[1] + 1 == ranks[2]) or ranks == [1, 12, 13]
    if straight:
        return 1 if flush else 3
    return 4 if flush else None


def perfect_pairs(first: Card, second: Card) -> int | None:
    """The Perfect Pairs category of two cards, or None for a loss."""
    if first.rank != second.rank:
        return None
    if first.suit == second.suit:
        return 0
    return 1 if is_red(first) == is_red(second) else 2


def buster(dealer_cards: Sequence[Card], dealer_total: int) -> int | None:
    """The Buster category of the dealer's final hand, or None when the dealer did not bust."""
    if dealer_total <= 21:
        return None
    return min(len(dealer_cards), 8) - 3
