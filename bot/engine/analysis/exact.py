"""Exact values on a finite shoe, every card removed as it is dealt.

A hand is a *composition* (how many cards of each value it holds). Against one
up card, the shoe left is the full shoe less the up card, the hand and any
cards removed beforehand (``extra``: the other half of a split pair). Every
draw the player makes comes from that shoe, and what standing is worth is
computed from the dealer's odds for the shoe the hand's exact composition leaves
(``bot.engine.analysis.dealer_graph``, the odds of ``bot.engine.analysis.dealer_odds.final_odds``),
so hits, double cards and the cards of a split hand are all out of the shoe when
the dealer plays.

The peek is conditioned in: when the dealer has checked the hole card and
found no blackjack, the hole card is a card of the shoe that is not the
blackjack card, so the player's next card is drawn with the odds

    P(c) = R_c (M - R_b - 1) / ((M - R_b)(M - 1))   for c != b,  R_b / (M - 1) for b,

(``R`` the cards left, ``M`` their number, ``b`` the card that would have made
the blackjack) and the dealer's odds are conditioned on the hole card not being
``b``. Without the peek a dealer blackjack is one more way a standing hand
loses: every value below already counts it, per chip staked.

Values are per unit of the hand's stake. Split hands: each hand's own cards,
the other half of the pair and (``extra``) the further pair cards of resplits
are removed; ``bot.engine.analysis.exact_split`` combines them into the split's value.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.engine.analysis.dealer_graph import STAND_CLASSES, STEP, DealerGraph, stand_class
from bot.engine.analysis.dealer_odds import blackjack_card
from bot.engine.analysis.ev import step
from bot.engine.rules import Rules

#: A continuation policy for hands of three or more cards: hit this (total, soft)?
HitRule = Callable[[int, bool], bool]


def dealer_checks(rules: Rules, up: int) -> bool:
    """Whether the dealer peeks under ``up`` (and so a dealer blackjack ends the round)."""
    if not rules.naturals or not rules.dealer_peeks or not blackjack_card(up):
        return False
    return up == 1 or not rules.peek_ace_only


class DealerTable:
    """What standing is worth against one up card for every set of removed cards
    (memoised by the removed cards and the stand class of the total)."""

    __slots__ = ("_graph", "_memo", "peeked", "rules", "shoe", "up")

    def __init__(self, rules: Rules, up: int, shoe: Sequence[int]) -> None:
        self.rules = rules
        self.up = up
        #: The cards left once the up card is out, by value.
        self.shoe = tuple(shoe)
        self.peeked = dealer_checks(rules, up)
        self._memo: list[dict[int, float]] = [{} for _ in range(STAND_CLASSES)]
        self._graph = DealerGraph(rules, up, shoe)

    def stand(self, key: int, left: Sequence[int], total: int) -> float:
        """Value of standing on ``total`` with the cards of ``key`` removed (``left`` is
        what they leave), after the peek when the dealer checks."""
        memo = self._memo[stand_class(total)]
        found = memo.get(key)
        if found is None:
            found = memo[key] = self._graph.stand_value(
                left, total, after_peek=self.peeked, key=key
            )
        return found


class HandValues:
    """Stand, hit, double and surrender values of hands against one up card.

    ``extra`` are cards out of the shoe besides the up card and the hand (the
    other half of a split pair). ``hits`` fixes the play of hands of three or
    more cards; without it each is played at its best for its exact cards.
    """

    def __init__(
        self,
        table: DealerTable,
        *,
        extra: Sequence[int] = (),
        hits: HitRule | None = None,
    ) -> None:
        self.table = table
        self.rules = table.rules
        self.hits = hits
        left = list(table.shoe)
        key = 0
        for card in extra:
            left[card - 1] -= 1
            key += STEP[card - 1]
        #: The shoe as the hand being valued leaves it (changed and restored while recursing).
        self.left = left
        self.base_key = key
        self._stand: dict[int, float] = {}
        self._hit: dict[int, float] = {}
        self._cont: dict[int, float] = {}
        self._double: dict[int, float] = {}

    # -- the shoe ---------------------------------------------------------------

    def probs(self) -> list[float]:
        """Odds of each value being the next card the player draws."""
        left = self.left
        total = sum(left)
        if not self.table.peeked:
            return [count / total for count in left]
        b = blackjack_card(self.table.up) - 1
        rest = total - left[b]
        scale = (rest - 1) / (rest * (total - 1))
        out = [count * scale for count in left]
        out[b] = left[b] / (total - 1)
        return out

    def enter(self, cards: Sequence[int]) -> int:
        """Take ``cards`` out of the shoe; the key of the hand they make."""
        key = self.base_key
        for card in cards:
            self.left[card - 1] -= 1
            key += STEP[card - 1]
        return key

    def leave(self, cards: Sequence[int]) -> None:
        """Put ``cards`` back (undo ``enter``)."""
        for card in cards:
            self.left[card - 1] += 1

    # -- values of the hand whose cards are out (key) ----------------------------

    def stand(self, key: int, total: int) -> float:
        """Value of standing on ``total``."""
        found = self._stand.get(key)
        if found is None:
            found = self.table.stand(key, self.left, total)
            self._stand[key] = found
        return found

    def surrender(self) -> float:
        """Half the stake back; without the peek a dealer blackjack still takes it all."""
        table = self.table
        b = blackjack_card(table.up) if self.rules.naturals else 0
        if table.peeked or not b:
            return -0.5
        p_blackjack = self.left[b - 1] / sum(self.left)
        return -0.5 * (1.0 - p_blackjack) - p_blackjack

    def double(self, key: int, total: int, soft: bool) -> float:
        """Value of doubling: twice the stake, exactly one more card."""
        found = self._double.get(key)
        if found is None:
            value = self._one_card(key, total, soft, lambda k, t, _: self.stand(k, t))
            found = self._double[key] = 2.0 * value
        return found

    def hit(self, key: int, total: int, soft: bool) -> float:
        """Value of hitting, then playing on by ``hits`` (or at best)."""
        found = self._hit.get(key)
        if found is None:
            found = self._hit[key] = self._one_card(key, total, soft, self.go_on)
        return found

    def _one_card(
        self, key: int, total: int, soft: bool, then: Callable[[int, int, bool], float]
    ) -> float:
        """Value of drawing one card, then ``then(key, total, soft)`` of the new hand."""
        value = 0.0
        left = self.left
        for index, p in enumerate(self.probs()):
            if not p:
                continue
            new, new_soft = step(total, soft, index + 1)
            if new > 21:
                value -= p
                continue
            left[index] -= 1
            value += p * then(key + STEP[index], new, new_soft)
            left[index] += 1
        return value

    def hit_bound(self, total: int, soft: bool) -> float:
        """No hit of the hand (its cards out of the shoe) is worth more: a card that busts
        it loses the stake, any other wins at most the stake. A hit whose bound the
        stand already reaches is not valued: a sixth fewer shoes whose stand value is
        worked out at two decks (67,000 to 56,000)."""
        if soft:
            return 1.0
        return 1.0 - 2.0 * sum(self.probs()[21 - total :])

    def go_on(self, key: int, total: int, soft: bool) -> float:
        """Value of a hand of three or more cards: stand or hit, by ``hits`` or at best."""
        found = self._cont.get(key)
        if found is None:
            if total == 21:
                found = self.stand(key, total)
            elif self.hits is not None:
                if self.hits(total, soft):
                    found = self.hit(key, total, soft)
                else:
                    found = self.stand(key, total)
            elif total <= 11 and not soft:
                found = self.hit(key, total, soft)  # nothing busts it: never stand
            else:
                found = self.stand(key, total)
                if found < self.hit_bound(total, soft):
                    found = max(found, self.hit(key, total, soft))
            self._cont[key] = found
        return found


def hand_total(cards: Sequence[int]) -> tuple[int, bool]:
    """(total, soft) of cards by value, an ace counting 11 when it does not bust."""
    hard = sum(cards)
    if 1 in cards and hard <= 11:
        return hard + 10, True
    return hard, False


def hand_key(values: HandValues, cards: Sequence[int]) -> int:
    """The key of ``cards`` (already out of ``values``' shoe)."""
    return values.base_key + sum(STEP[card - 1] for card in cards)
