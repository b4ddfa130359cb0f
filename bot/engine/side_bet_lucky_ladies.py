"""Lucky Ladies: the spot's first two cards total 20.

It pays by category, highest first: a pair of queens of hearts with a dealer
blackjack, a pair of queens of hearts, a matched 20 (two cards of the same rank and
suit), a suited 20, any other 20 (a soft 20, ace and nine, counts). The dealer's
blackjack is known only at the settlement, so it is settled then.

Its odds count ordered deals off a fresh shoe: the spot's two cards, then (for the
top category) the dealer's two.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache

from bot.engine.cards import Card
from bot.engine.side_bet_spec import N_, SideBetSpec

_HEARTS = 1
_QUEEN = 12


def _ten(card: Card) -> bool:
    return card.rank >= 10


def _blackjack(first: Card, second: Card) -> bool:
    return (first.rank == 1 and _ten(second)) or (second.rank == 1 and _ten(first))


def lucky_ladies(first: Card, second: Card, dealer: Sequence[Card]) -> int | None:
    """The Lucky Ladies category of the spot's first two cards and the dealer's cards
    (up card first), or None when the two cards do not total 20."""
    tens = _ten(first) and _ten(second)
    if not (tens or {first.rank, second.rank} == {1, 9}):
        return None
    if first == second == Card(_QUEEN, _HEARTS):
        return 0 if len(dealer) >= 2 and _blackjack(dealer[0], dealer[1]) else 1
    if first == second:
        return 2
    return 3 if first.suit == second.suit else 4


@cache
def lucky_ladies_odds(decks: int, dealer_hits_soft_17: bool = False) -> tuple[Fraction, ...]:
    """Probability of each Lucky Ladies category (the soft-17 rule plays no part)."""
    n = decks
    deals = 52 * n * (52 * n - 1)
    queens = n * (n - 1)  # two queens of hearts, in order
    # The dealer's two cards from the rest: an ace and a ten, either first.
    dealer = Fraction(2 * 4 * n * (16 * n - 2), (52 * n - 2) * (52 * n - 3))
    top = Fraction(queens, deals) * dealer
    matched = 15 * n * (n - 1)  # the other 15 ten-cards, twice over
    suited = 4 * (4 * 3 + 2) * n * n  # two ten-cards of different ranks, or ace and nine
    other = 16 * n * 12 * n + 2 * 4 * n * 3 * n  # ten-cards of two suits, or ace and nine
    return (
        top,
        Fraction(queens, deals) - top,
        Fraction(matched, deals),
        Fraction(suited, deals),
        Fraction(other, deals),
    )


def _ladies(first: Card, second: Card, dealer: Sequence[Card], total: int) -> int | None:
    return lucky_ladies(first, second, dealer)


LUCKY_LADIES_SPEC = SideBetSpec(
    key="lucky-ladies",
    shown="Lucky Ladies",
    option="lucky_ladies",
    describe="Side bet a hand: your first two cards total 20 (queens of hearts pay most)",
    categories=(
        N_("queens of hearts with a dealer blackjack"),
        N_("queens of hearts"),
        N_("matched 20"),
        N_("suited 20"),
        N_("any 20"),
    ),
    loses=N_("no 20"),
    pay_tables=("1000/125/19/9/4", "1000/200/25/10/4"),
    pay_order="",
    settles_at_deal=False,
    dealer_plays_out=False,
    classify=_ladies,
    odds=lucky_ladies_odds,
)
