"""Who sits at a table."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Player:
    """A Discord user as the table knows them: id, and the name to show (as given)."""

    user_id: int
    name: str
