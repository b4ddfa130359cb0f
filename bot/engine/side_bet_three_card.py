"""21+3 and Perfect Pairs: side bets the deal decides, by combinations of the shoe's cards.

- **21+3** by the spot's first two cards and the dealer's up card, as a three-card
  poker hand: suited trips, straight flush, trips, straight, flush (highest first;
  a hand counts once, at its highest category; 12 straights, A-2-3 to Q-K-A; a pair
  inside a flush is a flush).
- **Perfect Pairs** by the spot's first two cards: a perfect pair (same rank and
  suit), a coloured pair (same rank and colour) or a mixed pair.

Their odds count combinations of three and two cards off a fresh shoe.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from math import comb

from bot.engine.cards import Card
from bot.engine.side_bet_spec import N_, SideBetSpec


def is_red(card: Card) -> bool:
    """Hearts and diamonds."""
    return card.suit in (1, 2)


def twenty_one_plus_three(first: Card, second: Card, up: Card) -> int | None:
    """The 21+3 category (index into its categories) of three cards, or None."""
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


@cache
def twenty_one_plus_three_odds(
    decks: int, dealer_hits_soft_17: bool = False
) -> tuple[Fraction, ...]:
    """Probability of each 21+3 category for three cards (the soft-17 rule plays no part)."""
    n = decks
    total = comb(52 * n, 3)
    suited_trips = 52 * comb(n, 3)
    trips = 13 * comb(4 * n, 3) - suited_trips
    straight_flush = 12 * 4 * n**3
    straight = 12 * (4 * n) ** 3 - straight_flush
    # Three cards of one suit, less the straight flushes and suited trips among them.
    flush = 4 * (comb(13 * n, 3) - 12 * n**3 - 13 * comb(n, 3))
    counts = (suited_trips, straight_flush, trips, straight, flush)
    return tuple(Fraction(count, total) for count in counts)


@cache
def perfect_pairs_odds(decks: int, dealer_hits_soft_17: bool = False) -> tuple[Fraction, ...]:
    """Probability of each Perfect Pairs category for two cards of the shoe."""
    n = decks
    total = comb(52 * n, 2)
    perfect = 52 * comb(n, 2)
    # Each colour has two suits: one card of each.
    coloured = 13 * 2 * n * n
    mixed = 13 * (2 * n) * (2 * n)
    return tuple(Fraction(count, total) for count in (perfect, coloured, mixed))


def _three(first: Card, second: Card, dealer: Sequence[Card], total: int) -> int | None:
    return twenty_one_plus_three(first, second, dealer[0])


def _pairs(first: Card, second: Card, dealer: Sequence[Card], total: int) -> int | None:
    return perfect_pairs(first, second)


TWENTY_ONE_PLUS_THREE_SPEC = SideBetSpec(
    key="21+3",
    shown="21+3",
    option="21plus3",
    describe="Side bet a hand: your two cards and the dealer's make a poker hand",
    categories=(
        N_("suited trips"),
        N_("straight flush"),
        N_("three of a kind"),
        N_("straight"),
        N_("flush"),
    ),
    loses=N_("no winning hand"),
    pay_tables=("9", "100/40/30/10/5"),
    pay_order="",
    settles_at_deal=True,
    dealer_plays_out=False,
    classify=_three,
    odds=twenty_one_plus_three_odds,
)

PERFECT_PAIRS_SPEC = SideBetSpec(
    key="perfect-pairs",
    shown="Perfect Pairs",
    option="perfect_pairs",
    describe="Side bet a hand: your first two cards make a pair",
    categories=(N_("perfect pair"), N_("coloured pair"), N_("mixed pair")),
    loses=N_("no pair"),
    pay_tables=("25/12/6", "30/10/5", "25/12/5", "25/15/5"),
    pay_order="",
    settles_at_deal=True,
    dealer_plays_out=False,
    classify=_pairs,
    odds=perfect_pairs_odds,
)
