"""``--seed``: one rule for every tool that takes a seed (play, simulate, verify).

A seed is 64 hex digits (32 bytes), as the tools print them: a shoe's seed is that long, so
a seed ``play`` or the bot reveals is one ``verify`` and a replay take as it is.
"""

from __future__ import annotations

import argparse

from bot.engine import SEED_BYTES

#: The rule, as each tool's help says it.
SEED_RULE = f"{2 * SEED_BYTES} hex digits ({SEED_BYTES} bytes)"


def seed_bytes(text: str) -> bytes:
    """argparse ``type=`` for ``--seed``: the seed's bytes, or a refusal that says the rule."""
    try:
        seed = bytes.fromhex(text)
    except ValueError:
        seed = b""
    if len(seed) != SEED_BYTES:
        raise argparse.ArgumentTypeError(f"a seed is {SEED_RULE}, not {text!r}")
    return seed


def add_seed_flag(parser: argparse.ArgumentParser, use: str, *, required: bool = False) -> None:
    """``--seed`` with the one rule, and ``use`` (what the tool does with it) in its help."""
    parser.add_argument(
        "--seed",
        type=seed_bytes,
        required=required,
        metavar="HEX",
        help=f"{SEED_RULE}: {use}",
    )
