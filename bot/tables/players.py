"""Who sits at a table, and what /blackjack fairness shows."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Player:
    """A Discord user as the table knows them: id, and the name to show (as given)."""

    user_id: int
    name: str


@dataclass(frozen=True, slots=True)
class Fairness:
    """What a player needs to check the shuffle: the current commitment, the previous seed."""

    #: SHA-256 (hex) of the current shoe's seed, published before its first card.
    commitment: str
    decks: int
    #: The channel's most recently retired shoe: its commitment and revealed seed, or None.
    previous_commitment: str | None
    previous_seed: str | None
    previous_decks: int | None
    #: The one command that checks the previous shoe ("" when there is none yet).
    verify_command: str
