"""What the table cog asks of the cogs beside it, found by name (discord.py loads each
extension's modules afresh, so these are protocols, not classes to check against)."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import discord

from bot.tables import TableSnapshot


@runtime_checkable
class BetForms(Protocol):
    """The betting cog, as the Bet button sees it: it makes the bet form."""

    def form(self, locale: object) -> discord.ui.Modal:
        """The Bet button's form, in the language of the player's client."""
        ...

    async def seat_gate(self, interaction: discord.Interaction[Any], table: TableSnapshot) -> bool:
        """Whether a player may act at a game mode's table (else they are told why)."""
        ...

    async def place(
        self,
        interaction: discord.Interaction[Any],
        amount: str,
        hands: int = 1,
        side: dict[str, int] | None = None,
        *,
        secret: bool = False,
    ) -> None:
        """A bet at the channel's table, answered (a refusal is raised)."""
        ...


@runtime_checkable
class FairnessTexts(Protocol):
    """A game mode's cog with its own fairness answer (the tournament's commitment)."""

    def fairness_text(self, channel_id: int) -> str | None:
        """``/blackjack fairness`` in this channel, or None to let the table answer."""
        ...
