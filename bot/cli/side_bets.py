"""``python -m bot side-bets``: the exact house edge of each side bet's known pay tables."""

from __future__ import annotations

import argparse
import json

from bot.cli.rule_flags import add_rule_flags, rules_or_exit
from bot.engine.analysis import known_side_bet_edges


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_rule_flags(parser)
    parser.add_argument(
        "--json",
        action="store_true",
        help='print [{"bet": "21+3", "pay_table": "9", "house_edge_pct": ...}, ...]',
    )


def run(args: argparse.Namespace) -> int:
    rules = rules_or_exit(args, deals_to_cut=False)
    edges = known_side_bet_edges(rules.decks, rules.dealer_hits_soft_17)
    if args.json:
        print(json.dumps([edge.to_dict() for edge in edges]))
        return 0
    decks = "1 deck" if rules.decks == 1 else f"{rules.decks} decks"
    soft17 = "hits" if rules.dealer_hits_soft_17 else "stands on"
    print(
        f"House edge of each side bet off the top of a fresh shoe of {decks}, "
        f"the dealer {soft17} soft 17 (Buster depends on it):"
    )
    width = max(len(edge.pay_table) for edge in edges)
    for edge in edges:
        print(f"  {edge.bet:<14} {edge.pay_table:<{width}}  {edge.house_edge_pct:7.3f}%")
    return 0
