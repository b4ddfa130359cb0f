"""Rule flags for ``strategy``, ``edge`` and ``simulate``: a preset, changed field by field."""

from __future__ import annotations

import argparse
import functools
import re
import sys
from typing import Any, NoReturn

from bot.engine import DECK_COUNTS, PRESETS, Rules, RulesError, preset

#: The preset every command line tool starts from (play, strategy, edge, simulate), the
#: same as a new server's tables.
DEFAULT_PRESET = "vegas-shoe"
#: flag value -> Rules field value, for the flags that are not plain numbers or switches.
_SOFT17 = {"hit": True, "stand": False}
#: Rules field -> the flag that sets it, so a refusal names what the user typed.
_FLAG_OF = {
    "decks": "--decks",
    "dealer_hits_soft_17": "--soft17",
    "blackjack_pays": "--blackjack-pays",
    "double_after_split": "--das",
    "surrender": "--surrender",
    "double_on": "--double",
    "max_hands": "--max-hands",
    "resplit_aces": "--resplit-aces",
    "hit_split_aces": "--hit-split-aces",
    "dealer_peeks": "--peek",
    "penetration": "--penetration",
}
_FIELD = re.compile(r"\b(" + "|".join(_FLAG_OF) + r")\b")


def in_flag_words(message: str) -> str:
    """A Rules refusal with each field named by its flag (``max_hands`` -> ``--max-hands``)."""
    return _FIELD.sub(lambda match: _FLAG_OF[match.group(1)], message)


def add_rule_flags(
    parser: argparse.ArgumentParser, *, default_preset: str = DEFAULT_PRESET
) -> None:
    """Add ``--preset`` and one flag per rule; a flag left out keeps the preset's value."""
    group = parser.add_argument_group("rules", "start from a preset; each flag overrides one rule")
    # A rule that is on or off: --flag or --no-flag; left out, the preset's.
    switch = functools.partial(
        group.add_argument, action=argparse.BooleanOptionalAction, default=None
    )
    group.add_argument(
        "--preset",
        default=default_preset,
        choices=sorted(PRESETS),
        help=f"the rule set to start from (default {default_preset})",
    )
    group.add_argument("--decks", type=int, metavar="N", help="decks in the shoe, 1 to 8")
    group.add_argument(
        "--soft17", choices=sorted(_SOFT17), help="the dealer hits or stands on soft 17"
    )
    group.add_argument(
        "--blackjack-pays", choices=("3:2", "6:5", "1:1", "2:1"), help="what a natural pays"
    )
    switch("--das", help="double after split")
    group.add_argument("--surrender", choices=("none", "late"), help="late surrender or none")
    group.add_argument(
        "--double",
        choices=("any", "9-11", "10-11", "none"),
        help="which first two cards may double",
    )
    group.add_argument("--max-hands", type=int, metavar="N", help="most hands a spot splits into")
    switch("--resplit-aces", help="split aces may be split again")
    switch("--hit-split-aces", help="split aces may take more than one card")
    switch(
        "--peek",
        help="dealer checks for blackjack (without: a dealer blackjack takes doubles, splits)",
    )
    switch(
        "--peek-ace-only", help="the dealer checks for blackjack under an ace only, not under a ten"
    )
    group.add_argument(
        "--penetration",
        type=float,
        metavar="F",
        help="share of the shoe dealt before the cut card; 0 = a fresh shoe every round",
    )


def rules_from_args(args: argparse.Namespace, *, deals_to_cut: bool = True) -> Rules:
    """The preset named by ``args.preset`` with every given flag applied; RulesError if invalid.

    ``deals_to_cut`` is False for a tool that never deals a shoe (``ev``): a cut card moved
    up for fewer decks goes without a note then."""
    base = preset(args.preset)
    changes: dict[str, Any] = {}
    if args.decks is not None:
        changes["decks"] = args.decks
    if args.soft17 is not None:
        changes["dealer_hits_soft_17"] = _SOFT17[args.soft17]
    if args.blackjack_pays is not None:
        changes["blackjack_pays"] = args.blackjack_pays
    if args.das is not None:
        changes["double_after_split"] = args.das
    if args.surrender is not None:
        changes["surrender"] = args.surrender
    if args.double is not None:
        changes["double_on"] = args.double
    if args.max_hands is not None:
        changes["max_hands"] = args.max_hands
    if args.resplit_aces is not None:
        changes["resplit_aces"] = args.resplit_aces
    if args.hit_split_aces is not None:
        changes["hit_split_aces"] = args.hit_split_aces
    if args.peek is not None:
        changes["dealer_peeks"] = args.peek
        if not args.peek:
            changes["peek_ace_only"] = False  # no peek at all
    if args.peek_ace_only is not None:
        changes["peek_ace_only"] = args.peek_ace_only
    if args.penetration is not None:
        changes["penetration"] = args.penetration
    elif args.decks in DECK_COUNTS and base.penetration > Rules.deepest_penetration(args.decks):
        # The preset's cut card, not the user, is too deep for fewer decks: move it up, and
        # say so (a flag the user gave is never changed). Decks out of range are refused
        # by Rules, with no note first.
        changes["penetration"] = Rules.deepest_penetration(args.decks)
        if deals_to_cut:
            print(
                f"note: {args.preset} deals to a cut card at {base.penetration:.0%}, too deep "
                f"for {args.decks} deck{'s' if args.decks > 1 else ''}; using "
                f"{changes['penetration']:.0%} (--penetration sets another)",
                file=sys.stderr,
            )
    return base.replace(**changes) if changes else base


def rules_or_exit(args: argparse.Namespace, *, deals_to_cut: bool = True) -> Rules:
    """``rules_from_args``, or Rules' message on stderr and exit code 2 (as argparse does)."""
    try:
        return rules_from_args(args, deals_to_cut=deals_to_cut)
    except RulesError as exc:
        _exit_with(in_flag_words(str(exc)))


def _exit_with(message: str) -> NoReturn:
    print(f"python -m bot: error: {message}", file=sys.stderr)
    raise SystemExit(2)
