"""``/limits``: a player's own daily loss limit, session reminder and breaks, set privately;
the reality check's Continue button; the one-time no-value notice at a first bet.

Every answer here is ephemeral: a player's limits are nobody else's business. The
server's gates and the limits are applied by bot.play_gate before play, and by the
store inside the transaction that stakes a bet.
"""

from __future__ import annotations

import contextlib
import re
from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_reply import tell
from bot.play_gate import Asker
from bot.pocket import anywhere
from bot.tables.errors import PlayBlocked
from bot.tables.play_words import FIRST_BET_NOTICE, duration, when
from db.models import MAX_BALANCE
from db.ops.play_limits import PlayerLimits
from db.play_store import MAX_SESSION_S

if TYPE_CHECKING:
    from bot.app import BlackjackBot

#: The breaks a player can take, by the choice's value: seconds (0: until an admin lifts it).
BREAKS: Final[dict[str, int]] = {"24h": 86_400, "7d": 7 * 86_400, "30d": 30 * 86_400, "admin": 0}
BREAK_NAMES: Final[dict[str, str]] = {
    "24h": "24 hours",
    "7d": "7 days",
    "30d": "30 days",
    "admin": "until a server admin lifts it",
}
CONFIRMED: Final = "Thanks. Your session starts again now; /bet when you're ready."
NO_LIMIT: Final = "none"
NOTHING_GIVEN: Final = "Give a daily loss limit, a session length, or both. Nothing changed."
ADMIN_ONLY_BREAK: Final = (
    "Your break lasts until a server admin lifts it, so only an admin can end it."
)
NO_BREAK: Final = "You're not on a break."
EVERY_SERVER: Final = "These limits hold in every server where you play blackjack with me."
BREAK_ENDS: Final = "Your break now ends {when}."


def asker_of(interaction: discord.Interaction[Any]) -> Asker:
    """The member behind an interaction, with their roles when Discord sent them."""
    user = interaction.user
    roles = getattr(user, "roles", None)
    role_ids = None if roles is None else frozenset(role.id for role in roles)
    return Asker(user.id, role_ids)


class ContinueButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"rc:continue:(?P<user>[0-9]{1,20})",
):
    """The reality check's Continue: the player read it and goes on (a new session period)."""

    def __init__(self, user_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Continue",
                custom_id=f"rc:continue:{user_id}",
                style=discord.ButtonStyle.primary,
            )
        )
        self.user_id = user_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> ContinueButton:
        """Rebuild from a click."""
        return cls(int(match["user"]))

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """The bot's gate (a press during a graceful stop is refused); only the player's own."""
        admitted: bool = await interaction.client.admit(interaction)
        return admitted and interaction.user.id == self.user_id

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Start a new session period and say so in place of the reality check."""
        bot: BlackjackBot = interaction.client
        await bot.store.play.confirm_reality_check(interaction.user.id)
        await interaction.response.edit_message(content=CONFIRMED, view=None)


def reality_check_view(user_id: int) -> discord.ui.View:
    """The Continue button under a reality check."""
    view = discord.ui.View(timeout=None)
    view.add_item(ContinueButton(user_id))
    return view


async def tell_refusal(interaction: discord.Interaction[Any], error: PlayBlocked) -> None:
    """A refusal of play, to the member alone: a reality check comes with its Continue."""
    if not error.reality_check:
        await tell(interaction, str(error))
        return
    view = reality_check_view(interaction.user.id)
    if interaction.response.is_done():
        await interaction.followup.send(str(error), view=view, ephemeral=True)
    else:
        await interaction.response.send_message(str(error), view=view, ephemeral=True)


async def first_bet_notice(bot: BlackjackBot, interaction: discord.Interaction[Any]) -> None:
    """The no-value notice, once per player (stored): sent privately after their first bet."""
    if await bot.play_gate.notice_due(interaction.user.id):
        with contextlib.suppress(discord.HTTPException):
            await interaction.followup.send(FIRST_BET_NOTICE, ephemeral=True)


def _pending(value: int | None, at: int | None, shown: str) -> str:
    """`` (becomes 500 on <date>)`` for a pending change, else nothing."""
    if at is None:
        return ""
    return f" (becomes {shown if value is not None else NO_LIMIT} {when(at / 1e6)})"


def limits_text(mine: PlayerLimits, now: float) -> str:
    """A player's limits and today's play, one per line."""
    limits = mine.limits
    micros = round(now * 1e6)
    loss = NO_LIMIT if limits.daily_loss is None else f"{limits.daily_loss:,} chips"
    loss += _pending(
        limits.daily_loss_next, limits.daily_loss_next_at, f"{limits.daily_loss_next or 0:,} chips"
    )
    session = NO_LIMIT if limits.session_s is None else duration(limits.session_s)
    session += _pending(
        limits.session_s_next, limits.session_s_next_at, duration(limits.session_s_next or 0)
    )
    if limits.until_admin:
        on_break = "until a server admin lifts it"
    elif limits.excluded(micros):
        on_break = f"until {when((limits.excluded_until or micros) / 1e6)}"
    else:
        on_break = "no"
    lost = max(0, mine.lost_today)
    return "\n".join(
        [
            f"Daily loss limit: {loss}",
            f"Lost today: {lost:,} chips (the day resets {when(mine.day_ends_at / 1e6)})",
            f"Session reminder after: {session}",
            f"On a break: {on_break}",
            EVERY_SERVER,
        ]
    )


class LimitsCog(commands.Cog, name="Limits"):
    """``/limits``: each player's own limits, private to them."""

    #: Limits are the person's own and hold everywhere, so /limits is offered in DMs too.
    limits = anywhere(
        app_commands.Group(
            name="limits", description="Your own limits: daily loss, session reminder, breaks"
        )
    )

    def __init__(self, bot: BlackjackBot) -> None:
        self.bot = bot

    @limits.command(name="show", description="See your limits and today's play")
    async def show(self, interaction: discord.Interaction[Any]) -> None:
        """The player's limits, privately."""
        mine = await self.bot.store.play.limits(interaction.user.id)
        await tell(interaction, limits_text(mine, self.bot.clock.now()))

    @limits.command(name="set", description="Set your daily loss limit or session reminder")
    @app_commands.describe(
        daily_loss="Most chips you may lose in a day (0: no limit)",
        session_minutes="Minutes of play before a reality check (0: none)",
    )
    async def set_limits(
        self,
        interaction: discord.Interaction[Any],
        daily_loss: app_commands.Range[int, 0, MAX_BALANCE] | None = None,
        session_minutes: app_commands.Range[int, 0, MAX_SESSION_S // 60] | None = None,
    ) -> None:
        """Lower takes effect at once; higher (or none) in 24 hours."""
        changes: dict[str, int | None] = {}
        if daily_loss is not None:
            changes["daily_loss"] = daily_loss or None
        if session_minutes is not None:
            changes["session_s"] = session_minutes * 60 or None
        if not changes:
            await tell(interaction, NOTHING_GIVEN)
            return
        mine = await self.bot.store.play.set_limits(interaction.user.id, changes)
        note = "Lower limits apply at once; higher limits, or none, apply 24 hours after you ask."
        await tell(interaction, f"{limits_text(mine, self.bot.clock.now())}\n{note}")

    @limits.command(name="break", description="Take a break from play, starting now")
    @app_commands.describe(period="How long the break lasts")
    @app_commands.choices(
        period=[app_commands.Choice(name=name, value=value) for value, name in BREAK_NAMES.items()]
    )
    async def take_break(self, interaction: discord.Interaction[Any], period: str) -> None:
        """No bets, seats, /daily or tournaments until the break ends."""
        seconds = BREAKS.get(period)
        if seconds is None:
            await tell(interaction, "Pick one of the periods offered. Nothing changed.")
            return
        mine = await self.bot.store.play.exclude(interaction.user.id, seconds or None)
        await tell(interaction, limits_text(mine, self.bot.clock.now()))

    @limits.command(name="end-break", description="End a timed break early (in 24 hours)")
    async def end_break(self, interaction: discord.Interaction[Any]) -> None:
        """A timed break ends 24 hours from now, if it would end later."""
        mine = await self.bot.store.play.end_exclusion(interaction.user.id)
        limits = mine.limits
        now = round(self.bot.clock.now() * 1e6)
        if limits.until_admin:
            text = ADMIN_ONLY_BREAK
        elif not limits.excluded(now):
            text = NO_BREAK
        else:
            text = BREAK_ENDS.format(when=when((limits.excluded_until or now) / 1e6))
        await tell(interaction, text)


async def setup(bot: BlackjackBot) -> None:
    """discord.py extension entry point."""
    bot.add_dynamic_items(ContinueButton)
    await bot.add_cog(LimitsCog(bot))
