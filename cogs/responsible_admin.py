"""The admin side of playing responsibly, for ``/blackjack-admin`` (cogs.admin): the server's
gates in ``config``, the stop switch, ``link`` / ``unlink`` of accounts one person
holds, ``player`` (a member's limits, break and links) and ``lift`` (a break set until
an admin lifts it).

Admins see, players own: an admin can lift a break set "until an admin lifts it", and
link accounts, in their own server only (the player's break and limits hold in every
other, and nothing an admin does is written to them), but cannot shorten a timed break
nor raise a player's limits; nothing here does either.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import discord

from bot.i18n import Text, _, joined, n_, tr
from bot.shown_names import shown_name
from cogs.responsible import limits_text
from db.models import GuildSettings
from db.ops.limit_values import PlayerLimits
from db.ops.play_moderation import ModerationEntry

if TYPE_CHECKING:
    from bot.app import BlackjackBot

log = logging.getLogger(__name__)

#: What the open tables' messages say when an admin stops all play (the render adds what
#: became of a round in play).
STOPPED_REASON: Final = _("An admin stopped all play.")
#: What a tournament's tables say when an admin stops all play.
TOURNAMENT_STOPPED_REASON: Final = _(
    "An admin stopped all play: this tournament is cancelled,"
    " and every chip paid into it was refunded."
)
ALL_CHANNELS: Final = ("all", "any", "")
_CHANNEL_ID: Final = re.compile(r"[0-9]{15,20}")


def channels_setting(text: str) -> str:
    """``table_channels`` from what an admin typed: channel mentions or ids, or "all"."""
    if text.strip().lower() in ALL_CHANNELS:
        return ""
    ids = _CHANNEL_ID.findall(text)
    if not ids:
        raise ValueError(_('table_channels takes channel mentions (#blackjack) or "all"'))
    return ",".join(dict.fromkeys(ids))


def gates_text(settings: GuildSettings) -> Text:
    """The server's gates, one per line, for the settings list."""
    days = settings.min_account_age_days
    age = n_("{count} day", "{count} days", days, count=days) if days else _("off")
    channels = settings.table_channels
    where = joined([f"<#{c}>" for c in channels.split(",")]) if channels else _("any channel")
    role = f"<@&{settings.play_role_id}>" if settings.play_role_id else _("everyone")
    stopped = _("stopped by an admin") if settings.play_stopped else _("on")
    return _(
        "Minimum account age for /daily and seats: {age}\n"
        "Tables open in: {channels}\n"
        "Who may play: {role}\n"
        "Play: {play}",
        age=age,
        channels=where,
        role=role,
        play=stopped,
    )


@dataclass(frozen=True, slots=True)
class StopReport:
    """What stopping all play did: tables closed, tournaments cancelled, and tables or
    tournaments that could not stop now (a store outage, a failed close)."""

    closed: int = 0
    cancelled: int = 0
    failed: int = 0


async def stop_all_play(bot: BlackjackBot, guild_id: int) -> StopReport:
    """Close every open table of the server, refunding any round in progress, and cancel
    every open tournament, refunding every fee and prize pool. One table or tournament
    that fails is logged and counted; the others are stopped all the same."""
    closed = failed = 0
    for snapshot in bot.tables.open_tables():
        if snapshot.guild_id != guild_id or snapshot.mode != "cash":
            continue  # (a tournament's tables close with it, below)
        try:
            await bot.tables.close(snapshot.table_id, STOPPED_REASON)
        except Exception:
            log.exception("stopping all play: table %s did not close", snapshot.table_id)
        # Closed, or still there (paused by a store outage, or its close failed).
        if bot.tables.table_in(snapshot.channel_id) is None:
            closed += 1
        else:
            failed += 1
    cancelled = 0
    try:
        cancelled = len(await bot.tournaments.stop_in_guild(guild_id, TOURNAMENT_STOPPED_REASON))
    except Exception:
        log.exception("stopping all play: the tournaments did not stop")
        failed += 1
    return StopReport(closed, cancelled, failed)


def stopped_text(settings: Text, report: StopReport) -> Text:
    """The settings answer when an admin stopped all play, with what it closed."""
    text = _(
        "{settings}\nAll play stopped: tables closed now: {closed}; their rounds were refunded.",
        settings=settings,
        closed=report.closed,
    )
    if report.cancelled:
        text = _(
            "{text}\nTournaments cancelled: {cancelled}; every fee was refunded.",
            text=text,
            cancelled=report.cancelled,
        )
    if report.failed:
        text = _(
            "{text}\nTables that could not close now: {failed}. Run this again in a moment.",
            text=text,
            failed=report.failed,
        )
    return text


def log_line(entry: ModerationEntry) -> Text:
    """One link, unlink or lift, with the moderator and the reason."""
    said = {
        "date": f"<t:{entry.created_at // 1_000_000}:d>",
        "member": f"<@{entry.user_id}>",
        "other": f"<@{entry.other_id}>",
        "admin": f"<@{entry.actor_id}>",
        "reason": shown_name(entry.reason, 100),
    }
    if entry.action == "link" and entry.other_id is not None:
        return _("{date} {member} linked with {other} by {admin}: “{reason}”", **said)
    if entry.action == "unlink":
        return _("{date} {member} unlinked by {admin}: “{reason}”", **said)
    if entry.action == "lift":
        return _("{date} {member} break lifted by {admin}: “{reason}”", **said)
    return _("{date} {member} {action} by {admin}: “{reason}”", action=entry.action, **said)


def player_embed(
    member: discord.abc.User, mine: PlayerLimits, log: list[ModerationEntry], now: float
) -> discord.Embed:
    """``/blackjack-admin player``: a member's limits, break and links, and their history,
    in the language being spoken (``bot.i18n.speaking``)."""
    title = _("Player · {name}", name=shown_name(member.display_name))
    embed = discord.Embed(title=tr(title), colour=0x95A5A6)
    embed.description = tr(limits_text(mine, now))
    linked = ", ".join(f"<@{user}>" for user in mine.linked) or tr(_("none"))
    embed.add_field(name=tr(_("Linked accounts")), value=linked, inline=False)
    if log:
        lines = "\n".join(tr(log_line(entry)) for entry in log)
        embed.add_field(name=tr(_("Moderation")), value=lines, inline=False)
    return embed


async def moderate(
    bot: BlackjackBot,
    interaction: discord.Interaction[Any],
    action: str,
    member: discord.Member,
    reason: str,
    other: discord.Member | None = None,
) -> Text:
    """Link (with ``other``), unlink or lift; the answer for the moderator."""
    assert interaction.guild_id is not None
    play, g, actor = bot.store.play, interaction.guild_id, interaction.user.id
    try:
        if action == "link":
            assert other is not None
            if other.id == member.id:
                return _("Nothing changed: an account cannot be linked to itself.")
            done = await play.link(g, member.id, other.id, actor, reason)
            if done:
                return _(
                    "Linked {member} and {other} in this server: here they now share one"
                    " /daily claim and one set of limits (the stricter of each).",
                    member=member.mention,
                    other=other.mention,
                )
            return _(
                "{member} and {other} are already linked. Nothing changed.",
                member=member.mention,
                other=other.mention,
            )
        if action == "unlink":
            done = await play.unlink(g, member.id, actor, reason)
            if done:
                return _(
                    "Unlinked {member} in this server. Each account keeps the limits its"
                    " player set.",
                    member=member.mention,
                )
            return _("{member} is not linked to anyone. Nothing changed.", member=member.mention)
        done = await play.lift_exclusion(g, member.id, actor, reason)
    except ValueError as error:
        return _("Nothing changed: {reason}.", reason=str(error))
    if done:
        return _(
            "Lifted {member}'s break in this server; it still holds in every other server. "
            "A timed break, if any, still runs to its end.",
            member=member.mention,
        )
    return _(
        "{member} has no break that waits for an admin of this server. Nothing changed.",
        member=member.mention,
    )
