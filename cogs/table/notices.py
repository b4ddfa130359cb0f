"""What the bot says about a table outside its own message: a refund after a restart, a
missing permission. Also what a table needs in its channel."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord

import db
from cogs.table.restart_text import voided_embed

log = logging.getLogger(__name__)

#: What the bot needs in a table's channel, with the names Discord's settings use.
NEEDED_PERMISSIONS: tuple[tuple[str, str], ...] = (
    ("view_channel", "View Channel"),
    ("send_messages", "Send Messages"),
    ("embed_links", "Embed Links"),
    ("read_message_history", "Read Message History"),
)


def missing_permissions(permissions: discord.Permissions) -> list[str]:
    """The names of the permissions a table needs that ``permissions`` lacks."""
    return [shown for name, shown in NEEDED_PERMISSIONS if not getattr(permissions, name)]


async def announce_voided(client: discord.Client, voided: Sequence[db.VoidResult]) -> None:
    """Edit each voided round's table message, where it still exists, to say what happened."""
    for result in voided:
        if result.message_id is None:
            continue
        channel = client.get_partial_messageable(result.channel_id, guild_id=result.guild_id)
        try:
            await channel.get_partial_message(result.message_id).edit(
                embed=voided_embed(result), view=None
            )
        except discord.HTTPException as error:
            # Deleted message, deleted channel, lost access: nothing left to tell there.
            log.info("round %s: its message could not be edited (%s)", result.round_id, error)


async def tell_host(client: discord.Client, channel_id: int, host_id: int) -> None:
    """Name the missing permission to the host, in the channel if the bot may still post."""
    channel = client.get_channel(channel_id)
    missing: list[str] = []
    if isinstance(channel, discord.abc.GuildChannel | discord.Thread):
        missing = missing_permissions(channel.permissions_for(channel.guild.me))
    needed = ", ".join(missing) or ", ".join(shown for _, shown in NEEDED_PERMISSIONS)
    if {"View Channel", "Send Messages"} & set(missing):
        log.info("cannot tell the host in %s: missing %s", channel_id, needed)
        return
    text = (
        f"<@{host_id}> The blackjack table here closed and its round was refunded: "
        f"I am missing {needed} in this channel. Give me that, then /blackjack start."
    )
    try:
        await client.get_partial_messageable(channel_id).send(
            text, allowed_mentions=discord.AllowedMentions(users=True)
        )
    except discord.HTTPException:
        log.info("could not tell the host of the closed table in %s", channel_id)
