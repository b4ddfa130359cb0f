"""Basic strategy and its edge from the exact values of ``bot.engine.analysis.exact``.

Three uses, one set of values:

- ``decision_values``: what every legal action is worth for one exact hand
  (composition-dependent, each later card played at its best): ``python -m bot
  ev`` and the Hint.
- ``exact_orders``: the total-dependent chart, each cell ranked by the values
  of the two-card hands making its total, weighted by their odds.
- ``exact_edge``: the house edge of playing that chart (first decisions from the
  two-card cells, later hits and stands from the total's cell, split hands
  with what a split hand may do), every card removed as dealt.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Final

from bot.engine.actions import Action
from bot.engine.analysis.dealer_odds import blackjack_card, full_shoe
from bot.engine.analysis.ev import ShoeModel
from bot.engine.analysis.exact import DealerTable, HandValues, HitRule, hand_key, hand_total
from bot.engine.analysis.exact_split import SplitValues, best_split_hand, split
from bot.engine.legality import DOUBLE_TOTALS
from bot.engine.rules import Rules

#: The most decks whose chart and edge are valued exactly. Above it the shoe is deep
#: enough for the per-round model of ``bot.engine.analysis.ev`` (only the up card and the two
#: first cards out): within 0.003 points of the exact edge at four decks, less at
#: more, and an exact chart there takes minutes in Python, not seconds.
EXACT_MAX_DECKS: Final = 2

#: A chart values a split exactly only when its estimate is this close to another
#: action's value: the estimate is within 0.00004 of the exact value for every pair
#: at 1 and 2 decks to 4 hands (tests/engine/test_split_values.py), so this margin is
#: 25 times that.
CHART_SPLIT_MARGIN: Final = 0.001
#: The same above 4 hands, where the estimate strays further (more pair cards come out):
#: at most 0.0029 at 8 hands, 1 deck (tens; 0.0007 at 2 decks), so 3.5 times that.
CHART_SPLIT_MARGIN_MANY: Final = 0.01


def exact_shoe(model: ShoeModel) -> bool:
    """Whether the chart and edge of ``model`` come from the exact values here."""
    return not model.infinite and model.rules.decks <= EXACT_MAX_DECKS


#: Chooses an action for a hand from those allowed: (section, row, legal) -> action.
Choose = Callable[[str, int, set[Action]], Action]


class UpCard:
    """Everything valued against one up card: the dealer's odds, and hands by policy."""

    def __init__(
        self,
        rules: Rules,
        up: int,
        hits: HitRule | None = None,
        *,
        shoe: Sequence[int] | None = None,
    ) -> None:
        """``shoe``: the cards left by value (1 = ace) once the up card is out; a full shoe
        of the rules' decks less the up card when None (its dealer's odds then shared)."""
        self.rules = rules
        self.up = up
        if shoe is None:
            full = full_shoe(rules.decks)
            full[up - 1] -= 1
            self.shoe = full
            self.table = dealer_table(
                rules.decks,
                rules.dealer_hits_soft_17,
                rules.naturals,
                rules.dealer_peeks,
                rules.peek_ace_only,
                up,
            )
        else:
            self.shoe = list(shoe)
            self.table = DealerTable(rules, up, self.shoe)
        self.hits = hits
        self.values = HandValues(self.table, hits=hits)
        self._split_values: dict[int, SplitValues] = {}
        self.doubles = DOUBLE_TOTALS[rules.double_on]

    def split_values(self, pair: int) -> SplitValues:
        """Values of hands with the other half of a ``pair`` out of the shoe."""
        found = self._split_values.get(pair)
        if found is None:
            found = SplitValues(self.table, pair, hits=self.hits)
            self._split_values[pair] = found
        return found

    def odds(self, first: int, second: int) -> float:
        """Chance of the first two cards being these values (either order)."""
        counts, left = self.shoe, sum(self.shoe)
        if first == second:
            n = counts[first - 1]
            return n * (n - 1) / (left * (left - 1))
        return 2.0 * counts[first - 1] * counts[second - 1] / (left * (left - 1))

    def p_blackjack(self, cards: Sequence[int]) -> float:
        """Chance the dealer holds a blackjack, given the player's ``cards``."""
        hole = blackjack_card(self.up) if self.rules.naturals else 0
        if not hole:
            return 0.0
        left = list(self.shoe)
        for card in cards:
            left[card - 1] -= 1
        return left[hole - 1] / sum(left)

    def same_rank(self) -> float:
        """Chance two ten-valued cards are the same rank (10, J, Q or K)."""
        per_rank = 4 * self.rules.decks
        tens = 4 * per_rank - (1 if self.up == 10 else 0)
        same = 4 * per_rank * (per_rank - 1)
        if self.up == 10:
            same = 3 * per_rank * (per_rank - 1) + (per_rank - 1) * (per_rank - 2)
        return same / (tens * (tens - 1))

    # -- composition-dependent values (each later card at its best) --------------

    def chart_options(self, cards: Sequence[int], *, pair: bool) -> dict[Action, float]:
        """``options`` for ranking a chart cell: a split's value is the quick estimate
        of ``split`` unless that lies within ``CHART_SPLIT_MARGIN`` (above 4 hands,
        ``CHART_SPLIT_MARGIN_MANY``) of another action's, so the ranking is the exact
        values' (valuing every resplit exactly for every pair made a 2-deck chart take
        twice as long, and an 8-hand one ten seconds)."""
        out = self.options(cards, pair=pair, exact_split=False)
        estimate = out.get(Action.SPLIT)
        if estimate is None:
            return out
        many = self.rules.max_hands > 4
        margin = CHART_SPLIT_MARGIN_MANY if many else CHART_SPLIT_MARGIN
        others = [value for action, value in out.items() if action != Action.SPLIT]
        if any(abs(estimate - value) <= margin for value in others):
            values = self.split_values(cards[0])
            out[Action.SPLIT] = split(values, cards[0], self.rules, self._best_hand)
        return out

    def options(
        self, cards: Sequence[int], *, pair: bool, exact_split: bool = True
    ) -> dict[Action, float]:
        """Value of each action the rules offer on the hand ``cards`` (its first decision
        when it has two cards), after the peek when the dealer checks; ``exact_split=False``
        estimates the split (``split(..., exact=False)``)."""
        rules, values = self.rules, self.values
        total, soft = hand_total(cards)
        key = values.enter(cards)
        try:
            out = {Action.STAND: values.stand(key, total)}
            if total < 21:  # a hand that reaches 21 stands by itself
                out[Action.HIT] = values.hit(key, total, soft)
            if len(cards) != 2 or rules.hit_stand_only:
                return out
            if total in self.doubles:
                out[Action.DOUBLE] = values.double(key, total, soft)
            if rules.surrender == "late":
                out[Action.SURRENDER] = values.surrender()
        finally:
            values.leave(cards)
        if pair and rules.split_by != "none":
            values = self.split_values(cards[0])
            out[Action.SPLIT] = split(values, cards[0], rules, self._best_hand, exact=exact_split)
        return out

    def _best_hand(self, values: SplitValues, first: int, second: int, still_pair: bool) -> float:
        rules = self.rules
        total, soft = hand_total((first, second))
        key = hand_key(values, (first, second))
        if (first == 1 and not rules.hit_split_aces) or total == 21:
            return values.stand(key, total)
        double = rules.double_after_split and total in self.doubles
        return best_split_hand(values, key, total, soft, double=double)

    # -- a chart's play ------------------------------------------------------------

    def round_value(self, first: int, second: int, choose: Choose) -> float:
        """Value of a round dealt ``first`` and ``second``, played by ``choose`` (with
        ``hits`` for later cards)."""
        rules = self.rules
        p_bj = self.p_blackjack((first, second))
        if rules.naturals and first == 1 and second == 10:
            return (1.0 - p_bj) * float(rules.blackjack_ratio)
        if first != second or rules.split_by == "none":
            value = self._first(first, second, False, choose)
        elif rules.split_by == "rank" and first == 10:
            same = self.same_rank()
            value = same * self._first(first, second, True, choose)
            value += (1.0 - same) * self._first(first, second, False, choose)
        else:
            value = self._first(first, second, True, choose)
        if self.table.peeked:
            return -p_bj + (1.0 - p_bj) * value
        return value

    def _first(self, first: int, second: int, pair: bool, choose: Choose) -> float:
        rules = self.rules
        total, soft = hand_total((first, second))
        section, row, legal = first_decision(rules, first, second, pair=pair)
        action = choose(section, row, legal)
        if action == Action.SPLIT:

            def finish(values: SplitValues, one: int, two: int, still_pair: bool) -> float:
                return self._split_hand(values, one, two, still_pair, choose)

            # The edge takes the split's quick estimate: it moves a 1- or 2-deck edge by
            # under 0.00001 points (to 4 hands and at 8), and saves a fifth of the time to
            # 4 hands, three quarters at 8. The Hint and ``ev`` value every split exactly.
            return split(self.split_values(first), first, rules, finish, exact=False)
        values = self.values
        key = values.enter((first, second))
        try:
            return take(values, action, key, total, soft)
        finally:
            values.leave((first, second))

    def _split_hand(
        self, values: SplitValues, first: int, second: int, still_pair: bool, choose: Choose
    ) -> float:
        rules = self.rules
        total, soft = hand_total((first, second))
        key = hand_key(values, (first, second))
        if first == 1 and not rules.hit_split_aces:
            return values.stand(key, total)
        legal = {Action.HIT, Action.STAND}
        if rules.double_after_split and total in self.doubles:
            legal.add(Action.DOUBLE)
        if still_pair:
            section, row = "pair", first
        else:
            section, row = ("soft" if soft else "hard"), total
        return take(values, choose(section, row, legal), key, total, soft)


def first_decision(
    rules: Rules, first: int, second: int, *, pair: bool
) -> tuple[str, int, set[Action]]:
    """The chart cell (section, row) of a first two-card hand and what it may do."""
    total, soft = hand_total((first, second))
    legal = {Action.HIT, Action.STAND}
    if not rules.hit_stand_only:
        if total in DOUBLE_TOTALS[rules.double_on]:
            legal.add(Action.DOUBLE)
        if rules.surrender == "late":
            legal.add(Action.SURRENDER)
        if pair:
            legal.add(Action.SPLIT)
    if pair or (first == second and rules.split_by == "none"):
        return "pair", first, legal
    return ("soft" if soft else "hard"), total, legal


@lru_cache(maxsize=80)
def dealer_table(
    decks: int, hits_soft_17: bool, naturals: bool, peeks: bool, ace_only: bool, up: int
) -> DealerTable:
    """The dealer's odds against ``up`` for every set of removed cards, shared by every
    rule set with the same dealer (the memo fills as hands are valued)."""
    rules = Rules(
        decks=decks,
        penetration=0,
        dealer_hits_soft_17=hits_soft_17,
        naturals=naturals,
        blackjack_pays="3:2" if naturals else "1:1",
        dealer_peeks=peeks,
        peek_ace_only=ace_only,
        insurance=naturals,
    )
    shoe = full_shoe(decks)
    shoe[up - 1] -= 1
    return DealerTable(rules, up, shoe)


def take(values: HandValues, action: Action, key: int, total: int, soft: bool) -> float:
    """The value of ``action`` on the hand ``key`` (its cards out of ``values``' shoe)."""
    if action == Action.STAND or total == 21:
        return values.stand(key, total)
    if action == Action.HIT:
        return values.hit(key, total, soft)
    if action == Action.DOUBLE:
        return values.double(key, total, soft)
    if action == Action.SURRENDER:
        return values.surrender()
    raise ValueError(f"cannot value {action} here")  # pragma: no cover


def decision_values(
    rules: Rules, cards: Sequence[int], up: int, *, pair: bool | None = None
) -> dict[Action, float]:
    """What each action the rules offer is worth for the hand ``cards`` (values, 1 = ace)
    against ``up``, every later card played at its best; per unit of the bet, after the
    peek when the dealer checks. ``pair`` (default: two equal values) offers the split."""
    if len(cards) < 2 or not 1 <= up <= 10 or any(not 1 <= card <= 10 for card in cards):
        raise ValueError("a hand is two or more card values 1 (ace) to 10 against an up card")
    if pair is None:
        pair = len(cards) == 2 and cards[0] == cards[1]
    return UpCard(rules, up).options(cards, pair=pair)


#: Action names in the sentence of ``decision_words``.
_NAMES: Final = {
    Action.HIT: "Hit",
    Action.STAND: "Stand",
    Action.DOUBLE: "Double",
    Action.SPLIT: "Split",
    Action.SURRENDER: "Surrender",
}


def decision_words(values: dict[Action, float]) -> str:
    """ "Hit −53.5%, Stand −54.1%: hit": each action's value, best first, then the best.

    A value is written as the Hint writes it: in percent of the bet, one decimal, signed
    (a value of -0.535 chips per chip bet is "−53.5%")."""
    ranked = sorted(values, key=lambda action: -values[action])
    parts = ", ".join(f"{_NAMES[a]} {values[a] * 100:+.1f}%".replace("-", "\u2212") for a in ranked)
    return f"{parts}: {_NAMES[ranked[0]].lower()}"
