"""What happened in a round, in order, with a sentence for each event.

The round stores events as small tuples (cheap on the hot path) and builds these
``Event`` values, and their text, only when someone reads them.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from bot.engine.cards import Card
from bot.engine.hand import Hand


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


class Note(StrEnum):
    """What an event adds to its kind and values, as a code a caller words in its own
    language: how insurance was taken, why a hand stood. (A split's two hands are its
    cards, the first two the hand's and the rest the new hand's.)"""

    NONE = ""
    EVEN_MONEY = "even_money"
    INSURANCE = "insurance"
    TIMED_OUT = "timed_out"


#: The English words rounds stored before notes were codes, by the code they mean.
_OLD_NOTES: dict[str, Note] = {
    "even money": Note.EVEN_MONEY,
    "insurance": Note.INSURANCE,
    "timed out": Note.TIMED_OUT,
}


def stored_note(kind: EventKind, note: str) -> str:
    """A stored event's note as the code this engine writes: a round stored with English
    notes reads the same as one stored since (a split's hands, once written out as text,
    are read from its cards)."""
    if kind is EventKind.SPLIT:
        return Note.NONE
    return _OLD_NOTES.get(note, note)


#: The stored form: (kind, player id or "", hand index, cards, total, amount, note).
RawEvent = tuple[EventKind, str, int, tuple[Card, ...], int, int, str]


def split_hands(cards: tuple[Card, ...]) -> tuple[Hand, Hand]:
    """A split event's two hands, from its cards (two each, the split hand's first)."""
    return Hand.of(list(cards[:2]), split=True), Hand.of(list(cards[2:]), split=True)


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
            taken = "even money" if note == Note.EVEN_MONEY else "insurance"
            return f"{who} takes {taken} for {amount:,}"
        if kind is EventKind.DECLINE_INSURANCE:
            return f"{who} declines insurance"
        if kind is EventKind.PEEK:
            return "dealer checks the hole card: no blackjack"
        if kind is EventKind.DEALER_NATURAL:
            return f"dealer has blackjack: {_cards(cards)}"
        if kind is EventKind.HIT:
            return f"{who} hits: {_cards(cards)} → {total}{bust}"
        if kind is EventKind.STAND:
            suffix = " (timed out)" if note == Note.TIMED_OUT else ""
            return f"{who} stands on {total}{suffix}"
        if kind is EventKind.DOUBLE:
            return f"{who} doubles: {_cards(cards)} → {total}{bust}"
        if kind is EventKind.SPLIT:
            hand, twin = split_hands(cards)
            return f"{who} splits: {hand.describe()} | {twin.describe()}"
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
