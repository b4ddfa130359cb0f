"""Errors the table service raises. ``str(error)`` is a short message for the player.

Every one of them leaves the table and every balance exactly as they were.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from bot.i18n import Text, _

if TYPE_CHECKING:
    from bot.tables.snapshot import TableSnapshot


#: What a click or command gets once a graceful stop has begun.
RESTARTING: Final = _("The bot is restarting; nothing was changed. Try again in a minute.")


class TableError(Exception):
    """Something a player asked for that the table refuses; shown to them ephemerally."""


class Restarting(TableError):
    """The bot is stopping: what needs the strategy worker, which stopped, waits for the
    next start."""

    def __init__(self, message: str = RESTARTING) -> None:
        super().__init__(message)


class NoTableHere(TableError):
    """There is no open table in this channel."""

    def __init__(
        self,
        message: str = _("There is no table in this channel. Start one with /blackjack start."),
    ) -> None:
        super().__init__(message)


class TableAlreadyOpen(TableError):
    """A table is already open in this channel; ``snapshot`` is that table."""

    def __init__(self, snapshot: TableSnapshot, message: str | None = None) -> None:
        super().__init__(message or _("A table is already open in this channel."))
        self.snapshot = snapshot


#: What a player hears while their table waits for the chip store (``TablePaused``).
PAUSED = _(
    "The table is paused: the chip store is unavailable. Nothing changed; try again in a moment."
)


class TablePaused(TableError):
    """The table's last write failed (the database is down, full or read-only): it waits,
    as the database last stored it, and goes on by itself once the database takes writes."""

    def __init__(self, message: str = PAUSED) -> None:
        super().__init__(message)


class StaleButton(TableError):
    """An unknown table id (for example after a restart) or a button from an earlier round."""


class NotSeated(TableError):
    """The player has no seat at this table."""


class TableFull(TableError):
    """Every seat (or every spot) is taken."""


class WrongPhase(TableError):
    """Not now: a bet while the cards are out, a hit during betting."""


class NothingToDo(TableError):
    """The player has no unfinished hand (already stood, or not in this round)."""


class ActionRefused(TableError):
    """An action the rules do not allow now; the message says why."""


class NotEnoughChips(TableError):
    """A bet, double, split or insurance the balance cannot cover; says what is needed and held."""

    def __init__(self, needed: int, balance: int, what: str = "That") -> None:
        super().__init__(_needs(what, needed, balance))
        self.needed = needed
        self.balance = balance


#: What a refusal for want of chips says, by what was refused (filled in by ``_needs``).
_NEEDS: Final[dict[str, Text]] = {
    "That bet": _("That bet needs {needed} chips and you have {balance}."),
    "Doubling": _("Doubling needs {needed} chips and you have {balance}."),
    "Splitting": _("Splitting needs {needed} chips and you have {balance}."),
    "Insurance": _("Insurance needs {needed} chips and you have {balance}."),
    "That": _("That needs {needed} chips and you have {balance}."),
    "The entry fee": _("The entry fee needs {needed} chips and you have {balance}."),
    "Funding the prize pool": _(
        "Funding the prize pool needs {needed} chips and you have {balance}."
    ),
}


def _needs(what: str, needed: int, balance: int) -> Text:
    """The refusal of ``what`` (a bet, doubling, splitting, insurance) the balance cannot
    cover, each a sentence of its own."""
    return _NEEDS.get(what, _NEEDS["That"]).filled(needed=needed, balance=balance)


class NotAllowed(TableError):
    """The player may not do this (e.g. stop a table they do not host without Manage Channels)."""


class BetRefused(TableError):
    """A bet that cannot be placed: unreadable, outside the limits, or a second bet this round."""


__all__ = [
    "ActionRefused",
    "BetRefused",
    "NoTableHere",
    "NotAllowed",
    "NotEnoughChips",
    "NotSeated",
    "NothingToDo",
    "StaleButton",
    "TableAlreadyOpen",
    "TableError",
    "TableFull",
    "TablePaused",
    "WrongPhase",
]


class PlayBlocked(TableError):
    """The play gate or the player's own limits refuse (bot.play_gate): ``until`` (epoch
    seconds) is when that may change, if known; with ``reality_check`` the player must
    confirm a reality check (a button) before the next bet."""

    def __init__(
        self, message: str, *, until: float | None = None, reality_check: bool = False
    ) -> None:
        super().__init__(message)
        self.until = until
        self.reality_check = reality_check
