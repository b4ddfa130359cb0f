"""Deal rounds from a stacked shoe: say each hand's cards and the dealer's, and the
helper puts them in casino order (first cards, dealer up card, second cards, hole card)
followed by the cards drawn later."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from bot.engine import Round, Rules, StackedShoe, parse_cards

RULES_DIR = Path(__file__).parent.parent / "data" / "rules"


def rule_text(name: str) -> str:
    """The rule text a preset follows, as copied into tests/data/rules/."""
    return (RULES_DIR / name).read_text(encoding="utf-8")


def stack(hands: Sequence[str], dealer: str, draws: str = "") -> StackedShoe:
    """A shoe that deals ``hands`` (one "A♠ K♦" text per spot) and ``dealer``, then ``draws``."""
    spots = [parse_cards(hand) for hand in hands]
    up, hole = parse_cards(dealer)
    order = [spot[0] for spot in spots] + [up] + [spot[1] for spot in spots] + [hole]
    return StackedShoe(order + parse_cards(draws))


def deal(
    rules: Rules,
    hands: Sequence[str],
    dealer: str,
    draws: str = "",
    *,
    stakes: Sequence[int] | None = None,
    players: Sequence[tuple[str, int]] | None = None,
) -> Round:
    """Deal a round. ``players`` is (name, number of spots) in seat order; by default
    alice plays every hand. ``stakes`` gives each spot's stake (default: the minimum)."""
    stakes = list(stakes) if stakes is not None else [rules.min_bet] * len(hands)
    players = list(players) if players is not None else [("alice", len(hands))]
    bets: list[tuple[str, list[int]]] = []
    taken = 0
    for name, count in players:
        bets.append((name, stakes[taken : taken + count]))
        taken += count
    return Round.deal(rules, stack(hands, dealer, draws), bets)
