"""Start the Discord bot. Until the Discord side exists, this starts the terminal table."""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--preset", default="vegas-shoe", help="rules for the terminal table")


def run(args: argparse.Namespace) -> int:
    print(
        "The Discord side is not built yet: starting the terminal table instead "
        "(python -m bot play).",
        file=sys.stderr,
    )
    from bot.cli import play

    return play.run(argparse.Namespace(preset=args.preset, hands=1, seed=None, chips=1000))
