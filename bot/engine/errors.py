"""Errors a round raises. Every one leaves the round exactly as it was."""

from __future__ import annotations


class IllegalAction(Exception):
    """An action the round refuses; the message is written for the player."""


class NoSuchPlayer(IllegalAction):
    """The player has no seat in this round."""


class NoSuchHand(IllegalAction):
    """The player has no hand with that number."""


class NotYourTurn(IllegalAction):
    """The player has nothing to decide right now (finished, or waiting for others)."""


class ActionNotAllowed(IllegalAction):
    """The action is not one the rules allow for this hand now."""


class RoundOver(IllegalAction):
    """The round is settled; nothing more can be done in it."""


class InvalidBets(ValueError):
    """Bets a round cannot be dealt with (too many players or spots, a stake off limits)."""


class RoundNotSettled(Exception):
    """The settlement was asked for before the round was over."""
