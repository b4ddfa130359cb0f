"""The one way the bot says something to the person behind an interaction, and no one else."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import speaking, tr


async def tell(
    interaction: discord.Interaction[Any], text: str, *, wait: bool = False, notice: str = ""
) -> discord.WebhookMessage | None:
    """``text`` to the interaction's user alone (ephemeral): as the interaction's response,
    or as a followup once it has been answered (a deferral, a table shown, a refusal).

    ``notice``: words said once beside the text (a first bet's no-value notice), in the same
    message as an embed under it, so they cost no request of their own.

    With ``wait``, a followup is sent as discord.py's ``followup.send(wait=True)`` and
    returned (for a caller that deletes it later); otherwise, and for the response
    itself, None: Discord's copy of the message is neither asked for nor parsed.

    A catalog message (``bot.i18n.Text``) is said in the language of the user's client."""
    with speaking(interaction.locale):
        text = tr(text)
        aside = discord.Embed(description=tr(notice)) if notice else None
    if aside is not None:
        return await _tell_with(interaction, text, aside, wait)
    if interaction.response.is_done():
        if wait:
            return await interaction.followup.send(text, ephemeral=True, wait=True)
        await interaction.followup.send(text, ephemeral=True)
        return None
    await interaction.response.send_message(text, ephemeral=True)
    return None


async def _tell_with(
    interaction: discord.Interaction[Any], text: str, aside: discord.Embed, wait: bool
) -> discord.WebhookMessage | None:
    """``tell`` with an embed under the text (its notice)."""
    if interaction.response.is_done():
        if wait:
            return await interaction.followup.send(text, embed=aside, ephemeral=True, wait=True)
        await interaction.followup.send(text, embed=aside, ephemeral=True)
        return None
    await interaction.response.send_message(text, embed=aside, ephemeral=True)
    return None
