"""What happened in a round, in order, with a sentence for each event.

The round stores events as small tuples (cheap on the hot path) and builds these
``Event`` values, and their text, only when someone reads them.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from bot.engine.cards import Card


class EventKind(StrEnum):
    """Kinds of event, in roughly the order they happen."""

    DEAL = "deal"
    DEALER_UP = "dealer_up"
    NATURAL = "natural"
    TWENTY_ONE = "twenty_one"
    INSURANCE_OFFERED = "insurance_offered"
    INSURE = "insure"
    DECLINE_INSURANCE = "decline_insurance"
    PEEK = "peek"
    DEALER_NATURAL = "dealer_natural"
    HIT = "hit"
    STAND = "stand"
    DOUBLE = "double"
    SPLIT = "split"
    SURRENDER = "surrender"
    REVEAL = "reveal"
    DEALER_HIT = "dealer_hit"
    DEALER_STANDS = "dealer_stands"
    DEALER_BUSTS = "dealer_busts"
    CONTINUATION = "continuation"
    RESULT = "result"
    INSURANCE_RESULT = "insurance_result"


#: The stored form: (kind, player id or "", hand index, cards, total, amount, note).
RawEvent = tuple[EventKind, str, int, tuple[Card, ...], int, int, str]


def _cards(cards: tuple[Card, ...]) -> str:
    return " ".join(str(card) for card in cards)


class Event(NamedTuple):
    """One thing that happened. ``who`` names the player and, if they hold several
    hands, the hand ("alice (hand 2)"); ``text`` is the sentence to show."""

    kind: EventKind
    player: str
    hand: int
    cards: tuple[Card, ...]
    total: int
    amount: int
    note: str
    who: str

    @property
    def text(self) -> str:
        """A human sentence: ``"alice doubles: 7♣ → 18"``."""
        kind, who, cards, total, amount, note = (
            self.kind,
            self.who,
            self.cards,
            self.total,
            self.amount,
            self.note,
        )
        bust = ", bust" if total > 21 else ""
        if kind is EventKind.DEAL:
            return f"{who} is dealt {_cards(cards)} ({total}), stake {amount:,}"
        if kind is EventKind.DEALER_UP:
            return f"dealer shows {_cards(cards)}"
        if kind is EventKind.NATURAL:
            return f"{who} has blackjack: {_cards(cards)}"
        if kind is EventKind.TWENTY_ONE:
            return f"{who} has 21"
        if kind is EventKind.INSURANCE_OFFERED:
            return "dealer shows an ace: insurance is offered (pays 2:1)"
        if kind is EventKind.INSURE:
            return f"{who} takes {note or 'insurance'} for {amount:,}"
        if kind is EventKind.DECLINE_INSURANCE:
            return f"{who} declines insurance"
        if kind is EventKind.PEEK:
            return "dealer checks the hole card: no blackjack"
        if kind is EventKind.DEALER_NATURAL:
            return f"dealer has blackjack: {_cards(cards)}"
        if kind is EventKind.HIT:
            return f"{who} hits: {_cards(cards)} → {total}{bust}"
        if kind is EventKind.STAND:
            suffix = f" ({note})" if note else ""
            return f"{who} stands on {total}{suffix}"
        if kind is EventKind.DOUBLE:
            return f"{who} doubles: {_cards(cards)} → {total}{bust}"
        if kind is EventKind.SPLIT:
            return f"{who} splits: {note}"
        if kind is EventKind.SURRENDER:
            return f"{who} surrenders and gets back {amount:,}"
        if kind is EventKind.REVEAL:
            return f"dealer turns over {_cards(cards)}: {total}"
        if kind is EventKind.DEALER_HIT:
            return f"dealer draws {_cards(cards)} → {total}{bust}"
        if kind is EventKind.DEALER_STANDS:
            return f"dealer stands on {total}"
        if kind is EventKind.DEALER_BUSTS:
            return f"dealer busts with {total}"
        if kind is EventKind.CONTINUATION:
            return (
                f"the shoe ran out: dealing on from continuation shoe {amount} "
                "(its seed is derived from this shoe's seed)"
            )
        if kind is EventKind.RESULT:
            return f"{who}: {note}"
        return f"{who}: insurance {note}"  # INSURANCE_RESULT
