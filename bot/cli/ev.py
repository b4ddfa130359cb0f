"""``python -m bot ev``: what each legal action is worth for one exact hand."""

from __future__ import annotations

import argparse
import json
import sys

from bot.cli.rule_flags import add_rule_flags, rules_or_exit
from bot.engine.analysis import decision_values, decision_words

#: How a card may be written on the command line: A, 2-9, T/10, J, Q, K.
_CARD_VALUES = {"A": 1, "T": 10, "10": 10, "J": 10, "Q": 10, "K": 10} | {
    str(n): n for n in range(1, 10)
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--hand", required=True, metavar="CARDS", help="the player's cards, e.g. 10,6 or A,7"
    )
    parser.add_argument("--up", required=True, metavar="CARD", help="the dealer's up card, e.g. T")
    add_rule_flags(parser)
    parser.add_argument(
        "--json",
        action="store_true",
        help='print {"values": {action: chips won per chip bet}, "best": ...}',
    )


def card_value(text: str) -> int:
    """The blackjack value of a card written A, 2-9, T, 10, J, Q or K."""
    try:
        return _CARD_VALUES[text.strip().upper()]
    except KeyError:
        raise argparse.ArgumentTypeError(
            f"{text.strip()!r} is not a card: use A, 2-9, T (or 10, J, Q, K)"
        ) from None


def run(args: argparse.Namespace) -> int:
    rules = rules_or_exit(args, deals_to_cut=False)  # one hand, from a full shoe
    try:
        ranks = [part.strip().upper() for part in args.hand.split(",")]
        cards = [card_value(rank) for rank in ranks]
        up = card_value(args.up)
    except argparse.ArgumentTypeError as exc:
        print(f"python -m bot: error: {exc}", file=sys.stderr)
        return 2
    if len(cards) < 2 or sum(cards) > 21:
        print(
            "python -m bot: error: a hand to decide is two or more cards totalling 21 or less",
            file=sys.stderr,
        )
        return 2
    # Split by rank: a ten and a king are not a pair.
    pair = len(ranks) == 2 and (ranks[0] == ranks[1] or rules.split_by == "value")
    values = decision_values(rules, cards, up, pair=pair and cards[0] == cards[1])
    best = max(values, key=lambda action: values[action])
    if args.json:
        out = {"values": {a.value: v for a, v in values.items()}, "best": best.value}
        print(json.dumps(out))
        return 0
    print(decision_words(values))
    return 0
