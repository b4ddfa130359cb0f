"""A hand and its parts as the table message writes them: chips, countdowns, totals, and
one line a hand (marker, cards, total, stake, then its status or its result)."""

from __future__ import annotations

from typing import Final

from bot.i18n import _, number, speak, tr
from bot.tables.snapshot import HandView
from cogs.table.card_art import Faces, card_row

CURRENT_MARK: Final = "▶"


def chips(amount: int) -> str:
    """``1,250`` (``1.250`` where the language being spoken writes it so)."""
    return number(amount)


def timestamp(unix: float) -> str:
    """A relative Discord timestamp that counts down on the reader's client."""
    return f"<t:{int(unix)}:R>"


def total_text(total: int, soft: bool, status: str) -> str:
    """``21``, ``soft 17``, ``BJ``, ``bust 24``."""
    if status == "blackjack":
        return speak("BJ")
    if total > 21:
        return speak("bust {total}", total=total)
    return speak("soft {total}", total=total) if soft and total < 21 else str(total)


#: How a hand ended (the engine's ``Outcome``), as its seat shows it.
_OUTCOMES: Final = {
    "win": _("win"),
    "lose": _("lose"),
    "push": _("push"),
    "blackjack": _("blackjack"),
    "surrender": _("surrender"),
    "bust": _("bust"),
}
#: A hand's status as its seat shows it ("" for none); a blackjack shows in its total.
_STATUS_SHOWN: Final = {
    "standing": _("stood"),
    "doubled": _("doubled"),
    "surrendered": _("surrendered"),
}


def hand_line(
    hand: HandView,
    deadline: float | None = None,
    faces: Faces | None = None,
    *,
    hidden: bool = False,
) -> str:
    """One hand: marker, cards (text, or pictures with ``faces``), total, stake (``hidden``:
    a secret bet's is not shown), then its status or its result."""
    marker = CURRENT_MARK if hand.is_current else "•"
    parts = [
        f"{marker} {card_row(hand.cards, faces)}",
        f"**{total_text(hand.total, hand.soft, hand.status)}**",
        speak("secret bet") if hidden else chips(hand.stake),
    ]
    if hand.outcome and not hidden:
        outcome = tr(_OUTCOMES.get(hand.outcome, hand.outcome))
        if hand.rounded_down:
            paid = speak(
                "{outcome} → {payout} (½ rounded down)", outcome=outcome, payout=hand.payout
            )
        else:
            paid = speak("{outcome} → {payout}", outcome=outcome, payout=hand.payout)
        parts.append(paid)
    else:
        status = _STATUS_SHOWN.get(hand.status)
        if status:
            parts.append(tr(status))
        if hand.is_current and deadline is not None:
            parts.append(timestamp(deadline))
    return " · ".join(parts)
