"""The dealer's odds for many shoes quickly: the dealer's draws as a graph built once.

``dealer_odds.final_odds`` recurses through the dealer's possible hands for one
shoe. Valuing every hand a player can hold needs those odds for thousands of
shoes that differ by a few cards, so this module lays the dealer's hands out
once per up card (a node for each set of cards the dealer may have drawn while
still drawing, an edge for each next card) and then, for each shoe, pushes the
probability forward through the nodes in order: one multiplication per edge,
no recursion. The odds are the same as ``final_odds`` (the tests compare them).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.dealer_odds import BLACKJACK, BUST, blackjack_card, dealer_must_hit
from bot.engine.rules import Rules

#: One edge: (card index, cards of that value the dealer already holds, child node
#: or -1, outcome index when the child is -1).
Edge = tuple[int, int, int, int]


class DealerGraph:
    """The dealer's draws against one up card, for shoes no larger than ``shoe``."""

    __slots__ = ("depth", "edges", "hole", "root")

    def __init__(self, rules: Rules, up: int, shoe: Sequence[int]) -> None:
        self.hole = blackjack_card(up) if rules.naturals else 0
        index: dict[tuple[int, ...], int] = {}
        states: list[tuple[tuple[int, ...], int, bool]] = []
        depth: list[int] = []
        edges: list[list[Edge]] = []

        def follow(drawn: tuple[int, ...], hard: int, ace: bool, card: int) -> tuple[int, int]:
            """(child node, -1) or (-1, outcome) after the dealer draws ``card``."""
            counts = list(drawn)
            counts[card - 1] += 1
            new_hard, new_ace = hard + card, ace or card == 1
            total, soft = (new_hard + 10, True) if new_ace and new_hard <= 11 else (new_hard, False)
            if total > 21:
                return -1, BUST
            if not dealer_must_hit(total, soft, rules):
                return -1, total - 17
            key = tuple(counts)
            found = index.get(key)
            if found is None:
                found = index[key] = len(states)
                states.append((key, new_hard, new_ace))
                depth.append(sum(key))
                edges.append([])
            return found, -1

        # The hole card: a blackjack is its own outcome (or, after the peek, impossible).
        zero = (0,) * 10
        root: list[Edge] = []
        for card in range(1, 11):
            if not shoe[card - 1]:
                continue
            if card == self.hole:
                root.append((card - 1, 0, -1, BLACKJACK))
                continue
            child, outcome = follow(zero, up, up == 1, card)
            root.append((card - 1, 0, child, outcome))
        self.root = root
        # Nodes are made in order of cards drawn, so every edge points forward.
        node = 0
        while node < len(states):
            drawn, hard, ace = states[node]
            for card in range(1, 11):
                if drawn[card - 1] < shoe[card - 1]:
                    child, outcome = follow(drawn, hard, ace, card)
                    edges[node].append((card - 1, drawn[card - 1], child, outcome))
            node += 1
        self.depth = depth
        self.edges = edges

    def odds(self, left: Sequence[int], *, after_peek: bool) -> list[float]:
        """Odds (``OUTCOMES`` order) for a shoe of ``left``; ``after_peek`` conditions
        on the hole card not making a blackjack."""
        in_shoe = sum(left)
        out = [0.0] * 7
        prob = [0.0] * len(self.edges)
        hole = self.hole
        first = in_shoe - left[hole - 1] if after_peek and hole else in_shoe
        for card, _, child, outcome in self.root:
            count = left[card]
            if not count:
                continue
            if outcome == BLACKJACK:
                if not after_peek:
                    out[BLACKJACK] += count / first
                continue
            if child < 0:
                out[outcome] += count / first
            else:
                prob[child] += count / first
        depth = self.depth
        for node, node_edges in enumerate(self.edges):
            p = prob[node]
            if not p:
                continue
            share = p / (in_shoe - depth[node])
            for card, held, child, outcome in node_edges:
                count = left[card] - held
                if count > 0:
                    if child < 0:
                        out[outcome] += share * count
                    else:
                        prob[child] += share * count
        return out
