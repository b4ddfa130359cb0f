"""The one way the bot says something to the person behind an interaction, and no one else."""

from __future__ import annotations

from typing import Any

import discord


async def tell(interaction: discord.Interaction[Any], text: str) -> None:
    """``text`` to the interaction's user alone (ephemeral): as the interaction's response,
    or as a followup once it has been answered (a deferral, a table shown, a refusal)."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)
