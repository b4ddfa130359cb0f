"""Seconds to work out a chart and edge from nothing, per rule set, side by side.

    .venv/bin/python bench/exact_speed.py [--repeat R] [--compare-recursion]

For each rule set: the chart (``chart_for``) and the house edge of a fresh shoe
(``house_edge``), every cache emptied first, so the figure is what a table's first
Hint waits for in the worker. ``--compare-recursion`` also times the same work with
the dealer's odds from ``final_odds`` (one recursion per shoe) instead of the
dealer graph, in the same run, for the ratio.
"""

from __future__ import annotations

import argparse
import time

from bot.engine import Rules, chart_for, exact, exact_play, house_edge, strategy
from bot.engine.dealer_graph import stand_class, worth
from bot.engine.dealer_odds import final_odds

RULE_SETS = {
    "1D S17": Rules(decks=1, penetration=0),
    "1D H17": Rules(decks=1, penetration=0, dealer_hits_soft_17=True),
    "2D S17": Rules(decks=2, penetration=0),
    "2D H17": Rules(decks=2, penetration=0, dealer_hits_soft_17=True),
    "6D S17": Rules(decks=6, penetration=0),
    "8D H17": Rules(decks=8, penetration=0, dealer_hits_soft_17=True),
}


def _empty_caches() -> None:
    exact_play.dealer_table.cache_clear()
    strategy.chart_for.cache_clear()
    strategy._chart_for_key.cache_clear()


def _recursion_stand(self: exact.DealerTable, key: int, left: list[int], total: int) -> float:
    memo = self._memo[stand_class(total)]
    found = memo.get(key)
    if found is None:
        odds = final_odds(self.up, left, self.rules, after_peek=self.peeked)
        cls = stand_class(total)
        found = memo[key] = sum(worth(cls, outcome) * p for outcome, p in enumerate(odds))
    return found


def seconds(rules: Rules) -> tuple[float, float]:
    _empty_caches()
    start = time.perf_counter()
    chart_for(rules)
    edge = house_edge(rules).house_edge_pct
    return time.perf_counter() - start, edge


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--compare-recursion", action="store_true")
    args = parser.parse_args()
    graph_stand = exact.DealerTable.stand
    for name, rules in RULE_SETS.items():
        for _ in range(args.repeat):
            took, edge = seconds(rules)
            line = f"{name}: {took:6.2f} s  edge {edge:+.4f}%"
            if args.compare_recursion and rules.decks <= exact_play.EXACT_MAX_DECKS:
                exact.DealerTable.stand = _recursion_stand  # type: ignore[method-assign]
                try:
                    slow, _ = seconds(rules)
                finally:
                    exact.DealerTable.stand = graph_stand  # type: ignore[method-assign]
                line += f"  (recursion {slow:6.2f} s, graph/recursion {took / slow:.2f})"
            print(line, flush=True)


if __name__ == "__main__":
    main()
