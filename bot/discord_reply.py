"""The one way the bot says something to the person behind an interaction, and no one else."""

from __future__ import annotations

from typing import Any

import discord


async def tell(interaction: discord.Interaction[Any], text: str) -> discord.WebhookMessage | None:
    """``text`` to the interaction's user alone (ephemeral): as the interaction's response,
    or as a followup once it has been answered (a deferral, a table shown, a refusal).

    The followup message when it was one (None: the response itself)."""
    if interaction.response.is_done():
        return await interaction.followup.send(text, ephemeral=True, wait=True)
    await interaction.response.send_message(text, ephemeral=True)
    return None
