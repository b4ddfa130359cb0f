"""A table's rules in plain sentences (pure text): for ``/blackjack rules`` and ``play``."""

from __future__ import annotations

from bot.engine import Rules

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
