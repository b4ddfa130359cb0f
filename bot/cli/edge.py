"""``python -m bot edge``: the house edge of basic strategy, computed (no simulation)."""

from __future__ import annotations

import argparse
import json

from bot.cli.rule_flags import add_rule_flags, rules_or_exit
from bot.engine.analysis import house_edge


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_rule_flags(parser)
    parser.add_argument(
        "--json", action="store_true", help='print {"house_edge_pct": ..., "rules": {...}}'
    )


def run(args: argparse.Namespace) -> int:
    rules = rules_or_exit(args)
    edge = house_edge(rules)
    if args.json:
        print(json.dumps(edge.to_dict()))
        return 0
    who = "house" if edge.house_edge_pct >= 0 else "player"
    decks = f"{rules.decks} deck{'s' if rules.decks > 1 else ''}"
    if rules.penetration == 0:
        dealt = f"{decks}, a fresh shoe every round."
    else:
        # The computation always deals each round from a full shoe (bot.engine.analysis.edge).
        dealt = (
            f"{decks}, computed for a full shoe each round; these rules deal to a cut card "
            f"at {rules.penetration:.0%}, where the edge differs (about +0.02 points at six "
            "decks, more at one deck): `python -m bot simulate` measures it, with its "
            "confidence interval."
        )
    print(
        f"House edge of basic strategy: {edge.house_edge_pct:.3f}% of the first bet "
        f"({who}'s advantage), {dealt}"
    )
    return 0
