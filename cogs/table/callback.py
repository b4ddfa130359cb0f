"""The table's answers and edits without asking for, or parsing, the message Discord sends back.

discord.py 2.7 asks for every callback ``?with_response=1`` and parses the message
Discord returns, which the table never reads: a click's answer cost a second
message parsed (the clicked one is the first), and Discord a message serialised.
:func:`update_table` (type 7) and :func:`say` (type 4, ephemeral) send the same
body as :meth:`discord.InteractionResponse.edit_message` and ``send_message``, through
the same webhook adapter (its rate-limit handling, its errors), without the query, and
mark the interaction answered as they do, so ``followup`` and ``is_done`` behave.

:func:`edit_table` edits the table message in the channel as
:meth:`discord.PartialMessage.edit` does (the same request through the same HTTP client,
its rate limits and errors) without building a :class:`discord.Message` of the answer,
which nothing reads: each coalesced edit parsed the whole table back.

They lean on discord.py's private names (the adapter, the callback's and an edit's
parameters, the interaction's session and answered state); when a discord.py release
moves them, the public methods are used, so an upgrade costs speed, never a click.
"""

from __future__ import annotations

from typing import Any

import discord

try:
    from discord.http import Route, handle_message_parameters
    from discord.webhook.async_ import async_context, interaction_message_response_params

    #: Whether this discord.py has what is used below (read once, from its classes' slots).
    SUPPORTED = "_session" in getattr(discord.Interaction, "__slots__", ()) and (
        "_response_type" in getattr(discord.InteractionResponse, "__slots__", ())
    )
    EDIT_SUPPORTED = True
except ImportError:  # pragma: no cover - a discord.py that moved them
    SUPPORTED = EDIT_SUPPORTED = False

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


async def edit_table(
    client: discord.Client,
    channel_id: int,
    message_id: int,
    *,
    embed: discord.Embed,
    view: discord.ui.View,
) -> None:
    """Edit the table message to ``embed`` and ``view``, as ``PartialMessage.edit`` does,
    without parsing the message Discord sends back (its errors are the same)."""
    if not EDIT_SUPPORTED:
        channel = client.get_partial_messageable(channel_id)
        await channel.get_partial_message(message_id).edit(embed=embed, view=view)
        return
    # (PartialMessage.edit also stops tracking a view stored for the message: a table's
    # buttons are never stored, see buttons.SentButtons.)
    with handle_message_parameters(embed=embed, view=view) as params:
        await client.http.edit_message(channel_id, message_id, params=params)
