"""The table's answers and edits without asking for, or parsing, the message Discord sends back.

discord.py 2.7 asks for every callback ``?with_response=1`` and parses the message
Discord returns, which the table never reads: a click's answer cost a second
message parsed (the clicked one is the first), and Discord a message serialised.
:func:`update_table` (type 7) and :func:`say` (type 4, ephemeral) send the same
body as :meth:`discord.InteractionResponse.edit_message` and ``send_message``, without
the query, and mark the interaction answered as they do, so ``followup`` and ``is_done``
behave. The request is tried once as discord.py's webhook adapter sends it (the same
body and URL), over the table's own kept-alive connections (:mod:`cogs.table.answer_http`,
a third of aiohttp's cost on the event loop), and given to the adapter itself (its waits
and retries) when Discord rate-limits it, fails on its side or the connection is reset;
a refusal raises what the adapter raises.

:func:`edit_table` edits the table message in the channel as
:meth:`discord.PartialMessage.edit` does (the same request through the same HTTP client,
its rate limits and errors) without building a :class:`discord.Message` of the answer,
which nothing reads: each coalesced edit parsed the whole table back.

They lean on discord.py's private names (the adapter, the callback's and an edit's
parameters, the interaction's session and answered state); when a discord.py release
moves them, the public methods are used, so an upgrade costs speed, never a click.
"""

from __future__ import annotations

import asyncio
from typing import Any, Final

import aiohttp
import discord

from cogs.table import answer_http

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
#: A connection reset by the peer (POSIX, Windows): the adapter tries such a request again.
_RESET: Final = (54, 10054)


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
    payload = params.payload
    if (
        http.proxy is None
        and payload is not None
        and await _sent_once(interaction._session, route.url, payload, http.user_agent)
    ):
        response._response_type = kind
        return
    await async_context.get().request(
        route,
        session=interaction._session,
        proxy=http.proxy,
        proxy_auth=http.proxy_auth,
        payload=payload,
    )
    response._response_type = kind


async def _sent_once(
    session: aiohttp.ClientSession, url: str, payload: dict[str, Any], user_agent: str
) -> bool:
    """One try of the callback's request, as the webhook adapter makes it (the same JSON
    and URL), over the table's own kept-alive connections (answer_http): True when Discord
    took it; False when the adapter should send it (at once if it could not be sent here,
    else after the adapter's wait: a rate limit, a server error, a reset connection); a
    refusal raised as the adapter raises it.

    The adapter's own first try cost a lock made for the interaction's bucket (every
    interaction is a bucket of its own), its rate-limit bookkeeping, its logging and
    aiohttp's client."""
    try:
        sent = await answer_http.post_json(session, url, payload, user_agent=user_agent)
    except OSError as error:
        if error.errno not in _RESET:
            raise
        wait = 1.0
    else:
        if sent is None:
            return False  # not a request answer_http makes (a closed session): the adapter's
        if 200 <= sent.status < 300:
            return True
        wait = _wait_or_raise(sent)
    await asyncio.sleep(wait)
    return False


def _wait_or_raise(response: answer_http.Response) -> float:
    """How long the adapter waits before it sends a refused answer again; or the error it
    raises (a refusal, and a 429 without Via, which is Cloudflare's, not Discord's)."""
    status = response.status
    if status >= 500:
        return 1.0  # the adapter's wait before its second try
    data = response.data()
    if status == 429 and response.headers.get("Via") and isinstance(data, dict):
        return float(data["retry_after"])
    if status == 403:
        raise discord.Forbidden(response, data)
    if status == 404:
        raise discord.NotFound(response, data)
    raise discord.HTTPException(response, data)


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
