"""A basic-strategy chart flattened for the per-decision lookup: ``ChartLookup``.

``strategy`` works a chart out (``Chart``) and says what it advises for a hand
(``strategy.advise``); this module is how that answer is read fast. The simulator
asks millions of times, so a decision is two list lookups and, for the Round's
prebuilt frozensets of legal actions, one dict lookup remembered per cell. It is
its own module so that the compiled (mypyc) build compiles it with the simulator,
while the chart's computation stays interpreted.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Final

from bot.engine.actions import Action
from bot.engine.cards import RANK_VALUES, Card

#: Rows of the flat table: hard totals at their total, soft at 22 + total, pairs at 44 + value.
_SOFT: Final = 22
_PAIR: Final = 44
_ROWS: Final = 55
_HAND_DECISIONS: Final = frozenset({Action.HIT, Action.STAND})


class ChartLookup:
    """The decisions of one chart, by hand and up card."""

    __slots__ = ("_by_rank", "_memo", "_orders")

    def __init__(
        self, chart_orders: Mapping[tuple[str, int, int], tuple[Action, ...]], *, by_rank: bool
    ) -> None:
        """``chart_orders``: a chart's cells, (section, row, up card) -> actions in order of
        preference (``Chart.orders``); ``by_rank``: pairs split by rank, not value."""
        self._by_rank = by_rank
        orders: list[tuple[Action, ...]] = [()] * (_ROWS * 11)
        for (section, row, up), order in chart_orders.items():
            base = _PAIR if section == "pair" else _SOFT if section == "soft" else 0
            orders[(base + row) * 11 + up] = order
        self._orders = orders
        self._memo: list[dict[frozenset[Action], Action]] = [{} for _ in orders]

    def advise(
        self, hand_cards: Sequence[Card], dealer_up: Card, legal: Collection[Action]
    ) -> Action:
        """The first action of the hand's cell that ``legal`` allows (see ``strategy.advise``)."""
        up = RANK_VALUES[dealer_up[0]]
        if len(hand_cards) == 2:
            first, second = hand_cards[0][0], hand_cards[1][0]
            if first == second or (not self._by_rank and RANK_VALUES[first] == RANK_VALUES[second]):
                return self._choose((_PAIR + RANK_VALUES[first]) * 11 + up, legal)
        hard = 0
        ace = False
        for card in hand_cards:
            rank = card[0]
            hard += RANK_VALUES[rank]
            ace = ace or rank == 1
        if ace and hard <= 11:
            return self._choose((_SOFT + max(hard + 10, 12)) * 11 + up, legal)
        return self._choose(max(hard, 4) * 11 + up, legal)

    def _choose(self, cell: int, legal: Collection[Action]) -> Action:
        if isinstance(legal, frozenset):
            memo = self._memo[cell]
            action = memo.get(legal)
            if action is None:
                action = memo[legal] = self._walk(cell, legal)
            return action
        return self._walk(cell, legal)

    def _walk(self, cell: int, legal: Collection[Action]) -> Action:
        if _HAND_DECISIONS.isdisjoint(legal):
            # The insurance question: basic strategy never insures.
            if Action.NO_INSURANCE in legal:
                return Action.NO_INSURANCE
            raise ValueError(f"no hand decision among the legal actions {sorted(legal)}")
        for action in self._orders[cell]:
            if action in legal:
                return action
        raise ValueError(f"none of the legal actions {sorted(legal)} is in the chart")
