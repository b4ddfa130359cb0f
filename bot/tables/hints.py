"""The Hint button: basic strategy for a hand, said in one short sentence."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Final

from bot.engine import Action, Card, Hand, Rules
from bot.engine.analysis import advise

_VERBS: Final[dict[Action, str]] = {
    Action.HIT: "hit",
    Action.STAND: "stand",
    Action.DOUBLE: "double",
    Action.SPLIT: "split",
    Action.SURRENDER: "surrender",
    Action.INSURANCE: "take insurance",
    Action.NO_INSURANCE: "no insurance",
}


def card_name(card: Card) -> str:
    """The up card with its article: "an ace", "an 8", "a 10", "a 6"."""
    if card.rank == 1:
        return "an ace"
    value = str(card.value)
    return f"an {value}" if value in ("8", "11") else f"a {value}"


def hand_name(cards: Sequence[Card]) -> str:
    """How a basic-strategy chart names the hand: "hard 11", "soft 17", "a pair of 8s"."""
    hand = Hand.of(list(cards))
    if len(cards) == 2 and hand.is_pair:
        rank = "aces" if cards[0].rank == 1 else f"{cards[0].value}s"
        return f"a pair of {rank}"
    return f"{'soft' if hand.is_soft else 'hard'} {hand.total}"


def hint_sentence(
    rules: Rules, cards: Sequence[Card], dealer_up: Card, legal: Collection[Action]
) -> str:
    """ "Basic strategy: double (hard 11 against a 6)." """
    if Action.INSURANCE in legal:
        return "Basic strategy: no insurance (it costs more than it saves in the long run)."
    action = advise(rules, cards, dealer_up, legal)
    return f"Basic strategy: {_VERBS[action]} ({hand_name(cards)} against {card_name(dealer_up)})."
