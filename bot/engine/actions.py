"""What a player can do with a hand."""

from __future__ import annotations

from enum import StrEnum


class Action(StrEnum):
    """A player's decision. Insurance is a decision per player, not per hand."""

    HIT = "hit"
    STAND = "stand"
    DOUBLE = "double"
    SPLIT = "split"
    SURRENDER = "surrender"
    INSURANCE = "insurance"
    NO_INSURANCE = "no_insurance"
