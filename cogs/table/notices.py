"""What the bot says about a table outside its own message: a refund after a restart, a
missing permission. Also what a table needs in its channel."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence

import discord

import db
from bot.i18n import Text, _, joined, speak, speaking
from cogs.table.layouts import embed_fields
from cogs.table.restart_text import voided_embed

log = logging.getLogger(__name__)

#: What the bot needs in a table's channel, with the names Discord's settings use.
NEEDED_PERMISSIONS: tuple[tuple[str, Text], ...] = (
    ("view_channel", _("View Channel")),
    ("send_messages", _("Send Messages")),
    ("embed_links", _("Embed Links")),
    ("read_message_history", _("Read Message History")),
)
#: Without these the bot cannot even say what it misses.
_MUTE: frozenset[str] = frozenset({"view_channel", "send_messages"})
#: A server's table language (``TableMessages.language``).
LanguageOf = Callable[[int], Awaitable[str]]


def missing_permissions(permissions: discord.Permissions) -> list[Text]:
    """The names of the permissions a table needs that ``permissions`` lacks."""
    return [shown for name, shown in NEEDED_PERMISSIONS if not getattr(permissions, name)]


def permission_list(names: Sequence[Text]) -> Text:
    """Permission names joined with commas, each in the reader's language."""
    return joined(names)


async def announce_voided(
    client: discord.Client, voided: Sequence[db.VoidResult], language_of: LanguageOf
) -> None:
    """Edit each voided round's table message, where it still exists, to say what happened."""
    for result in voided:
        if result.message_id is None:
            continue
        channel = client.get_partial_messageable(result.channel_id, guild_id=result.guild_id)
        language = await language_of(result.guild_id)
        try:
            message = await channel.fetch_message(result.message_id)
            embed = voided_embed(result, language)
            # A V2 message (the components layout) takes components only.
            fields = embed_fields(embed, v2=message.flags.components_v2)
            await message.edit(**fields)
        except discord.HTTPException as error:
            # Deleted message, deleted channel, lost access: nothing left to tell there.
            log.info("round %s: its message could not be edited (%s)", result.round_id, error)


async def tell_host(client: discord.Client, channel_id: int, host_id: int, language: str) -> None:
    """Name the missing permission to the host, in the channel if the bot may still post,
    in the table's ``language``."""
    channel = client.get_channel(channel_id)
    missing: list[Text] = []
    if isinstance(channel, discord.abc.GuildChannel | discord.Thread):
        missing = missing_permissions(channel.permissions_for(channel.guild.me))
    mute = {shown for name, shown in NEEDED_PERMISSIONS if name in _MUTE}
    if mute & set(missing):
        log.info("cannot tell the host in %s: missing %s", channel_id, ", ".join(missing))
        return
    with speaking(language):
        text = speak(
            "{host} The blackjack table here closed and its round was refunded: "
            "I am missing {permissions} in this channel. Give me that, then /blackjack start.",
            host=f"<@{host_id}>",
            permissions=permission_list(missing or [shown for name, shown in NEEDED_PERMISSIONS]),
        )
    try:
        await client.get_partial_messageable(channel_id).send(
            text, allowed_mentions=discord.AllowedMentions(users=True)
        )
    except discord.HTTPException:
        log.info("could not tell the host of the closed table in %s", channel_id)
