"""A click on a table button is parsed without the table it was made on.

Discord sends with every click the whole message clicked (here the table: its embed,
five seats of card pictures, and its buttons), and discord.py builds a
:class:`discord.Message` of it for ``interaction.message``: embeds, fields, buttons and
all (49 us of CPU a click in ``bench/load.py``'s paced phase; 27 us cut down, and the
interaction's whole parse 54 -> 37 us). A table click reads only the
message's id (``TableCog.press``: is it the table's current message?). So, before
discord.py parses a click whose custom id is a table button's, the message is cut down to
its id, channel, author, type and times: ``interaction.message`` is the same message, with
no content, embeds, components, mentions or attachments. Every other interaction
(commands, other buttons such as the ledger's pages) is parsed whole.

It hooks discord.py's handler of the gateway's ``INTERACTION_CREATE`` (the connection
state's ``parsers``, a private name); a discord.py without it is left as it is, so an
upgrade costs speed, never a click.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord

from cogs.table.buttons import parse_custom_id

#: What is kept of the clicked message (``content`` and ``type`` discord.py requires).
KEPT: tuple[str, ...] = (
    "id",
    "channel_id",
    "guild_id",
    "type",
    "author",
    "timestamp",
    "edited_timestamp",
    "flags",
    "webhook_id",
    "application_id",
)
_COMPONENT: int = discord.InteractionType.component.value


def slim(data: dict[str, Any]) -> dict[str, Any]:
    """The interaction as discord.py should parse it: a table click with its message cut
    down to :data:`KEPT`; anything else as it came (``data`` itself is never changed)."""
    if data.get("type") != _COMPONENT:
        return data
    message = data.get("message")
    custom_id = (data.get("data") or {}).get("custom_id")
    if not isinstance(message, dict) or not isinstance(custom_id, str):
        return data
    if parse_custom_id(custom_id) is None:
        return data
    slimmed = {key: message[key] for key in KEPT if key in message}
    # Empty rather than absent: discord.py sets these attributes only when they are sent.
    slimmed.update(content="", embeds=[], components=[], mentions=[], mention_roles=[])
    return {**data, "message": slimmed}


def install(client: discord.Client) -> bool:
    """Parse table clicks slimmed from now on; False (nothing changed) if this discord.py
    has no parser to wrap."""
    parsers: dict[str, Callable[[Any], None]] | None = getattr(
        getattr(client, "_connection", None), "parsers", None
    )
    if not isinstance(parsers, dict) or "INTERACTION_CREATE" not in parsers:
        return False
    parse = parsers["INTERACTION_CREATE"]
    if getattr(parse, "slims_table_clicks", False):
        return True

    def parse_slimmed(data: dict[str, Any]) -> None:
        parse(slim(data))

    parse_slimmed.slims_table_clicks = True  # type: ignore[attr-defined]
    parsers["INTERACTION_CREATE"] = parse_slimmed
    return True
