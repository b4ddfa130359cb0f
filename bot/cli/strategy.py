"""``python -m bot strategy``: print basic strategy for a preset and rule flags."""

from __future__ import annotations

import argparse
import sys

from bot.cli.rule_flags import add_rule_flags, rules_or_exit
from bot.engine.analysis import chart_for


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_rule_flags(parser)
    parser.add_argument(
        "--csv", action="store_true", help="print CSV in the format of the published charts"
    )


def run(args: argparse.Namespace) -> int:
    rules = rules_or_exit(args)
    chart = chart_for(rules)
    if args.csv:
        sys.stdout.write(chart.to_csv())
    else:
        sys.stdout.write(chart.to_text())
    return 0
