"""``/blackjack rules`` and ``/blackjack fairness`` in plain words (pure text, no Discord)."""

from __future__ import annotations

from bot.engine import PRESET_SOURCES, Rules
from bot.tables.fairness import Fairness

_DOUBLE: dict[str, str] = {
    "any": "on any first two cards",
    "9-11": "on a first-two-card total of 9, 10 or 11",
    "10-11": "on a first-two-card total of 10 or 11",
    "none": "never",
}


def rules_lines(rules: Rules) -> list[str]:
    """One short sentence per rule, the way a dealer would explain the table."""
    decks = "One deck" if rules.decks == 1 else f"{rules.decks} decks"
    if rules.penetration:
        shuffle = f"reshuffled after {round(rules.penetration * 100)}% is dealt (announced)"
    else:
        shuffle = "shuffled fresh every round"
    lines = [
        f"{decks}, {shuffle}.",
        "The dealer " + ("hits" if rules.dealer_hits_soft_17 else "stands on") + " soft 17.",
    ]
    if rules.naturals:
        lines.append(f"Blackjack pays {rules.blackjack_pays}.")
    else:
        lines.append("A two-card 21 is just 21: every win pays 1:1.")
    if rules.naturals:
        lines.append(
            (
                "The dealer checks for blackjack under an ace (not a ten) before you act."
                if rules.peek_ace_only
                else "The dealer checks for blackjack before you act."
            )
            if rules.dealer_peeks
            else "No hole-card check: a dealer blackjack also takes doubles and splits."
        )
    if rules.insurance:
        lines.append("Insurance (half your bet) is offered on a dealer ace and pays 2:1.")
    if rules.hit_stand_only:
        lines.append("Hit and stand only: no doubling, splitting, surrender or insurance.")
    else:
        double = _DOUBLE[rules.double_on]
        if rules.double_on != "none":
            after = "allowed" if rules.double_after_split else "not allowed"
            lines.append(f"Double {double}; after a split {after}.")
        if rules.split_by != "none":
            pairs = "equal ranks" if rules.split_by == "rank" else "equal values (10-J-Q-K)"
            aces = "Split aces get one card each"
            if rules.hit_split_aces:
                aces = "Split aces may be hit"
            if rules.resplit_aces:
                aces += " and may be split again"
            lines.append(f"Split {pairs} up to {rules.max_hands} hands. {aces}.")
            lines.append("21 on a split hand is not a blackjack.")
        lines.append(
            "Late surrender: give up half your bet on your first two cards."
            if rules.surrender == "late"
            else "No surrender."
        )
    bets = (
        f"Every bet is {rules.min_bet:,}"
        if rules.min_bet == rules.max_bet
        else f"Bets {rules.min_bet:,} to {rules.max_bet:,}"
    )
    lines.append(
        f"{bets} a hand; up to {rules.max_spots} "
        f"hand{'s' if rules.max_spots > 1 else ''} each, {rules.max_players} "
        f"player{'s' if rules.max_players > 1 else ''} a table."
    )
    return lines


def rules_text(preset: str, rules: Rules, edge_pct: float) -> str:
    """The whole ``/blackjack rules`` answer."""
    source = PRESET_SOURCES.get(preset)
    heading = f"**Table rules: {preset}**" + (f" ({source})" if source else "")
    who = "the house" if edge_pct >= 0 else "you"
    edge = (
        f"House edge with perfect basic strategy: **{abs(edge_pct):.2f}%** of your bet "
        f"in favour of {who}, for a fresh shoe every round"
        + (" (dealt to a cut card it differs a little)" if rules.penetration else "")
        + ". Press Hint at the table for what each choice is worth."
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
