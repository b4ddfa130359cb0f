"""Splits valued exactly on a finite shoe, resplits and the pair cards they take included.

E. Farmer's method (his note blackjack_split.pdf, as his combinatorial analyser,
github.com/possibly-wrong/blackjack, applies it): each split hand is played
by its own cards only, so the cards are exchangeable and every hand of a split is
worth the same given what is known of the cards before it. What is known is how
many further pair cards resplits took (``a``) and how many hands completed with a
card that is not a pair card (``b``), not which cards those were. For each ``a``
the values of one hand with ``a`` more pair cards out are computed exactly:

- ``X(a)``: a split hand over every second card, playing (not resplitting) a pair;
- ``P(a)``: the same hand when its second card is a pair card.

An unknown card taken out leaves a value unchanged on average, so a value with
``b`` unknown non-pair cards out follows from those with ``b - 1`` (the unknown card
is a pair card with the chance ``u`` of drawing one):

    X(a, b) = (X(a, b-1) - u X(a+1, b-1)) / (1 - u)

and ``N``, a hand whose own second card is not a pair card, likewise from
``N(a, 0) = (X(a) - u P(a)) / (1 - u)``. Splitting is then the sum, over the ways the
second cards can fall, of the chance of each way times its hands' values: stopping
at ``h`` hands below the limit (``h`` hands of ``N``), or reaching the limit after
``k`` hands completed (``k`` of ``N``, the other ``limit - k`` of ``X``).

Where the dealer has peeked, the shoe the player draws from is the shoe less a
hole card that is not the blackjack card, and the chances of pair and non-pair
cards are conditioned on that (``_Counts``). Each hand is played as it would be
with one pair card out (Farmer's CDP1): the same play for every number of
resplits, chosen by the hand's values with no further pair card out.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TypeVar

from bot.engine.analysis.dealer_graph import STEP
from bot.engine.analysis.dealer_odds import blackjack_card
from bot.engine.analysis.exact import DealerTable, HandValues, HitRule
from bot.engine.rules import Rules

T = TypeVar("T")

#: Values one two-card split hand: (values, first card, second card, still a pair?).
SplitHand = Callable[["SplitValues", int, int, bool], float]


class SplitValues(HandValues):
    """Values of hands split from a pair of ``pair``s, with the other half of the pair
    and ``removed`` further pair cards out of the shoe.

    With ``removed`` cards out, hands played at their best play as the ``lead``
    (no further card out) plays them.
    """

    def __init__(
        self,
        table: DealerTable,
        pair: int,
        *,
        hits: HitRule | None = None,
        removed: int = 0,
        lead: SplitValues | None = None,
    ) -> None:
        super().__init__(table, extra=(pair,) * (1 + removed), hits=hits)
        self.pair = pair
        self.removed = removed
        self.lead = lead
        self._more: dict[int, SplitValues] = {}
        self._lead_hits: dict[int, bool] = {}

    def with_removed(self, removed: int) -> SplitValues:
        """These values with ``removed`` further pair cards out (memoised)."""
        if not removed:
            return self
        found = self._more.get(removed)
        if found is None:
            found = SplitValues(self.table, self.pair, hits=self.hits, removed=removed, lead=self)
            self._more[removed] = found
        return found

    def led(self, key: int, ask: Callable[[HandValues, int], T]) -> T:
        """``ask(lead, key)`` for the hand of ``key`` as the lead holds it (its shoe then
        the lead's, put back after)."""
        lead = self.lead
        if lead is None:
            return ask(self, key)
        saved = lead.left
        shoe = list(self.left)
        shoe[self.pair - 1] += self.removed
        lead.left = shoe
        try:
            return ask(lead, key - self.removed * STEP[self.pair - 1])
        finally:
            lead.left = saved

    def go_on(self, key: int, total: int, soft: bool) -> float:
        """As ``HandValues.go_on``; at best, hit exactly when the lead would."""
        if self.lead is None or self.hits is not None or total == 21 or (total <= 11 and not soft):
            return super().go_on(key, total, soft)
        hit = self._lead_hits.get(key)
        if hit is None:
            hit = self.led(key, lambda lead, k: lead.hit(k, total, soft) > lead.stand(k, total))
            self._lead_hits[key] = hit
        return self.hit(key, total, soft) if hit else self.stand(key, total)


def first_choices(
    values: HandValues, key: int, total: int, soft: bool, *, double: bool
) -> list[float]:
    """Standing, hitting and (if ``double``) doubling a two-card hand, in that order."""
    out = [values.stand(key, total), values.hit(key, total, soft)]
    if double:
        out.append(values.double(key, total, soft))
    return out


def best_split_hand(
    values: SplitValues, key: int, total: int, soft: bool, *, double: bool
) -> float:
    """A two-card split hand played at its best: the choice of the lead (the first
    best of stand, hit, double), valued with these values' cards out."""

    def pick(lead: HandValues, lead_key: int) -> int:
        # The first best, as a tie goes to standing, then hitting.
        choices = first_choices(lead, lead_key, total, soft, double=double)
        return choices.index(max(choices))

    if values.lead is None:
        return max(first_choices(values, key, total, soft, double=double))
    action = values.led(key, pick)
    if action == 0:
        return values.stand(key, total)
    if action == 1:
        return values.hit(key, total, soft)
    return values.double(key, total, soft)


class _Counts:
    """Chances of second cards being pair cards, after the up card and both pair cards.

    ``pattern(a, b)`` is the chance that ``a + b`` given draws are ``a`` pair cards
    and ``b`` other cards. Where the dealer peeked, the hole card is one of the cards
    left that is not the blackjack card, and the player draws from the rest.
    """

    def __init__(self, pairs: float, total: int, hole_pair: float | None) -> None:
        self.pairs = pairs
        self.total = total
        #: Chance the hole card is a pair card, or None without the peek.
        self.hole_pair = hole_pair

    @staticmethod
    def _falling(n: float, k: int) -> float:
        out = 1.0
        for i in range(k):
            out *= max(n - i, 0.0)
        return out

    def _draws(self, pairs: float, total: float, a: int, b: int) -> float:
        f = self._falling
        return f(pairs, a) * f(total - pairs, b) / f(total, a + b)

    def pattern(self, a: int, b: int) -> float:
        if self.hole_pair is None:
            return self._draws(self.pairs, self.total, a, b)
        w = self.hole_pair
        rest = self.total - 1
        return w * self._draws(self.pairs - 1, rest, a, b) + (1 - w) * self._draws(
            self.pairs, rest, a, b
        )

    def next_pair(self, a: int, b: int) -> float:
        """Chance the next card is a pair card once ``a`` pair and ``b`` other cards are out."""
        known = self.pattern(a, b)
        return self.pattern(a + 1, b) / known if known > 0 else 0.0


@cache
def split_ways(limit: int) -> tuple[dict[int, int], dict[int, int]]:
    """How many orders of second cards split exactly ``h`` hands (below ``limit``), and
    reach ``limit`` hands with ``k`` hands completed before the last resplit.

    A hand drawing a pair card is resplit (while fewer than ``limit`` hands exist);
    every order with the same numbers of pair and other cards is equally likely.
    """
    stop: dict[int, int] = {}
    full: dict[int, int] = {}
    ways = {(0, 0): 1}  # (pair cards, other cards) drawn, play still going
    for _ in range(2 * limit):
        after: dict[tuple[int, int], int] = {}
        for (a, b), n in ways.items():
            if a + 1 == limit - 2:
                full[b] = full.get(b, 0) + n
            else:
                after[(a + 1, b)] = after.get((a + 1, b), 0) + n
            if 2 + a - b == 1:
                stop[2 + a] = stop.get(2 + a, 0) + n
            else:
                after[(a, b + 1)] = after.get((a, b + 1), 0) + n
        ways = after
    return stop, full


def _counts(values: SplitValues, pair: int, rank_tens: bool) -> _Counts:
    """The pair cards and all cards left once the up card and both pair cards are out.

    Tens split by rank: the pair cards are the tens of the pair's rank, their number
    an average where the up card is a ten of unknown rank (no outside figure checks
    this case; Farmer's CA splits tens by value)."""
    left = values.left
    total = sum(left)
    table = values.table
    pairs: float = left[pair - 1]
    if rank_tens:
        per_rank = 4 * values.rules.decks
        pairs = per_rank - 2.0
        if table.up == 10:  # the up card is of the pair's rank this often
            pairs -= (per_rank - 2) / (4 * per_rank - 2)
    if not table.peeked:
        return _Counts(pairs, total, None)
    b = blackjack_card(table.up)
    if b == pair:
        return _Counts(pairs, total, 0.0)
    return _Counts(pairs, total, pairs / (total - left[b - 1]))


def split(
    values: SplitValues, pair: int, rules: Rules, finish: SplitHand, *, exact: bool = True
) -> float:
    """Value of splitting a pair of ``pair``s: all hands together, per unit of one stake.

    ``values`` are the split's (``SplitValues`` of ``pair``). ``rules`` are the
    table's: its hand limit, whether aces resplit, whether tens split by rank (the
    rules of ``values`` are only its dealer's). A hand that draws a pair card is
    resplit while the hand limit allows; every pair card it takes is out of the
    shoe for every hand (Farmer's method: see the module). ``exact=False`` gives a
    quick estimate instead: the values of a hand with two or more further pair
    cards out are extrapolated from those with none and one (within 0.00004 of
    the exact value for every pair at 1 and 2 decks).
    """
    limit = rules.max_hands if pair != 1 or rules.resplit_aces else 2
    rank_tens = rules.split_by == "rank" and pair == 10
    values.enter((pair,))
    try:
        counts = _counts(values, pair, rank_tens)
    finally:
        values.leave((pair,))
    hands: dict[int, tuple[float, float]] = {}

    def hand(a: int) -> tuple[float, float]:
        """(X(a), P(a)): a split hand with ``a`` further pair cards out."""
        found = hands.get(a)
        if found is None:
            if exact or a < 2:
                found = _one_hand(values.with_removed(a), pair, rank_tens, counts, a, finish)
            else:
                (x0, p0), (x1, p1) = hand(0), hand(1)
                found = (x0 + a * (x1 - x0), p0 + a * (p1 - p0))
            hands[a] = found
        return found

    @cache
    def any_second(a: int, b: int) -> float:
        if not b:
            return hand(a)[0]
        u = counts.next_pair(a, b - 1)
        if u <= 0.0:
            return any_second(a, b - 1)
        return (any_second(a, b - 1) - u * any_second(a + 1, b - 1)) / (1.0 - u)

    @cache
    def completed(a: int, b: int) -> float:
        u = counts.next_pair(a, b)
        if not b:
            x, p = hand(a)
            return x if u <= 0.0 else (x - u * p) / (1.0 - u)
        if u <= 0.0:
            return completed(a, b - 1)
        return (completed(a, b - 1) - u * completed(a + 1, b - 1)) / (1.0 - u)

    stop, full = split_ways(limit) if limit > 2 else ({}, {0: 1})
    value = 0.0
    for h, ways in stop.items():
        chance = ways * counts.pattern(h - 2, h)
        if chance > 0.0:
            value += chance * h * completed(h - 2, h - 1)
    for k, ways in full.items():
        chance = ways * counts.pattern(limit - 2, k)
        if chance > 0.0:
            at_limit = (limit - k) * any_second(limit - 2, k)
            value += chance * (at_limit + (k * completed(limit - 2, k - 1) if k else 0.0))
    return value


def _one_hand(
    values: SplitValues, pair: int, rank_tens: bool, counts: _Counts, a: int, finish: SplitHand
) -> tuple[float, float]:
    """(X(a), P(a)) from ``values`` (``a`` further pair cards out)."""
    values.enter((pair,))
    try:
        probs = values.probs()
        match = probs[pair - 1]
        if rank_tens:  # the pair's rank among the tens left
            match = counts.next_pair(a, 0)
        any_card = 0.0
        for index, p in enumerate(probs):
            card = index + 1
            if card == pair:
                p -= match
            if p <= 0.0:
                continue
            values.left[index] -= 1
            any_card += p * finish(values, pair, card, False)
            values.left[index] += 1
        still_pair = 0.0
        if match > 0.0:
            values.left[pair - 1] -= 1
            still_pair = finish(values, pair, pair, True)
            values.left[pair - 1] += 1
        return any_card + match * still_pair, still_pair
    finally:
        values.leave((pair,))
