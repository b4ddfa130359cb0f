"""Buster Blackjack: a side bet on the dealer's final hand.

It wins when the dealer busts, by the number of cards in the busted hand (3, 4, 5, 6,
7, 8 or more); its pay tables are written by cards, 3 first. A live Buster bet has
the dealer play out the hand whatever the players hold. Its odds follow the dealer's
drawing card by card (the round's own draw rule), so they depend on the soft-17 rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache

from bot.engine.cards import Card
from bot.engine.dealer_play import dealer_must_hit
from bot.engine.rules import Rules
from bot.engine.side_bet_spec import N_, SideBetSpec


def buster(dealer_cards: Sequence[Card], dealer_total: int) -> int | None:
    """The Buster category of the dealer's final hand, or None when the dealer did not bust."""
    if dealer_total <= 21:
        return None
    return min(len(dealer_cards), 8) - 3


@cache
def buster_odds(decks: int, dealer_hits_soft_17: bool) -> tuple[Fraction, ...]:
    """Probability that the dealer busts with 3, 4, 5, 6, 7 and 8 or more cards."""
    rules = Rules(decks=decks, penetration=0, dealer_hits_soft_17=dealer_hits_soft_17)
    shoe = [4 * decks] * 9 + [16 * decks]
    memo: dict[tuple[int, ...], tuple[Fraction, ...]] = {}
    nothing = (Fraction(0),) * 6

    def draw(hard: int, ace: bool, cards: int, left: int) -> tuple[Fraction, ...]:
        total, soft = (hard + 10, True) if ace and hard <= 11 else (hard, False)
        if total > 21:
            return tuple(Fraction(int(k == min(cards, 8) - 3)) for k in range(6))
        if cards >= 2 and not dealer_must_hit(total, soft, rules):
            return nothing
        key = tuple(shoe)
        cached = memo.get(key)
        if cached is not None:
            return cached
        result = [Fraction(0)] * 6
        for index in range(10):
            count = shoe[index]
            if not count:
                continue
            shoe[index] = count - 1
            sub = draw(hard + index + 1, ace or index == 0, cards + 1, left - 1)
            shoe[index] = count
            p = Fraction(count, left)
            for k in range(6):
                if sub[k]:
                    result[k] += p * sub[k]
        memo[key] = tuple(result)
        return memo[key]

    return draw(0, False, 0, sum(shoe))


def _busted(first: Card, second: Card, dealer: Sequence[Card], total: int) -> int | None:
    return buster(dealer, total)


BUSTER_SPEC = SideBetSpec(
    key="buster",
    shown="Buster Blackjack",
    option="buster",
    describe="Side bet a hand: the dealer busts (pays more for more cards)",
    categories=(
        N_("dealer busts with 3 cards"),
        N_("dealer busts with 4 cards"),
        N_("dealer busts with 5 cards"),
        N_("dealer busts with 6 cards"),
        N_("dealer busts with 7 cards"),
        N_("dealer busts with 8 or more cards"),
    ),
    loses=N_("the dealer did not bust"),
    pay_tables=("2/2/4/12/50/250",),
    pay_order="by cards, 3 to 8+",
    settles_at_deal=False,
    dealer_plays_out=True,
    classify=_busted,
    odds=buster_odds,
)
