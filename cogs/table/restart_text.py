"""What a table message says after a restart or a move: the link to the table's new
message, and a voided round's refunds."""

from __future__ import annotations

import discord

from bot.tables.snapshot import TablePhase
from cogs.table.embed_limits import FIELD_VALUE_LIMIT, clip_lines
from cogs.table.render import COLOURS, chips
from db.models import VoidResult


def jump_link(guild_id: int, channel_id: int, message_id: int) -> str:
    """A link that opens the message in Discord (guild id 0, the pocket scope: ``@me``, the
    DMs' path; Discord opens a group DM's message there too)."""
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


def moved_text(link: str) -> str:
    """What an old table message says, and what a click on its buttons is told."""
    return f"This table moved to a new message: {link}"


def voided_embed(result: VoidResult) -> discord.Embed:
    """What an old table message says once recovery voided its round and refunded the stakes."""
    embed = discord.Embed(
        title="Round voided",
        colour=COLOURS[TablePhase.CLOSED],
        description=(
            f"This round was voided: {result.reason}. Every stake was refunded.\n"
            "Start a new table with `/blackjack start`."
        ),
    )
    if result.refunds:
        lines = [
            f"<@{user_id}> {chips(amount)} back (balance {chips(result.balances[user_id])})"
            if user_id in result.balances
            else f"<@{user_id}> {chips(amount)} back"
            for user_id, amount in sorted(result.refunds.items())
        ]
        embed.add_field(name="Refunds", value=clip_lines(lines, FIELD_VALUE_LIMIT), inline=False)
    embed.set_footer(text=f"Round {result.round_id}")
    return embed
