"""``/limits``: a player's own daily loss limit, session reminder and breaks, set privately;
the reality check's Continue button; the one-time no-value notice at a first bet.

Every answer here is ephemeral: a player's limits are nobody else's business. The
server's gates and the limits are applied by bot.play_gate before play, and by the
store inside the transaction that stakes a bet.
"""

from __future__ import annotations

import re
from collections.abc import Container
from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_reply import tell
from bot.failures import failures_answered
from bot.i18n import Text, _, speaking, tr
from bot.play_gate import Asker
from bot.tables.errors import PlayBlocked
from bot.tables.play_words import duration, when
from bot.user_install import anywhere
from db.models import MAX_BALANCE
from db.ops.limit_values import PlayerLimits
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
CONFIRMED: Final = _("Thanks. Your session starts again now; /bet when you're ready.")
NO_LIMIT: Final = _("none")
NOTHING_GIVEN: Final = _("Give a daily loss limit, a session length, or both. Nothing changed.")
ADMIN_ONLY_BREAK: Final = _(
    "Your break lasts until a server admin lifts it, so only an admin can end it."
)
NO_BREAK: Final = _("You're not on a break.")
#: The reality check's button.
CONTINUE: Final = _("Continue")


class _RolesOf(Container[int]):
    """A member's roles, asked one at a time: the play gate asks about one role, if any,
    and ``Member.roles`` builds and sorts every role of the member at each /bet and click."""

    __slots__ = ("_member",)

    def __init__(self, member: discord.Member) -> None:
        self._member = member

    def __contains__(self, role_id: object) -> bool:
        return isinstance(role_id, int) and self._member.get_role(role_id) is not None


def asker_of(interaction: discord.Interaction[Any]) -> Asker:
    """The member behind an interaction, with their roles when Discord sent them."""
    user = interaction.user
    return Asker(user.id, _RolesOf(user) if isinstance(user, discord.Member) else None)


class ContinueButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"rc:continue:(?P<user>[0-9]{1,20})",
):
    """The reality check's Continue: the player read it and goes on (a new session period)."""

    def __init__(self, user_id: int, label: str = CONTINUE) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
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
        async with failures_answered(interaction, "a click on Continue"):
            bot: BlackjackBot = interaction.client
            await bot.store.play.confirm_reality_check(interaction.user.id)
            with speaking(interaction.locale):
                confirmed = tr(CONFIRMED)
            await interaction.response.edit_message(content=confirmed, view=None)


def reality_check_view(user_id: int, label: str = CONTINUE) -> discord.ui.View:
    """The Continue button (``label``, in the player's language) under a reality check."""
    view = discord.ui.View(timeout=None)
    view.add_item(ContinueButton(user_id, label))
    return view


async def tell_refusal(interaction: discord.Interaction[Any], error: PlayBlocked) -> None:
    """A refusal of play, to the member alone, in their language: a reality check comes with
    its Continue."""
    refusal: str = error.args[0]  # the catalog message it was raised with
    if not error.reality_check:
        await tell(interaction, refusal)
        return
    with speaking(interaction.locale):
        text, view = tr(refusal), reality_check_view(interaction.user.id, tr(CONTINUE))
    if interaction.response.is_done():
        await interaction.followup.send(text, view=view, ephemeral=True)
    else:
        await interaction.response.send_message(text, view=view, ephemeral=True)


def _pending(now: Text, later: Text | None, at: int | None) -> Text:
    """A limit with its pending change (``500 chips (becomes 1,000 chips <date>)``), if any."""
    if at is None:
        return now
    return _(
        "{limit} (becomes {next} {when})", limit=now, next=later or NO_LIMIT, when=when(at / 1e6)
    )


def _chips(amount: int | None) -> Text | None:
    return None if amount is None else _("{amount} chips", amount=amount)


def _minutes(seconds: int | None) -> Text | None:
    return None if seconds is None else duration(seconds)


def limits_text(mine: PlayerLimits, now: float) -> Text:
    """A player's limits and today's play, one per line."""
    limits = mine.limits
    micros = round(now * 1e6)
    if limits.until_admin:
        on_break = _("until a server admin lifts it")
    elif limits.excluded(micros):
        on_break = _("until {when}", when=when((limits.excluded_until or micros) / 1e6))
    else:
        on_break = _("no")
    return _(
        "Daily loss limit: {loss}\n"
        "Lost today: {lost} chips (the day resets {resets})\n"
        "Session reminder after: {session}\n"
        "On a break: {on_break}\n"
        "These limits hold in every server where you play blackjack with me.",
        loss=_pending(
            _chips(limits.daily_loss) or NO_LIMIT,
            _chips(limits.daily_loss_next),
            limits.daily_loss_next_at,
        ),
        lost=max(0, mine.lost_today),
        resets=when(mine.day_ends_at / 1e6),
        session=_pending(
            _minutes(limits.session_s) or NO_LIMIT,
            _minutes(limits.session_s_next),
            limits.session_s_next_at,
        ),
        on_break=on_break,
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
        """The player's limits, privately, as they hold here (a break this server's admin
        lifted is not on here)."""
        play = self.bot.store.play
        mine = await play.limits(interaction.user.id, guild_id=interaction.guild_id)
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
        text = _(
            "{limits}\nLower limits apply at once; higher limits, or none, apply 24 hours after"
            " you ask.",
            limits=limits_text(mine, self.bot.clock.now()),
        )
        await tell(interaction, text)

    @limits.command(name="break", description="Take a break from play, starting now")
    @app_commands.describe(period="How long the break lasts")
    @app_commands.choices(
        period=[app_commands.Choice(name=name, value=value) for value, name in BREAK_NAMES.items()]
    )
    async def take_break(self, interaction: discord.Interaction[Any], period: str) -> None:
        """No bets, seats, /daily or tournaments until the break ends."""
        seconds = BREAKS.get(period)
        if seconds is None:
            await tell(interaction, _("Pick one of the periods offered. Nothing changed."))
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
            text = _("Your break now ends {when}.", when=when((limits.excluded_until or now) / 1e6))
        await tell(interaction, text)


async def setup(bot: BlackjackBot) -> None:
    """discord.py extension entry point."""
    bot.add_dynamic_items(ContinueButton)
    await bot.add_cog(LimitsCog(bot))
