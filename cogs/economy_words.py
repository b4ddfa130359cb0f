"""What the bridge to UnbelievaBoat tells players and admins of a transfer: its outcome,
why it was refused, and a held transfer's line in ``economy status``."""

from __future__ import annotations

from typing import Final

from bot.bridge.transfers import (
    BridgeRefusal,
    NotBridged,
    NotEnoughCash,
    OffRate,
    OverLossLimit,
    TransferOpen,
    TransferResult,
)
from bot.i18n import Text, _, speak
from db.errors import InsufficientChips
from db.ops.bridge import TransferRecord

SERVER_ONLY: Final = _("Cash-ins and cash-outs work in a server only.")
NOT_BRIDGED: Final = _("This server's chips are not linked to UnbelievaBoat.")
UNAVAILABLE: Final = _("UnbelievaBoat could not be asked right now: nothing changed. Try later.")
OPEN: Final = _("Your last transfer is still being checked: try again once it is settled.")
STILL_OPEN: Final = _(
    "A transfer is still open: settle it in /blackjack-admin economy status first. Nothing changed."
)
OUTCOMES: Final[dict[str, Text]] = {
    "rolled_back": _("UnbelievaBoat refused the transfer: nothing changed."),
    "pending": _("UnbelievaBoat did not answer. The transfer is being checked; nothing is lost."),
    "held": _("The transfer could not be checked on its own: an admin will settle it."),
}


def result_text(result: TransferResult, balance: int | None) -> Text:
    """What a player is told of their transfer."""
    transfer = result.transfer
    if result.outcome != "done":
        return OUTCOMES[result.outcome]
    if transfer.kind == "cash_in":
        return _(
            "You bought {chips} chips with {cash} cash. Your chips: {balance}.",
            chips=transfer.chips,
            cash=transfer.cash,
            balance=balance,
        )
    return _(
        "You changed {chips} chips into {cash} cash. Your chips: {balance}.",
        chips=transfer.chips,
        cash=transfer.cash,
        balance=balance,
    )


def held_line(transfer: TransferRecord) -> str:
    """A transfer waiting for an admin, with what to look for in the member's UnbelievaBoat
    history (in the language being spoken)."""
    if transfer.kind == "cash_in":
        return speak(
            "#{id}: {member} paying {cash} cash for {chips} chips (their cash before: {before})",
            id=str(transfer.id),
            member=f"<@{transfer.user_id}>",
            cash=transfer.cash,
            chips=transfer.chips,
            before=transfer.cash_before,
        )
    return speak(
        "#{id}: {member} changing {chips} chips into {cash} cash (their cash before: {before})",
        id=str(transfer.id),
        member=f"<@{transfer.user_id}>",
        cash=transfer.cash,
        chips=transfer.chips,
        before=transfer.cash_before,
    )


def refusal_text(error: BridgeRefusal | InsufficientChips) -> Text:
    """Why a transfer was not started (nothing changed)."""
    if isinstance(error, NotBridged):
        return NOT_BRIDGED
    if isinstance(error, NotEnoughCash):
        return _("You have {cash} cash on UnbelievaBoat: not enough for this.", cash=error.cash)
    if isinstance(error, InsufficientChips):
        return _("You have {balance} chips: not enough for this.", balance=error.balance)
    if isinstance(error, TransferOpen):
        return OPEN
    if isinstance(error, OverLossLimit):
        return _(
            "That would take the chips you bought today past your daily loss limit of"
            " {limit} (bought today: {bought}). It resets {when}.",
            limit=error.limit,
            bought=error.bought,
            when=f"<t:{error.resets_at // 1_000_000}:R>",
        )
    if isinstance(error, OffRate):
        return _("At this server's rate, the amount must be a multiple of {step}.", step=error.step)
    return UNAVAILABLE
