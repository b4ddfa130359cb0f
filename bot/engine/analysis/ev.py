"""Expected values of the player's choices, one round from a fresh shoe.

The model is the usual per-round one used by basic-strategy calculators. A
*position* is the dealer's up card and the player's first two cards; those
three cards are removed from the shoe and the rest of the round is computed
from what is left: the dealer's final odds exactly (drawing without
replacement), the player's draws at that shoe's proportions. On an infinite
deck nothing is removed and the model is exact.

Every value is per unit of the original bet. With the peek (or with an up card
that cannot make a blackjack) values are conditioned on the dealer having no
blackjack. Without the peek a dealer blackjack also takes doubles and splits,
so each value already carries that loss in proportion to what is staked (the
"tax" below), a surrendered hand's included: the Round's settlement lets a
no-peek dealer blackjack take the whole of a surrendered bet.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from bot.engine.analysis.dealer_odds import (
    BUST,
    INFINITE_DECK,
    blackjack_card,
    final_odds,
    final_odds_infinite,
    full_shoe,
)
from bot.engine.legality import DOUBLE_TOTALS as DOUBLE_TOTALS  # re-exported: one table
from bot.engine.rules import Rules

#: A continuation policy: hit this (total, soft) hand of three or more cards?
HitRule = Callable[[int, bool], bool]


def hand_state(values: tuple[int, ...] | list[int]) -> tuple[int, bool]:
    """(total, soft) of a hand of card values, an ace counting 11 when it does not bust."""
    hard = sum(values)
    if 1 in values and hard <= 11:
        return hard + 10, True
    return hard, False


class Situation:
    """The shoe left after the up card and the player's two cards: dealer odds and stand values."""

    __slots__ = ("_best", "double_hard", "double_soft", "p_blackjack", "probs", "stand", "tax")

    def __init__(
        self, probs: tuple[float, ...], dealer: list[float], p_blackjack: float, tax: float
    ) -> None:
        self.probs = probs
        #: Chance the dealer holds a blackjack (0 when there are no naturals).
        self.p_blackjack = p_blackjack
        #: The part of every stake a no-peek dealer blackjack takes (0 with the peek).
        self.tax = tax
        bust = dealer[BUST]
        below = 2.0 * bust - 1.0
        stand = [below] * 22
        # Player 17..21 against a dealer who made 17..21 (odds conditioned on no blackjack).
        for total in range(17, 22):
            won = bust + sum(dealer[: total - 17])
            lost = sum(dealer[total - 16 : 5])
            stand[total] = won - lost
        self.stand = stand
        self.double_hard = [0.0] * 22
        self.double_soft = [0.0] * 22
        for total in range(4, 22):
            self.double_hard[total] = 2.0 * _draw_once(probs, stand, total, False)
        for total in range(12, 22):
            self.double_soft[total] = 2.0 * _draw_once(probs, stand, total, True)
        self._best: Play | None = None

    def play(self, hits: HitRule | None = None) -> Play:
        """Values with ``hits`` deciding later draws; None plays each total at its best."""
        if hits is not None:
            return Play(self, hits)
        if self._best is None:
            self._best = Play(self, None)
        return self._best


def _draw_once(probs: tuple[float, ...], stand: list[float], total: int, soft: bool) -> float:
    """Stand value after exactly one more card."""
    value = 0.0
    for index in range(10):
        new, _ = step(total, soft, index + 1)
        value += probs[index] * (stand[new] if new <= 21 else -1.0)
    return value


def step(total: int, soft: bool, card: int) -> tuple[int, bool]:
    """(total, soft) after drawing ``card``; a total over 21 is a bust."""
    if soft:
        new = total + card
        return (new, True) if new <= 21 else (new - 10, False)
    if card == 1 and total <= 10:
        return total + 11, True
    return total + card, False


class Play:
    """Stand, hit and double values of every total in one situation, under a continuation."""

    __slots__ = ("hit_hard", "hit_soft", "sit")

    def __init__(self, sit: Situation, hits: HitRule | None) -> None:
        self.sit = sit
        probs, stand = sit.probs, sit.stand
        hit_hard = [0.0] * 22
        hit_soft = [0.0] * 22
        # Value of a hand of 3+ cards: stand or hit, at best or as ``hits`` says.
        go_hard = [0.0] * 32
        go_soft = [0.0] * 22
        for total in range(22, 32):
            go_hard[total] = -1.0

        def settle(total: int, soft: bool, hit: float) -> float:
            if hits is None:
                return max(stand[total], hit)
            return hit if hits(total, soft) else stand[total]

        # Hard 11+ only reaches higher hard totals; soft totals fall to hard 12+;
        # hard 10 and below reach both.
        for total in range(21, 10, -1):
            hit = sum(probs[i] * go_hard[total + i + 1] for i in range(10))
            hit_hard[total] = hit
            go_hard[total] = settle(total, False, hit)
        for total in range(21, 10, -1):
            hit = 0.0
            for i in range(10):
                new = total + i + 1
                hit += probs[i] * (go_soft[new] if new <= 21 else go_hard[new - 10])
            hit_soft[total] = hit
            go_soft[total] = settle(total, True, hit)
        for total in range(10, 1, -1):
            hit = probs[0] * go_soft[total + 11]
            hit += sum(probs[i] * go_hard[total + i + 1] for i in range(1, 10))
            hit_hard[total] = hit
            go_hard[total] = settle(total, False, hit)
        self.hit_hard = hit_hard
        self.hit_soft = hit_soft

    # Values per unit of the original bet; ``tax`` charges a no-peek blackjack per chip staked.
    def stand(self, total: int) -> float:
        """Value of standing on ``total``."""
        tax = self.sit.tax
        return (1.0 - tax) * self.sit.stand[total] - tax

    def hit(self, total: int, soft: bool) -> float:
        """Value of hitting, then following the continuation."""
        tax = self.sit.tax
        hit = self.hit_soft[total] if soft else self.hit_hard[total]
        return (1.0 - tax) * hit - tax

    def surrender(self) -> float:
        """Value of surrendering: half the bet back, unless a no-peek dealer then shows
        a blackjack, which takes the whole bet (as it takes doubles and splits)."""
        tax = self.sit.tax
        return (1.0 - tax) * -0.5 - tax

    def double(self, total: int, soft: bool) -> float:
        """Value of doubling: twice the stake, one card."""
        tax = self.sit.tax
        value = self.sit.double_soft[total] if soft else self.sit.double_hard[total]
        return (1.0 - tax) * value - 2.0 * tax


class ShoeModel:
    """Situations of one rule set for every up card and first two cards, built on demand."""

    def __init__(self, rules: Rules, *, infinite: bool = False) -> None:
        self.rules = rules
        self.infinite = infinite
        self._full = full_shoe(rules.decks)
        self._cache: dict[tuple[int, ...], Situation] = {}

    def situation(self, up: int, first: int, second: int) -> Situation:
        """The situation after ``up``, ``first`` and ``second`` (card values) left the shoe."""
        if self.infinite:
            return self._build(up, ())
        return self._build(up, tuple(sorted((first, second))))

    def generic(self, up: int) -> Situation:
        """The situation with only the up card gone, for totals no two cards make."""
        return self._build(up, ())

    def _build(self, up: int, removed: tuple[int, ...]) -> Situation:
        key = (up, *removed)
        sit = self._cache.get(key)
        if sit is not None:
            return sit
        rules = self.rules
        hole = blackjack_card(up) if rules.naturals else 0
        if self.infinite:
            probs = INFINITE_DECK
            dealer = final_odds_infinite(up, probs, rules, after_peek=True)
            p_blackjack = probs[hole - 1] if hole else 0.0
        else:
            counts = list(self._full)
            for value in (up, *removed):
                counts[value - 1] -= 1
            left = sum(counts)
            probs = tuple(count / left for count in counts)
            dealer = final_odds(up, counts, rules, after_peek=True)
            p_blackjack = counts[hole - 1] / left if hole else 0.0
        tax = 0.0 if rules.dealer_peeks else p_blackjack
        sit = Situation(probs, dealer, p_blackjack, tax)
        self._cache[key] = sit
        return sit

    def up_odds(self, up: int) -> float:
        """Chance of the dealer showing ``up``."""
        if self.infinite:
            return INFINITE_DECK[up - 1]
        return self._full[up - 1] / sum(self._full)

    def pair_odds(self, up: int, first: int, second: int) -> float:
        """Chance of the first two cards being these values (either order), given ``up``."""
        if self.infinite:
            p = INFINITE_DECK[first - 1] * INFINITE_DECK[second - 1]
            return p if first == second else 2.0 * p
        counts = list(self._full)
        counts[up - 1] -= 1
        left = sum(counts)
        if first == second:
            n = counts[first - 1]
            return n * (n - 1) / (left * (left - 1))
        return 2.0 * counts[first - 1] * counts[second - 1] / (left * (left - 1))

    def same_rank_odds(self, up: int) -> float:
        """Chance two ten-valued first cards are the same rank (10, J, Q or K), given ``up``."""
        if self.infinite:
            return 0.25
        per_rank = 4 * self.rules.decks
        tens = 4 * per_rank - (1 if up == 10 else 0)
        same = 4 * per_rank * (per_rank - 1)
        if up == 10:
            # One rank lost the up card: a quarter of the time each.
            same = 3 * per_rank * (per_rank - 1) + (per_rank - 1) * (per_rank - 2)
        return same / (tens * (tens - 1))

    def match_odds(self, up: int, pair: int) -> Callable[[int], float]:
        """Chance a split hand draws another card it may be resplit with, after ``n`` resplits."""
        rank_tens = self.rules.split_by == "rank" and pair == 10
        if self.infinite:
            p = INFINITE_DECK[pair - 1] / (4 if rank_tens else 1)
            return lambda n: p
        counts = list(self._full)
        for value in (up, pair, pair):
            counts[value - 1] -= 1
        left = sum(counts)
        if rank_tens:
            matching = 4.0 * self.rules.decks - 2 - (0.25 if up == 10 else 0.0)
        else:
            matching = float(counts[pair - 1])
        return lambda n: max(matching - n, 0.0) / (left - n)


@cache
def split_counts(match: tuple[float, ...], max_hands: int) -> tuple[float, float]:
    """Expected hands ending (with a card they cannot be resplit with, with a resplit card).

    ``match[n]`` is the chance of drawing a resplit card after ``n`` resplits.
    A pair split into two hands; each hand takes a card and is resplit while
    fewer than ``max_hands`` hands exist. The second figure counts hands left
    holding a pair because the limit was reached.
    """

    @cache
    def hands(pending: int, made: int) -> tuple[float, float]:
        if pending == 0:
            return 0.0, 0.0
        q = match[made - 2]
        done_other, done_pair = hands(pending - 1, made)
        if made < max_hands:
            split_other, split_pair = hands(pending + 1, made + 1)
            return (
                q * split_other + (1 - q) * (done_other + 1),
                q * split_pair + (1 - q) * done_pair,
            )
        return done_other + (1 - q), done_pair + q

    return hands(2, 2)


#: Value of a hand left after a split: (play, first card, second card, still a pair?).
HandValue = Callable[[Play, int, int, bool], float]


def split_value(model: ShoeModel, up: int, pair: int, play: Play, finish: HandValue) -> float:
    """Value of splitting a pair of ``pair``s (all hands together, per unit of the first bet).

    ``finish`` values one two-card hand after the split; resplits are taken
    whenever the rules allow them.
    """
    rules = model.rules
    limit = rules.max_hands if pair != 1 or rules.resplit_aces else 2
    match_after = model.match_odds(up, pair)
    match = tuple(match_after(n) for n in range(limit - 1))
    other, stuck = split_counts(match, limit)
    probs = play.sit.probs
    weight = 0.0
    value = 0.0
    for index in range(10):
        card = index + 1
        p = probs[index]
        if card == pair:
            p = max(p - match[0], 0.0)
            if p <= 0.0:
                continue
        weight += p
        value += p * finish(play, pair, card, False)
    total = other * value / weight
    if stuck:
        total += stuck * finish(play, pair, pair, True)
    return total
