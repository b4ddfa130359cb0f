"""The one place a table's refusal (a ``TableError``) is answered: to the presser alone.

Slash commands reach it through the command tree's error handler (``bot.app``), the
table buttons through ``TableCog.on_interaction`` (a listener has no error handler of
its own). After a deferral (``cogs.table.deadline``) the answer is a followup.
"""

from __future__ import annotations

import contextlib
from typing import Any

import discord

from bot.tables import TableAlreadyOpen, TableError


async def answer_refusal(interaction: discord.Interaction[Any], error: TableError) -> None:
    """Say why nothing happened, ephemerally (as a followup if the click was answered)."""
    metrics = getattr(interaction.client, "metrics", None)
    if metrics is not None:
        metrics.refused(interaction)  # a polite no, not a failure
    text = str(error)
    if isinstance(error, TableAlreadyOpen):
        text = _open_table_text(interaction, error)
    with contextlib.suppress(discord.NotFound):  # the interaction expired meanwhile
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)


def _open_table_text(interaction: discord.Interaction[Any], error: TableAlreadyOpen) -> str:
    """Where the channel's open table is: a jump link to its message when known."""
    messages = getattr(interaction.client, "table_messages", None)
    where = None if messages is None else messages.message_of(error.snapshot.table_id)
    if where is None:
        return f"{error} Use it: /bet to play."
    channel_id, message_id = where
    link = f"https://discord.com/channels/{error.snapshot.guild_id}/{channel_id}/{message_id}"
    return f"{error} It's here: {link}"
