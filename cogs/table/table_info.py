"""``/blackjack rules`` and ``/blackjack fairness`` in plain words (pure text, no Discord)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import Rules
from bot.i18n import Figure, Text, _, joined, n_
from bot.rule_sentences import rules_lines
from bot.tables.fairness import Fairness
from bot.tables.play_words import NO_VALUE_NOTICE

#: What kind of game each preset deals.
_GAMES: dict[str, Text] = {
    "vegas-shoe": _(
        "This table deals the common modern game: a six-deck shoe, as most casinos deal it today."
    ),
    "classic": _("This table deals the classic terminal game: one player with one to seven hands."),
    "simple": _(
        "This table deals a simple group game: hit or stand, and every win pays even money."
    ),
    "reno-1972": _(
        "This table deals the game of Unix's bj program from 1972: one deck and a fixed bet."
    ),
    "single-deck": _("This table deals a single-deck casino game where the dealer hits soft 17."),
}


def _edge(rules: Rules, edge_pct: float) -> Text:
    """The house edge in a sentence: whom it favours, and whether a cut card changes it."""
    edge = Figure(abs(edge_pct), "0.00")
    if edge_pct >= 0:
        if rules.penetration:
            return _(
                "House edge with perfect basic strategy: **{edge}%** of your bet in favour of "
                "the house, for a fresh shoe every round (dealt to a cut card it differs a "
                "little). Press Hint at the table for what each choice is worth.",
                edge=edge,
            )
        return _(
            "House edge with perfect basic strategy: **{edge}%** of your bet in favour of "
            "the house, for a fresh shoe every round. Press Hint at the table for what each "
            "choice is worth.",
            edge=edge,
        )
    if rules.penetration:
        return _(
            "House edge with perfect basic strategy: **{edge}%** of your bet in favour of "
            "you, for a fresh shoe every round (dealt to a cut card it differs a little). "
            "Press Hint at the table for what each choice is worth.",
            edge=edge,
        )
    return _(
        "House edge with perfect basic strategy: **{edge}%** of your bet in favour of "
        "you, for a fresh shoe every round. Press Hint at the table for what each choice "
        "is worth.",
        edge=edge,
    )


def rules_text(preset: str, rules: Rules, edge_pct: float, side_bets: Sequence[str] = ()) -> Text:
    """The whole ``/blackjack rules`` answer (``side_bets``: a line per side bet on)."""
    game = _GAMES.get(preset) or _("This table deals the {preset} rules.", preset=preset)
    text = _(
        "**Table rules: {preset}**\n{game}\n{rules}\n\n{edge}",
        preset=preset,
        game=game,
        rules=joined([_("• {rule}", rule=line) for line in rules_lines(rules)], "\n"),
        edge=_edge(rules, edge_pct),
    )
    if side_bets:
        text = _(
            "{rules}\n\n**Side bets** (house edge off the top of a fresh shoe)\n{side_bets}",
            rules=text,
            side_bets=joined([_("• {rule}", rule=line) for line in side_bets], "\n"),
        )
    return _("{rules}\n\n{notice}", rules=text, notice=NO_VALUE_NOTICE)


def fairness_text(fairness: Fairness) -> Text:
    """The ``/blackjack fairness`` answer: what was committed, what was revealed, how to check."""
    current = n_(
        "Current shoe ({count} deck): commitment `{commitment}`",
        "Current shoe ({count} decks): commitment `{commitment}`",
        fairness.decks,
        count=fairness.decks,
        commitment=fairness.commitment,
    )
    if fairness.previous_seed and fairness.previous_commitment:
        previous = _(
            "Previous shoe: commitment `{commitment}`\nits seed: `{seed}`\nCheck it: `{command}`",
            commitment=fairness.previous_commitment,
            seed=fairness.previous_seed,
            command=fairness.verify_command,
        )
    else:
        previous = _("No shoe has been replaced at this table yet: nothing revealed so far.")
    return _(
        "**Provably fair shuffle**\n"
        "Each shoe is shuffled from a random seed. Before the first card is dealt, the "
        "table publishes the SHA-256 of that seed; when the shoe is replaced, the seed is "
        "revealed, so anyone can check the cards dealt were the cards committed to.\n"
        "{current}\n{previous}",
        current=current,
        previous=previous,
    )
