"""An interaction's first answer without asking Discord to send the message back.

discord.py 2.7 asks for every callback ``?with_response=1`` and parses the message
Discord returns, which the table never reads: a click's answer cost a second
message parsed (the clicked one is the first), and Discord a message serialised.
:func:`update_table` (type 7) and :func:`say` (type 4, ephemeral) send the same
body as :meth:`discord.InteractionResponse.edit_message` and ``send_message``, through
the same webhook adapter (its rate-limit handling, its errors), without the query, and
mark the interaction answered as they do, so ``followup`` and ``is_done`` behave.

They lean on discord.py's private names (the adapter, the callback's parameters, the
interaction's session and answered state); when a discord.py release moves them, the
public methods are used, so an upgrade costs speed, never a click.
"""

from __future__ import annotations

from typing import Any

import discord

try:
    from discord.http import Route
    from discord.webhook.async_ import async_context, interaction_message_response_params

    #: Whether this discord.py has what is used below (read once, from its classes' slots).
    SUPPORTED = "_session" in getattr(discord.Interaction, "__slots__", ()) and (
        "_response_type" in getattr(discord.InteractionResponse, "__slots__", ())
    )
except ImportError:  # pragma: no cover - a discord.py that moved them
    SUPPORTED = False

_EPHEMERAL = discord.MessageFlags._from_value(64)


async def _send(
    interaction: discord.Interaction[Any], kind: discord.InteractionResponseType, **fields: Any
) -> None:
    response = interaction.response
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    state = interaction._state
    params = interaction_message_response_params(
        type=kind.value, previous_allowed_mentions=state.allowed_mentions, **fields
    )
    route = Route(
        "POST",
        "/interactions/{webhook_id}/{webhook_token}/callback",
        webhook_id=interaction.id,
        webhook_token=interaction.token,
    )
    http = state.http
    await async_context.get().request(
        route,
        session=interaction._session,
        proxy=http.proxy,
        proxy_auth=http.proxy_auth,
        payload=params.payload,
    )
    response._response_type = kind


async def update_table(
    interaction: discord.Interaction[Any], *, embed: discord.Embed, view: discord.ui.View
) -> None:
    """Answer a click by editing the clicked message (type 7), as ``edit_message`` does."""
    if not SUPPORTED:
        await interaction.response.edit_message(embed=embed, view=view)
        return
    await _send(interaction, discord.InteractionResponseType.message_update, embed=embed, view=view)


async def say(interaction: discord.Interaction[Any], text: str) -> None:
    """Answer with a sentence only the user sees (type 4, ephemeral), as ``send_message``."""
    if not SUPPORTED:
        await interaction.response.send_message(text, ephemeral=True)
        return
    await _send(
        interaction,
        discord.InteractionResponseType.channel_message,
        content=text,
        flags=_EPHEMERAL,
    )
