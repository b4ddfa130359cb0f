"""``python -m bot verify --seed HEX [--decks N]``: check a revealed shoe seed.

Prints the seed's commitment (the SHA-256 the table published before dealing) and the
order of the shoe it shuffles to, so anyone can compare both with what was dealt.
"""

from __future__ import annotations

import argparse
import sys

from bot.cli.seed_flag import add_seed_flag
from bot.engine import commitment, continuation_seed, shuffled_order

#: A round runs a shoe dry rarely; a few continuations are plenty, thousands a mistake.
MAX_CONTINUATIONS = 100


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_seed_flag(parser, "the revealed seed", required=True)
    parser.add_argument("--decks", type=int, default=6, help="decks in the shoe (1-8, default 6)")
    parser.add_argument(
        "--continuations",
        type=int,
        default=0,
        help="also print this many continuation shoes (used when a round ran the shoe dry), "
        f"0 to {MAX_CONTINUATIONS}",
    )


def run(args: argparse.Namespace) -> int:
    seed: bytes = args.seed
    if not 0 <= args.continuations <= MAX_CONTINUATIONS:
        print(
            f"error: --continuations must be 0 to {MAX_CONTINUATIONS}, not {args.continuations}",
            file=sys.stderr,
        )
        return 2
    if not 1 <= args.decks <= 8:
        print(f"error: --decks must be 1 to 8, not {args.decks}", file=sys.stderr)
        return 2
    print(f"seed:       {seed.hex()}")
    print(f"commitment: {commitment(seed)}  (sha256 of the seed)")
    print(f"decks:      {args.decks}")
    for number in range(args.continuations + 1):
        shoe_seed = continuation_seed(seed, number)
        order = shuffled_order(shoe_seed, args.decks)
        title = "shoe order" if number == 0 else f"continuation {number} (seed {shoe_seed.hex()})"
        print(f"{title}, first card dealt first:")
        for start in range(0, len(order), 13):
            row = order[start : start + 13]
            print(f"  {start + 1:>3}: " + " ".join(f"{card!s:>3}" for card in row))
    return 0
