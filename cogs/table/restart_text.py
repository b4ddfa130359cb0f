"""What a table message says after a restart or a move: the link to the table's new
message, and a voided round's refunds."""

from __future__ import annotations

import discord

from bot.i18n import ENGLISH, Text, _, speak, speaking, tr
from bot.tables.snapshot import TablePhase
from cogs.table.embed_limits import FIELD_VALUE_LIMIT, clip_lines
from cogs.table.render import COLOURS
from db.models import VoidResult


def jump_link(guild_id: int, channel_id: int, message_id: int) -> str:
    """A link that opens the message in Discord (guild id 0, the pocket scope: ``@me``, the
    DMs' path; Discord opens a group DM's message there too)."""
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


def moved_text(link: str) -> Text:
    """What an old table message says, and what a click on its buttons is told."""
    return _("This table moved to a new message: {link}", link=link)


#: Why recovery voided a round, as the store keeps it (in English), and as it is said.
_VOID_REASONS: dict[str, Text] = {
    "the bot restarted": _("the bot restarted"),
    "nobody bet": _("nobody bet"),
    "another table is open in its channel": _("another table is open in its channel"),
    "its saved round could not be replayed": _("its saved round could not be replayed"),
    "its table message was never posted": _("its table message was never posted"),
}
_COULD_NOT_RESUME = "the table could not resume: "


def void_reason(reason: str) -> str:
    """A stored void reason as a catalog message where it is one the bot writes."""
    if reason.startswith(_COULD_NOT_RESUME):
        why = reason.removeprefix(_COULD_NOT_RESUME)
        return _("the table could not resume: {reason}", reason=_VOID_REASONS.get(why, why))
    return _VOID_REASONS.get(reason, reason)


def voided_embed(result: VoidResult, language: str = ENGLISH) -> discord.Embed:
    """What an old table message says once recovery voided its round and refunded the
    stakes, in the table's ``language``."""
    with speaking(language):
        embed = discord.Embed(
            title=speak("Round voided"),
            colour=COLOURS[TablePhase.CLOSED],
            description=speak(
                "This round was voided: {reason}. Every stake was refunded.\n"
                "Start a new table with `/blackjack start`.",
                reason=tr(void_reason(result.reason)),
            ),
        )
        if result.refunds:
            lines = [
                speak(
                    "{player} {amount} back (balance {balance})",
                    player=f"<@{user_id}>",
                    amount=amount,
                    balance=result.balances[user_id],
                )
                if user_id in result.balances
                else speak("{player} {amount} back", player=f"<@{user_id}>", amount=amount)
                for user_id, amount in sorted(result.refunds.items())
            ]
            embed.add_field(
                name=speak("Refunds"), value=clip_lines(lines, FIELD_VALUE_LIMIT), inline=False
            )
        embed.set_footer(text=speak("Round {round}", round=str(result.round_id)))
    return embed
