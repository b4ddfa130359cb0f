"""How the dealer's hand ends: the draw rule, and the odds of each final total.

The odds are computed with the Round's own draw rule (``dealer_must_hit`` of
``bot.engine.dealer_play``), so the two cannot disagree.

Card values are blackjack values, 1 (ace) to 10 (any ten). A shoe's make-up is a
sequence of ten counts, ``counts[v - 1]`` cards of value ``v``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from bot.engine.cards import Card
from bot.engine.dealer_play import dealer_must_hit
from bot.engine.rules import Rules

#: The dealer's final outcomes, in the order of ``DealerOdds.as_tuple()``.
OUTCOMES: Final = ("17", "18", "19", "20", "21", "blackjack", "bust")
#: Index of each outcome in a raw odds list.
BLACKJACK: Final = 5
BUST: Final = 6


def full_shoe(decks: int) -> list[int]:
    """The counts of a fresh shoe of ``decks`` decks, by value (four tens per suit)."""
    return [4 * decks] * 9 + [16 * decks]


#: Probability of each value on an infinite deck.
INFINITE_DECK: Final[tuple[float, ...]] = (1 / 13,) * 9 + (4 / 13,)


@dataclass(frozen=True, slots=True)
class DealerOdds:
    """Probability of each way the dealer's hand can end."""

    p17: float
    p18: float
    p19: float
    p20: float
    p21: float
    #: A two-card 21 while naturals are played; 0 after the peek found none.
    blackjack: float
    bust: float

    def as_tuple(self) -> tuple[float, ...]:
        """The probabilities in the order of ``OUTCOMES``."""
        return (self.p17, self.p18, self.p19, self.p20, self.p21, self.blackjack, self.bust)


def dealer_odds(
    up: int | Card,
    rules: Rules,
    *,
    infinite: bool = False,
    after_peek: bool = False,
    counts: Sequence[int] | None = None,
) -> DealerOdds:
    """The odds of each final dealer outcome for an up card.

    The shoe is ``rules.decks`` decks with the up card removed, an infinite deck
    when ``infinite``, or exactly ``counts`` (cards left by value, up card
    already removed). ``after_peek`` conditions on the dealer not holding a
    blackjack (the hole card was checked); otherwise blackjack is its own
    outcome. Without naturals a two-card 21 is simply 21.
    """
    value = up.value if isinstance(up, Card) else up
    if not 1 <= value <= 10:
        raise ValueError(f"an up card's value is 1 (ace) to 10, not {value}")
    if infinite:
        raw = final_odds_infinite(value, INFINITE_DECK, rules, after_peek=after_peek)
    else:
        if counts is None:
            shoe = full_shoe(rules.decks)
            shoe[value - 1] -= 1
        else:
            shoe = list(counts)
        raw = final_odds(value, shoe, rules, after_peek=after_peek)
    return DealerOdds(*raw)


def blackjack_card(up: int) -> int:
    """The hole card value that gives a dealer showing ``up`` a blackjack (0: none)."""
    return 10 if up == 1 else 1 if up == 10 else 0


def final_odds(up: int, counts: Sequence[int], rules: Rules, *, after_peek: bool) -> list[float]:
    """Raw odds (``OUTCOMES`` order) for a shoe of ``counts``, drawing without replacement."""
    naturals = rules.naturals
    shoe = list(counts)
    # A state is fixed by which cards are gone: the memo key counts them in base 32
    # (no value can be drawn 32 times before the dealer's total passes 16).
    memo: dict[int, list[float]] = {}

    def draw(hard: int, ace: bool, key: int, left: int) -> list[float]:
        cached = memo.get(key)
        if cached is not None:
            return cached
        result = [0.0] * 7
        for index in range(10):
            count = shoe[index]
            if not count:
                continue
            p = count / left
            new_hard = hard + index + 1
            new_ace = ace or index == 0
            if new_ace and new_hard <= 11:
                total, soft = new_hard + 10, True
            else:
                total, soft = new_hard, False
            if total > 21:
                result[BUST] += p
            elif dealer_must_hit(total, soft, rules):
                shoe[index] = count - 1
                sub = draw(new_hard, new_ace, key + _KEY_STEP[index], left - 1)
                shoe[index] = count
                # Past the hole card no blackjack is possible: skip that entry.
                result[0] += p * sub[0]
                result[1] += p * sub[1]
                result[2] += p * sub[2]
                result[3] += p * sub[3]
                result[4] += p * sub[4]
                result[BUST] += p * sub[BUST]
            else:
                result[total - 17] += p
        memo[key] = result
        return result

    def settle(hard: int, ace: bool, key: int) -> list[float]:
        total, soft = (hard + 10, True) if ace and hard <= 11 else (hard, False)
        if total > 21:
            return _BUST
        if dealer_must_hit(total, soft, rules):
            return draw(hard, ace, key, in_shoe - 1)
        return _FINAL[total]

    # The hole card: the only draw where a blackjack (or, after the peek, its absence) matters.
    hole = blackjack_card(up) if naturals else 0
    in_shoe = sum(shoe)
    left = in_shoe
    if after_peek and hole:
        left -= shoe[hole - 1]
    result = [0.0] * 7
    for index in range(10):
        value = index + 1
        count = shoe[index]
        if not count:
            continue
        if value == hole:
            if not after_peek:
                result[BLACKJACK] += count / left
            continue
        p = count / left
        shoe[index] -= 1
        sub = settle(up + value, up == 1 or value == 1, _KEY_STEP[index])
        shoe[index] += 1
        for k in range(7):
            result[k] += p * sub[k]
    return result


def final_odds_infinite(
    up: int, probs: Sequence[float], rules: Rules, *, after_peek: bool
) -> list[float]:
    """Raw odds (``OUTCOMES`` order) when every draw has the probabilities ``probs``."""
    memo: dict[tuple[int, bool], list[float]] = {}

    def settle(hard: int, ace: bool) -> list[float]:
        total, soft = (hard + 10, True) if ace and hard <= 11 else (hard, False)
        if total > 21:
            return _BUST
        if dealer_must_hit(total, soft, rules):
            return draw(hard, ace)
        return _FINAL[total]

    def draw(hard: int, ace: bool) -> list[float]:
        cached = memo.get((hard, ace))
        if cached is not None:
            return cached
        result = [0.0] * 7
        for index in range(10):
            sub = settle(hard + index + 1, ace or index == 0)
            p = probs[index]
            for k in range(7):
                result[k] += p * sub[k]
        memo[(hard, ace)] = result
        return result

    hole = blackjack_card(up) if rules.naturals else 0
    scale = 1.0
    if after_peek and hole:
        scale = 1.0 / (1.0 - probs[hole - 1])
    result = [0.0] * 7
    for index in range(10):
        value = index + 1
        p = probs[index] * scale
        if value == hole:
            if not after_peek:
                result[BLACKJACK] += p
            continue
        sub = settle(up + value, up == 1 or value == 1)
        for k in range(7):
            result[k] += p * sub[k]
    return result


_KEY_STEP: Final = tuple(32**index for index in range(10))
_BUST: Final = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]
_FINAL: Final = {
    total: [1.0 if k == total - 17 else 0.0 for k in range(7)] for total in range(17, 22)
}
