"""The admin side of playing responsibly, for ``/blackjack-admin`` (cogs.admin): the server's
gates in ``config``, the stop switch, ``link`` / ``unlink`` of accounts one person
holds, ``player`` (a member's limits, break and links) and ``lift`` (a break set until
an admin lifts it).

Admins see, players own: an admin can lift a break set "until an admin lifts it", but
cannot shorten a timed break nor raise a player's limits; nothing here does either.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Final

import discord

from bot.i18n import Text, _
from bot.shown_names import shown_name
from cogs.responsible import limits_text
from cogs.tournament import tournament_service
from db.models import GuildSettings
from db.ops.play_limits import ModerationEntry, PlayerLimits

if TYPE_CHECKING:
    from bot.app import BlackjackBot

#: What the open tables' messages say when an admin stops all play.
STOPPED_REASON: Final = _("An admin stopped all play. Any round in progress was refunded.")
#: What a tournament's tables say when an admin stops all play.
TOURNAMENT_STOPPED_REASON: Final = _(
    "An admin stopped all play: this tournament is cancelled,"
    " and every chip paid into it was refunded."
)
ALL_CHANNELS: Final = ("all", "any", "")
_CHANNEL_ID: Final = re.compile(r"[0-9]{15,20}")
ACTIONS: Final[dict[str, str]] = {"link": "linked", "unlink": "unlinked", "lift": "break lifted"}


def channels_setting(text: str) -> str:
    """``table_channels`` from what an admin typed: channel mentions or ids, or "all"."""
    if text.strip().lower() in ALL_CHANNELS:
        return ""
    ids = _CHANNEL_ID.findall(text)
    if not ids:
        raise ValueError('table_channels takes channel mentions (#blackjack) or "all"')
    return ",".join(dict.fromkeys(ids))


def gates_text(settings: GuildSettings) -> str:
    """The server's gates, one per line, for the settings list."""
    days = settings.min_account_age_days
    age = "off" if not days else ("1 day" if days == 1 else f"{days} days")
    channels = settings.table_channels
    where = ", ".join(f"<#{c}>" for c in channels.split(",")) if channels else "any channel"
    role = f"<@&{settings.play_role_id}>" if settings.play_role_id else "everyone"
    stopped = "stopped by an admin" if settings.play_stopped else "on"
    return "\n".join(
        [
            f"Minimum account age for /daily and seats: {age}",
            f"Tables open in: {where}",
            f"Who may play: {role}",
            f"Play: {stopped}",
        ]
    )


async def stop_all_play(bot: BlackjackBot, guild_id: int) -> tuple[int, int]:
    """Close every open table of the server, refunding any round in progress, and cancel
    every open tournament, refunding every fee and prize pool: how many of each."""
    closed = 0
    for snapshot in bot.tables.open_tables():
        if snapshot.guild_id == guild_id:
            await bot.tables.close(snapshot.table_id, STOPPED_REASON)
            closed += 1
    service = tournament_service(bot)
    stopped = (
        [] if service is None else await service.stop_in_guild(guild_id, TOURNAMENT_STOPPED_REASON)
    )
    return closed, len(stopped)


def stopped_text(settings: Text, closed: int, cancelled: int) -> Text:
    """The settings answer when an admin stopped all play, with what it closed."""
    if cancelled:
        return _(
            "{settings}\nAll play stopped: tables closed now: {closed}; their rounds were "
            "refunded.\nTournaments cancelled: {cancelled}; every fee was refunded.",
            settings=settings,
            closed=closed,
            cancelled=cancelled,
        )
    return _(
        "{settings}\nAll play stopped: tables closed now: {closed}; their rounds were refunded.",
        settings=settings,
        closed=closed,
    )


def log_line(entry: ModerationEntry) -> str:
    """One link, unlink or lift, with the moderator and the reason."""
    what = ACTIONS.get(entry.action, entry.action)
    other = f" with <@{entry.other_id}>" if entry.other_id is not None else ""
    return (
        f"<t:{entry.created_at // 1_000_000}:d> <@{entry.user_id}> {what}{other}"
        f" by <@{entry.actor_id}>: “{shown_name(entry.reason, 100)}”"
    )


def player_embed(
    member: discord.abc.User, mine: PlayerLimits, log: list[ModerationEntry], now: float
) -> discord.Embed:
    """``/blackjack-admin player``: a member's limits, break and links, and their history."""
    embed = discord.Embed(title=f"Player · {shown_name(member.display_name)}", colour=0x95A5A6)
    embed.description = limits_text(mine, now)
    linked = ", ".join(f"<@{user}>" for user in mine.linked) or "none"
    embed.add_field(name="Linked accounts", value=linked, inline=False)
    if log:
        embed.add_field(name="Moderation", value="\n".join(map(log_line, log)), inline=False)
    return embed


async def moderate(
    bot: BlackjackBot,
    interaction: discord.Interaction[Any],
    action: str,
    member: discord.Member,
    reason: str,
    other: discord.Member | None = None,
) -> str:
    """Link (with ``other``), unlink or lift; the answer for the moderator."""
    assert interaction.guild_id is not None
    play, g, actor = bot.store.play, interaction.guild_id, interaction.user.id
    try:
        if action == "link":
            assert other is not None
            done = await play.link(g, member.id, other.id, actor, reason)
            return (
                f"Linked {member.mention} and {other.mention}: they now share one /daily"
                " claim and one set of limits (the stricter of each)."
                if done
                else f"{member.mention} and {other.mention} are already linked. Nothing changed."
            )
        if action == "unlink":
            done = await play.unlink(g, member.id, actor, reason)
            return (
                f"Unlinked {member.mention}. They keep a copy of the group's limits."
                if done
                else f"{member.mention} is not linked to anyone. Nothing changed."
            )
        done = await play.lift_exclusion(g, member.id, actor, reason)
    except ValueError as error:
        return f"Nothing changed: {error}."
    return (
        f"Lifted {member.mention}'s break. A timed break, if any, still runs to its end."
        if done
        else f"{member.mention} has no break that waits for an admin. Nothing changed."
    )
