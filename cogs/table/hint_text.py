"""The Hint button's answer: the player's hand against the dealer's up card, then the
advice, in the reader's language."""

from __future__ import annotations

from bot.i18n import ENGLISH, speak, speaking, tr
from bot.tables.snapshot import TableSnapshot
from cogs.table.card_art import Faces, card_row


def hint_text(
    snapshot: TableSnapshot,
    user_id: int,
    advice: str,
    faces: Faces | None,
    language: str = ENGLISH,
) -> str:
    """The Hint's answer in ``language``: the player's hand against the dealer's up card,
    then the advice."""
    seat = next((s for s in snapshot.seats if s.user_id == user_id), None)
    hand = next((h for h in seat.hands if h.is_current), None) if seat is not None else None
    with speaking(language):
        if hand is None or snapshot.dealer is None or not snapshot.dealer.cards:
            return tr(advice)
        up = card_row(snapshot.dealer.cards[:1], faces)
        return speak(
            "Your hand {cards} against {up}\n{advice}",
            cards=card_row(hand.cards, faces),
            up=up,
            advice=tr(advice),
        )
