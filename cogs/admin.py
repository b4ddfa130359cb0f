"""``/blackjack-admin config|side-bets|grant|take|ledger|link|unlink|lift|player``: settings,
chip adjustments, a member's ledger, and the moderators' side of playing responsibly.

Hidden by default from members without Manage Server (``default_permissions``),
and checked again here, since a server can re-grant the command in its settings
to people who should still not print chips.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_reply import tell
from bot.engine import MAX_BET_CEILING, PRESETS
from bot.i18n import NATIVE_NAMES, Text, _, speaking
from bot.tables import TableError
from bot.user_install import server_only
from cogs.admin_ledger import NOT_ALLOWED, LedgerButton, ledger_page, ledger_title
from cogs.responsible_admin import (
    channels_setting,
    moderate,
    player_embed,
    stop_all_play,
    stopped_text,
)
from cogs.settings_text import changed_text, settings_text
from cogs.side_bet_config import BET_CHOICES, PAY_TABLE_DESCRIBE, side_bet_changes, side_bets_text
from cogs.table.language import SERVER, language_setting
from cogs.table.refusals import refusal_text
from db.errors import BalanceLimitExceeded, BridgedEconomy, InsufficientChips, SettingsCrossed
from db.models import CARD_STYLES, LAYOUTS, MAX_BALANCE, GuildSettings
from db.ops.seasons import SEASON_LENGTHS
from db.ops.settings import LIMITS

if TYPE_CHECKING:
    from bot.app import BlackjackBot

#: Each whole-number setting's lowest and highest value, as the store checks them
#: (``db.ops.settings.LIMITS``, the one source): the options offer only what it takes.
BET_TIMER: Final = LIMITS["bet_timer_s"]
ACTION_TIMER: Final = LIMITS["action_timer_s"]
IDLE_CLOSE: Final = LIMITS["idle_close_s"]
STARTING_CHIPS: Final = LIMITS["starting_chips"]
DAILY_AMOUNT: Final = LIMITS["daily_amount"]
SIDE_MIN_BET: Final = LIMITS["side_min_bet"]
SIDE_MAX_BET: Final = LIMITS["side_max_bet"]
SIDE_MAX_EDGE: Final = LIMITS["side_max_edge_pct"]
ACCOUNT_AGE: Final = LIMITS["min_account_age_days"]
#: The table languages an admin may set, each named in itself (the setting's values are
#: cogs.table.language.SETTINGS, read from bot.i18n's registry).
LANGUAGE_CHOICES = [
    app_commands.Choice(name="Server language", value=SERVER),
    *(app_commands.Choice(name=name, value=code) for code, name in NATIVE_NAMES.items()),
]

#: A change that would put a smallest amount above its largest, by setting (the store's
#: db.SettingsCrossed), in the admin's words.
CROSSED: Final[dict[str, Text]] = {
    "bet": _("Nothing changed: the smallest bet ({low}) would be above the largest ({high})."),
    "side_bet": _(
        "Nothing changed: the smallest side bet ({low}) would be above the largest ({high})."
    ),
}


@app_commands.default_permissions(manage_guild=True)
@server_only
class AdminCog(commands.GroupCog, name="Admin", group_name="blackjack-admin"):
    """Settings and chip adjustments; every chip change is a ledger row with the admin's id."""

    def __init__(self, bot: BlackjackBot) -> None:
        self.bot = bot
        super().__init__()

    async def cog_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """A table's refusal inside an admin command (a table paused or closed meanwhile) is
        answered with its reason; anything else goes on to the command tree's apology."""
        if isinstance(error, app_commands.CommandInvokeError) and isinstance(
            error.original, TableError
        ):
            await tell(interaction, refusal_text(error.original))

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """Only people with Manage Server; everyone else is told so, ephemerally."""
        if interaction.permissions.manage_guild:
            return True
        await tell(interaction, NOT_ALLOWED)
        return False

    @app_commands.command(name="config", description="Show or change this server's table settings")
    @app_commands.describe(
        default_preset="Rules for tables started without a preset",
        min_bet="Smallest bet a hand",
        max_bet="Largest bet a hand",
        bet_timer="Seconds for betting before the cards are dealt",
        action_timer="Seconds a player has to act before their hand stands",
        idle_close="Seconds without a bet before a table closes itself",
        starting_chips="Chips a new player starts with",
        daily_amount="Chips /daily gives",
        cards="Show cards as pictures (the bot's card emojis) or as text",
        season_length="How long a season of /leaderboard season lasts (from the next season)",
        min_account_age="Days an account must exist to claim /daily or sit (0: off)",
        table_channels='Channels where tables may open (#mentions), or "all"',
        play_role="The role that may play (the everyone role: anyone may)",
        stop_all="Stop all play now (tables, tournaments end; all refunded), or start it again",
        language="The language of table messages (default: the server's language)",
        layout="Table messages as one embed, or as components (from each table's next round)",
        practice_tables="Open every new table as a practice table (a counting trainer)",
    )
    @app_commands.choices(
        default_preset=[app_commands.Choice(name=name, value=name) for name in PRESETS],
        cards=[app_commands.Choice(name=style, value=style) for style in CARD_STYLES],
        season_length=[app_commands.Choice(name=length, value=length) for length in SEASON_LENGTHS],
        language=LANGUAGE_CHOICES,
        layout=[app_commands.Choice(name=name, value=name) for name in LAYOUTS],
    )
    async def config(
        self,
        interaction: discord.Interaction[Any],
        default_preset: str | None = None,
        min_bet: app_commands.Range[int, 1, MAX_BET_CEILING] | None = None,
        max_bet: app_commands.Range[int, 1, MAX_BET_CEILING] | None = None,
        bet_timer: app_commands.Range[int, BET_TIMER[0], BET_TIMER[1]] | None = None,
        action_timer: app_commands.Range[int, ACTION_TIMER[0], ACTION_TIMER[1]] | None = None,
        idle_close: app_commands.Range[int, IDLE_CLOSE[0], IDLE_CLOSE[1]] | None = None,
        starting_chips: app_commands.Range[int, STARTING_CHIPS[0], STARTING_CHIPS[1]] | None = None,
        daily_amount: app_commands.Range[int, DAILY_AMOUNT[0], DAILY_AMOUNT[1]] | None = None,
        cards: str | None = None,
        season_length: str | None = None,
        min_account_age: app_commands.Range[int, ACCOUNT_AGE[0], ACCOUNT_AGE[1]] | None = None,
        table_channels: app_commands.Range[str, 1, 600] | None = None,
        play_role: discord.Role | None = None,
        stop_all: bool | None = None,
        language: str | None = None,
        layout: str | None = None,
        practice_tables: bool | None = None,
    ) -> None:
        """With no options, show the settings; otherwise change the given ones (all or none)."""
        assert interaction.guild_id is not None
        given = {
            "default_preset": default_preset,
            "min_bet": min_bet,
            "max_bet": max_bet,
            "bet_timer_s": bet_timer,
            "action_timer_s": action_timer,
            "idle_close_s": idle_close,
            "starting_chips": starting_chips,
            "daily_amount": daily_amount,
            "card_style": cards,
            "season_length": season_length,
            "min_account_age_days": min_account_age,
            # @everyone (the default role) means everyone may play: no role gate.
            "play_role_id": None
            if play_role is None
            else (0 if play_role.is_default() else play_role.id),
            "play_stopped": None if stop_all is None else int(stop_all),
            "language": language,
            "layout": layout,
            "practice_tables": None if practice_tables is None else int(practice_tables),
            "table_channels": table_channels,
        }
        changes: dict[str, object] = {k: v for k, v in given.items() if v is not None}
        settings = await self._store(interaction, changes)
        if settings is None:
            return
        text = changed_text(changes, settings_text(settings))
        if stop_all:
            text = stopped_text(text, await stop_all_play(self.bot, interaction.guild_id))
        await tell(interaction, text)

    @app_commands.command(name="side-bets", description="Show or change this server's side bets")
    @app_commands.describe(
        bet="The side bet whose pay table to set",
        pay_table=PAY_TABLE_DESCRIBE,
        min_bet="Smallest side bet a hand",
        max_bet="Largest side bet a hand",
        max_edge="Largest house edge (%) of a side bet a table offers (default 25)",
    )
    @app_commands.choices(bet=BET_CHOICES)
    async def side_bets(
        self,
        interaction: discord.Interaction[Any],
        bet: str | None = None,
        pay_table: app_commands.Range[str, 1, 64] | None = None,
        min_bet: app_commands.Range[int, SIDE_MIN_BET[0], SIDE_MIN_BET[1]] | None = None,
        max_bet: app_commands.Range[int, SIDE_MAX_BET[0], SIDE_MAX_BET[1]] | None = None,
        max_edge: app_commands.Range[int, SIDE_MAX_EDGE[0], SIDE_MAX_EDGE[1]] | None = None,
    ) -> None:
        """With no options, show the side-bet settings; otherwise change the given ones (a pay
        table is checked at the default rules)."""
        given = {"side_min_bet": min_bet, "side_max_bet": max_bet, "side_max_edge_pct": max_edge}
        changes: dict[str, object] = {k: v for k, v in given.items() if v is not None}
        side = None if bet is None and pay_table is None else (bet, pay_table)
        settings = await self._store(interaction, changes, side)
        if settings is not None:
            changed = bool(changes) or side is not None
            await tell(interaction, side_bets_text(settings, changed=changed))

    async def _store(
        self,
        interaction: discord.Interaction[Any],
        changes: dict[str, object],
        side: tuple[str | None, str | None] | None = None,
    ) -> GuildSettings | None:
        """The settings after ``changes`` (all or none), or None: refused, and the admin told
        why. ``table_channels`` is as typed, and ``side`` a bet and its pay table as typed:
        checked here."""
        assert interaction.guild_id is not None
        try:
            if "table_channels" in changes:
                changes["table_channels"] = channels_setting(str(changes["table_channels"]))
            if "language" in changes:
                changes["language"] = language_setting(str(changes["language"]))
            if side is not None:
                current = await self.bot.settings.of(interaction.guild_id)
                changes["side_bets"] = side_bet_changes(*side, current.default_preset)
            settings = await self.bot.settings.write(interaction.guild_id, **changes)
        except SettingsCrossed as crossed:
            await tell(
                interaction, CROSSED[crossed.setting].filled(low=crossed.low, high=crossed.high)
            )
            return None
        except ValueError as error:
            reason = error.args[0] if isinstance(error.args[0], Text) else str(error)
            await tell(interaction, _("Nothing changed: {reason}.", reason=reason))
            return None
        return settings

    @app_commands.command(name="grant", description="Give chips to a member (a ledger row)")
    @app_commands.describe(member="Who gets the chips", amount="How many", reason="Why (kept)")
    async def grant(
        self,
        interaction: discord.Interaction[Any],
        member: discord.Member,
        amount: app_commands.Range[int, 1, MAX_BALANCE],
        reason: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        """Credit ``amount``; refused past the balance limit."""
        await self._adjust(interaction, member, amount, reason or "grant")

    @app_commands.command(name="take", description="Take chips from a member (a ledger row)")
    @app_commands.describe(member="Whose chips", amount="How many", reason="Why (kept)")
    async def take(
        self,
        interaction: discord.Interaction[Any],
        member: discord.Member,
        amount: app_commands.Range[int, 1, MAX_BALANCE],
        reason: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        """Debit ``amount``; refused (never clamped) if the member has fewer chips."""
        await self._adjust(interaction, member, -amount, reason or "take")

    @app_commands.command(name="ledger", description="A member's recent chip movements")
    @app_commands.describe(member="Whose ledger")
    async def ledger(self, interaction: discord.Interaction[Any], member: discord.Member) -> None:
        """The member's ledger rows, newest first, with round ids; Older / Newer page it."""
        embed, view = await ledger_page(interaction, member.id, ledger_title(member.display_name))
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)

    @app_commands.command(name="link", description="Link two accounts one person holds")
    @app_commands.describe(
        member="One account", other="The other account", reason="Why you judge them one person"
    )
    async def link(
        self,
        interaction: discord.Interaction[Any],
        member: discord.Member,
        other: discord.Member,
        reason: app_commands.Range[str, 1, 200],
    ) -> None:
        """One /daily claim and one set of limits for both; logged with you and the reason."""
        await tell(
            interaction, await moderate(self.bot, interaction, "link", member, reason, other)
        )

    @app_commands.command(name="unlink", description="Take an account out of its linked group")
    @app_commands.describe(member="The account", reason="Why (kept)")
    async def unlink(
        self,
        interaction: discord.Interaction[Any],
        member: discord.Member,
        reason: app_commands.Range[str, 1, 200],
    ) -> None:
        """The account keeps a copy of the group's limits; logged with you and the reason."""
        await tell(interaction, await moderate(self.bot, interaction, "unlink", member, reason))

    @app_commands.command(
        name="lift", description="Lift a break a player set until an admin lifts it"
    )
    @app_commands.describe(member="The player", reason="Why (kept)")
    async def lift(
        self,
        interaction: discord.Interaction[Any],
        member: discord.Member,
        reason: app_commands.Range[str, 1, 200],
    ) -> None:
        """Only a break "until an admin lifts it": a timed break is never shortened."""
        await tell(interaction, await moderate(self.bot, interaction, "lift", member, reason))

    @app_commands.command(name="player", description="A member's limits, break and linked accounts")
    @app_commands.describe(member="Whose")
    async def player(self, interaction: discord.Interaction[Any], member: discord.Member) -> None:
        """What the member set for themselves, and who they are linked to (read only)."""
        assert interaction.guild_id is not None
        mine = await self.bot.store.play.limits(member.id, guild_id=interaction.guild_id)
        log = await self.bot.store.play.moderation_log(interaction.guild_id, member.id)
        with speaking(interaction.locale):
            embed = player_embed(member, mine, log, self.bot.clock.now())
        await interaction.response.send_message(embed=embed, ephemeral=True)

    async def _adjust(
        self, interaction: discord.Interaction[Any], member: discord.Member, delta: int, why: str
    ) -> None:
        assert interaction.guild_id is not None
        try:
            balance = await self.bot.store.adjust(
                interaction.guild_id, member.id, delta, interaction.user.id, why
            )
        except InsufficientChips as error:
            text = _(
                "{member} has {balance} chips: cannot take {amount}. Nothing changed.",
                member=member.mention,
                balance=error.balance,
                amount=-delta,
            )
        except BalanceLimitExceeded as error:
            text = _(
                "That would take {member} past {limit} chips. Nothing changed.",
                member=member.mention,
                limit=error.limit,
            )
        except BridgedEconomy:
            text = _(
                "This server's chips come from UnbelievaBoat: they are not given or taken"
                " here. Nothing changed."
            )
        else:
            if delta > 0:
                text = _(
                    "Gave {amount} chips to {member}. Their balance: {balance}.",
                    amount=delta,
                    member=member.mention,
                    balance=balance,
                )
            else:
                text = _(
                    "Took {amount} from {member}. Their balance: {balance}.",
                    amount=-delta,
                    member=member.mention,
                    balance=balance,
                )
        await tell(interaction, text)


async def setup(bot: BlackjackBot) -> None:
    """discord.py extension entry point."""
    bot.add_dynamic_items(LedgerButton)
    await bot.add_cog(AdminCog(bot))
