"""The one place a table's refusal (a ``TableError``) is answered: to the presser alone.

Slash commands reach it through their cog's error handler (``cog_app_command_error``,
:func:`refuse_command_error`), the table buttons through ``TableCog.on_interaction`` (a
listener has no error handler of its own). After a deferral (``cogs.table.response_window``)
the answer is a followup. A click that failed for any other reason gets
:func:`apologise_for_click`.
"""

from __future__ import annotations

import contextlib
from typing import Any

import discord
from discord import app_commands

from bot.discord_reply import tell
from bot.i18n import _
from bot.tables import TableAlreadyOpen, TableError
from bot.tables.errors import PlayBlocked
from cogs.responsible import tell_refusal
from cogs.table.messages import TableMessages
from cogs.table.restart_text import jump_link


async def refuse(
    interaction: discord.Interaction[Any], error: TableError, messages: TableMessages
) -> None:
    """Say why nothing happened, ephemerally (as a followup if the click was answered)."""
    metrics = getattr(interaction.client, "metrics", None)
    if metrics is not None:
        metrics.refused(interaction)  # a polite no, not a failure
    if isinstance(error, PlayBlocked):
        with contextlib.suppress(discord.NotFound):
            await tell_refusal(interaction, error)
        return
    text = refusal_text(error)
    if isinstance(error, TableAlreadyOpen):
        text = _open_table_text(error, messages)
    with contextlib.suppress(discord.NotFound):  # the interaction expired meanwhile
        await tell(interaction, text)


async def refuse_command_error(
    interaction: discord.Interaction[Any],
    error: app_commands.AppCommandError,
    messages: TableMessages,
) -> None:
    """A table cog's command error handler: a refusal is answered here; anything else is
    left to the command tree's handler, which discord.py calls next."""
    if isinstance(error, app_commands.CommandInvokeError) and isinstance(
        error.original, TableError
    ):
        await refuse(interaction, error.original, messages)


#: A click failed unexpectedly. Its action may have been applied, so this does not say
#: "nothing was changed": the table message shows where things stand (an applied action
#: that was not shown by the click's answer is edited in by ``TableMessages``).
CLICK_FAILED = _(
    "Something went wrong on my side while answering that click. The table message shows"
    " where things stand; look there before pressing again."
)


async def apologise_for_click(interaction: discord.Interaction[Any]) -> None:
    """A click failed unexpectedly (a bug, an error reply from Discord): say so, counted
    as failed, rather than leave the presser with "This interaction failed"."""
    metrics = getattr(interaction.client, "metrics", None)
    if metrics is not None:
        metrics.failed(interaction)
    with contextlib.suppress(discord.HTTPException):  # Discord refuses this one too
        await tell(interaction, CLICK_FAILED)


def refusal_text(error: TableError) -> str:
    """What a refusal says: its catalog message (said in the reader's language) if it
    was raised with one."""
    message = error.args[0] if error.args else ""
    return message if isinstance(message, str) else str(error)


def _open_table_text(error: TableAlreadyOpen, messages: TableMessages) -> str:
    """Where the channel's open table is: a jump link to its message when known."""
    where = messages.message_of(error.snapshot.table_id)
    refusal = refusal_text(error)
    if where is None:
        return _("{refusal} Use it: /bet to play.", refusal=refusal)
    channel_id, message_id = where
    link = jump_link(error.snapshot.guild_id, channel_id, message_id)
    return _("{refusal} It's here: {link}", refusal=refusal, link=link)
