"""``/blackjack rules`` and ``/blackjack fairness`` in plain words (pure text, no Discord)."""

from __future__ import annotations

from functools import lru_cache

from bot.engine import MAX_BET_CEILING, PRESET_SOURCES, Rules, house_edge
from bot.rules_words import rules_lines
from bot.tables.fairness import Fairness


def house_edge_pct(rules: Rules) -> float:
    """The house edge of basic strategy in percent (about a second, so cached per rule set)."""
    # Bet limits and seat counts do not change the edge: one cache entry per game.
    return _edge(rules.replace(min_bet=1, max_bet=MAX_BET_CEILING, max_spots=1, max_players=1))


@lru_cache(maxsize=64)
def _edge(rules: Rules) -> float:
    return house_edge(rules).house_edge_pct


def rules_text(preset: str, rules: Rules, edge_pct: float) -> str:
    """The whole ``/blackjack rules`` answer."""
    source = PRESET_SOURCES.get(preset)
    heading = f"**Table rules: {preset}**" + (f" ({source})" if source else "")
    who = "the house" if edge_pct >= 0 else "you"
    edge = (
        f"House edge with perfect basic strategy: **{abs(edge_pct):.2f}%** of your bet "
        f"in favour of {who}. Press Hint at the table for the basic-strategy play."
    )
    return "\n".join([heading, *(f"• {line}" for line in rules_lines(rules)), "", edge])


def fairness_text(fairness: Fairness) -> str:
    """The ``/blackjack fairness`` answer: what was committed, what was revealed, how to check."""
    lines = [
        "**Provably fair shuffle**",
        "Each shoe is shuffled from a random seed. Before the first card is dealt, the "
        "table publishes the SHA-256 of that seed; when the shoe is replaced, the seed is "
        "revealed, so anyone can check the cards dealt were the cards committed to.",
        f"Current shoe ({fairness.decks} deck{'s' if fairness.decks > 1 else ''}): "
        f"commitment `{fairness.commitment}`",
    ]
    if fairness.previous_seed and fairness.previous_commitment:
        lines += [
            f"Previous shoe: commitment `{fairness.previous_commitment}`",
            f"its seed: `{fairness.previous_seed}`",
            f"Check it: `{fairness.verify_command}`",
        ]
    else:
        lines.append("No shoe has been replaced at this table yet: nothing revealed so far.")
    return "\n".join(lines)
