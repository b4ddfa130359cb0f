"""``/blackjack rules`` and ``/blackjack fairness`` in plain words (pure text, no Discord)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import Rules
from bot.rules_words import rules_lines
from bot.tables.fairness import Fairness
from bot.tables.play_words import NO_VALUE_NOTICE

#: What kind of game each preset deals, finishing the sentence "This table deals ...".
_GAMES: dict[str, str] = {
    "vegas-shoe": "the common modern game: a six-deck shoe, as most casinos deal it today",
    "classic": "the classic terminal game: one player with one to seven hands",
    "simple": "a simple group game: hit or stand, and every win pays even money",
    "reno-1972": "the game of Unix's bj program from 1972: one deck and a fixed bet",
    "single-deck": "a single-deck casino game where the dealer hits soft 17",
}


def rules_text(preset: str, rules: Rules, edge_pct: float, side_bets: Sequence[str] = ()) -> str:
    """The whole ``/blackjack rules`` answer (``side_bets``: a line per side bet on)."""
    game = _GAMES.get(preset, f"the {preset} rules")
    heading = f"**Table rules: {preset}**\nThis table deals {game}."
    who = "the house" if edge_pct >= 0 else "you"
    edge = (
        f"House edge with perfect basic strategy: **{abs(edge_pct):.2f}%** of your bet "
        f"in favour of {who}, for a fresh shoe every round"
        + (" (dealt to a cut card it differs a little)" if rules.penetration else "")
        + ". Press Hint at the table for what each choice is worth."
    )
    lines = [heading, *(f"• {line}" for line in rules_lines(rules)), "", edge]
    if side_bets:
        lines += ["", "**Side bets** (house edge off the top of a fresh shoe)"]
        lines += [f"• {line}" for line in side_bets]
    return "\n".join([*lines, "", NO_VALUE_NOTICE])


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
