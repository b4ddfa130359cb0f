"""``/balance``, ``/leaderboard`` (with page buttons), ``/daily`` and ``/stats``."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_reply import tell
from bot.failures import failures_answered
from bot.i18n import _, speak, speaking, tr
from bot.play_gate import Activity
from bot.shown_names import shown_name
from bot.tables.chip_limit import at_the_limit
from bot.tables.results import signed
from bot.user_install import POCKET_SCOPE, anywhere, economy_scope
from cogs.coach_figures import BOARDS, add_coach_figures, show_sharpest
from cogs.competition import add_achievements, season_choices, show_season
from cogs.responsible import asker_of, tell_refusal
from cogs.table.render import chips, timestamp
from db.errors import BalanceLimitExceeded, BridgedEconomy
from db.models import LeaderboardPage, PlayerStats

if TYPE_CHECKING:
    from bot.app import BlackjackBot

PER_PAGE = 10
#: /daily on a server whose chips come from UnbelievaBoat.
BRIDGED = _("This server's chips come from UnbelievaBoat: buy them with /blackjack cash-in.")
LEADERBOARD_COLOUR = 0xF1C40F


#: The title of the pocket scope's board (see bot.user_install), the reader's table mates only.
POCKET_BOARD_TITLE = _("Leaderboard · You and the people you have played with")
NO_POCKET_SEASONS = _(
    "Seasons belong to a server, and there are none outside servers. "
    "Leave out `season` to see you among the people you have played with."
)


def leaderboard_embed(board: LeaderboardPage, guild_name: str | None) -> discord.Embed:
    """One page of the leaderboard, and the reader's own place under it (``guild_name``
    None: the pocket scope's board)."""
    title = tr(POCKET_BOARD_TITLE)
    if guild_name is not None:
        title = speak("Leaderboard · {server}", server=shown_name(guild_name))
    embed = discord.Embed(title=title, colour=LEADERBOARD_COLOUR)
    if board.entries:
        embed.description = "\n".join(
            f"`#{entry.rank}` <@{entry.user_id}> · {chips(entry.balance)}"
            for entry in board.entries
        )
    else:
        embed.description = speak("Nobody has chips here yet. Claim some with /daily.")
    if board.caller is not None:
        you = speak(
            "`#{rank}` of {players} · {balance}",
            rank=str(board.caller.rank),
            players=board.total_players,
            balance=board.caller.balance,
        )
    else:
        you = speak("Not on the board yet: /balance, /daily or a bet opens your account.")
    embed.add_field(name=speak("You"), value=you, inline=False)
    embed.set_footer(
        text=speak(
            "Page {page} of {pages} · {players} players",
            page=board.page,
            pages=max(1, board.total_pages),
            players=board.total_players,
        )
    )
    return embed


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"lb:(?P<direction>prev|next):(?P<page>[0-9]{1,9})",
):
    """Previous / next page of the leaderboard; the page to show is in the custom id."""

    def __init__(self, page: int, direction: str, *, disabled: bool = False) -> None:
        label = speak("◀ Previous") if direction == "prev" else speak("Next ▶")
        super().__init__(
            discord.ui.Button(
                label=label,
                custom_id=f"lb:{direction}:{page}",
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
            )
        )
        self.page = page

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> PageButton:
        """Rebuild from a click."""
        return cls(int(match["page"]), match["direction"])

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """The bot's gate: a press during a graceful stop is refused."""
        admitted: bool = await interaction.client.admit(interaction)
        return admitted

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Edit the leaderboard message to the page this button names."""
        async with failures_answered(interaction, "a click on the leaderboard"):
            cog = interaction.client.get_cog(EconomyCog.__cog_name__)
            assert isinstance(cog, EconomyCog)
            embed, view = await cog.leaderboard_page(interaction, self.page)
            await interaction.response.edit_message(embed=embed, view=view)


def page_view(board: LeaderboardPage) -> discord.ui.View:
    """Previous and Next, disabled at the ends."""
    view = discord.ui.View(timeout=None)
    view.add_item(PageButton(max(1, board.page - 1), "prev", disabled=board.page <= 1))
    last = max(1, board.total_pages)
    view.add_item(PageButton(min(last, board.page + 1), "next", disabled=board.page >= last))
    return view


def stats_embed(name: str, stats: PlayerStats) -> discord.Embed:
    """A player's lifetime record in this server."""
    embed = discord.Embed(
        title=speak("Stats · {player}", player=shown_name(name)), colour=LEADERBOARD_COLOUR
    )
    rows = [
        (speak("Hands"), chips(stats.hands)),
        (speak("Wins"), chips(stats.wins)),
        (speak("Losses"), chips(stats.losses)),
        (speak("Pushes"), chips(stats.pushes)),
        (speak("Blackjacks"), chips(stats.blackjacks)),
        (speak("Wagered"), chips(stats.total_wagered)),
        (speak("Net"), tr(signed(stats.net))),
        (speak("Biggest win"), chips(stats.biggest_win)),
    ]
    if stats.side_bets:
        # Side bets are counted apart: the rows above are the main game's.
        rows += [
            (speak("Side bets"), chips(stats.side_bets)),
            (speak("Side bets won"), chips(stats.side_bet_wins)),
            (speak("Side bets wagered"), chips(stats.side_bet_wagered)),
            (speak("Side bets net"), tr(signed(stats.side_bet_net))),
        ]
    for label, value in rows:
        embed.add_field(name=label, value=value, inline=True)
    return embed


class EconomyCog(commands.Cog, name="Economy"):
    """Chips outside the table: balances, the leaderboard, the daily top-up, statistics."""

    def __init__(self, bot: BlackjackBot) -> None:
        self.bot = bot

    @app_commands.command(name="balance", description="Your chips (or another member's)")
    @app_commands.describe(member="Whose balance to show (default: yours)")
    @anywhere
    async def balance(
        self,
        interaction: discord.Interaction[Any],
        member: discord.Member | discord.User | None = None,
    ) -> None:
        """The balance in this server (outside servers: the pocket wallet). Your own opens
        your account if you have none; another member's is only read."""
        store, scope = self.bot.store, economy_scope(interaction)
        if member is None or member.id == interaction.user.id:
            amount = await store.balance(scope, interaction.user.id)
            text = _("You have {amount} chips.", amount=amount)
        else:
            amount = await store.read_balance(scope, member.id)
            text = _("{member} has {amount} chips.", member=member.mention, amount=amount)
        await tell(interaction, text)

    async def leaderboard_page(
        self, interaction: discord.Interaction[Any], page: int
    ) -> tuple[discord.Embed, discord.ui.View]:
        """The embed and buttons for one page, with the reader's own rank; outside servers,
        among the reader and the people they have played with."""
        scope, me = economy_scope(interaction), interaction.user.id
        among = me if scope == POCKET_SCOPE else None
        board = await self.bot.store.reports.leaderboard(
            scope, page, PER_PAGE, caller_id=me, among=among
        )
        with speaking(interaction.locale):
            name = interaction.guild.name if interaction.guild else speak("this server")
            return leaderboard_embed(board, None if among else name), page_view(board)

    @app_commands.command(
        name="leaderboard", description="The richest players in this server, or a season's best"
    )
    @app_commands.describe(
        season="A season's standings instead: current for this season, or a past one's name",
        board="sharpest: the least chips given away per 100 decisions, as the coach grades them",
    )
    @app_commands.choices(board=BOARDS)
    @anywhere
    async def leaderboard(
        self,
        interaction: discord.Interaction[Any],
        season: app_commands.Range[str, 1, 64] | None = None,
        board: app_commands.Choice[str] | None = None,
    ) -> None:
        """Page one, 10 a page, with page buttons and your own place; or a season's standings
        (seasons are a server's: outside servers there are none); or the sharpest board."""
        if board is not None and board.value == "sharpest":
            await show_sharpest(self.bot.store, interaction)
            return
        if season is not None:
            if economy_scope(interaction) == POCKET_SCOPE:
                await tell(interaction, NO_POCKET_SEASONS)
                return
            await show_season(self.bot.store, interaction, season)
            return
        embed, view = await self.leaderboard_page(interaction, 1)
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)

    @leaderboard.autocomplete("season")
    async def season_names(
        self, interaction: discord.Interaction[Any], typed: str
    ) -> list[app_commands.Choice[str]]:
        """This season and the past ones, newest first (none outside servers)."""
        if economy_scope(interaction) == POCKET_SCOPE:
            return []
        return await season_choices(self.bot.store, interaction, typed)

    @app_commands.command(name="daily", description="Claim your daily chips")
    @anywhere
    async def daily(self, interaction: discord.Interaction[Any]) -> None:
        """Credit the daily amount once a period (outside servers: to the pocket wallet)."""
        scope = economy_scope(interaction)
        refusal = await self.bot.play_gate.check(scope, asker_of(interaction), Activity.DAILY)
        if refusal is not None:
            await tell_refusal(interaction, refusal)
            return
        try:
            result = await self.bot.store.claim_daily(scope, interaction.user.id)
        except BalanceLimitExceeded as error:
            daily = _("the daily {amount} chips", amount=error.amount)
            await tell(interaction, at_the_limit(error, daily))
            return
        except BridgedEconomy:
            await tell(interaction, BRIDGED)
            return
        when = timestamp(result.next_claim_at.timestamp())
        if result.claimed:
            text = _(
                "You claimed {amount} chips. Balance: {balance}. Next claim {when}.",
                amount=result.amount,
                balance=result.balance,
                when=when,
            )
        else:
            text = _(
                "You already claimed today. Next claim {when}. Balance: {balance}.",
                when=when,
                balance=result.balance,
            )
        await tell(interaction, text)

    @app_commands.command(name="stats", description="Lifetime blackjack record")
    @app_commands.describe(member="Whose record to show (default: yours)")
    @anywhere
    async def stats(
        self,
        interaction: discord.Interaction[Any],
        member: discord.Member | discord.User | None = None,
    ) -> None:
        """Hands, wins, losses, pushes, blackjacks, wagered, net, biggest win, achievements."""
        who = member or interaction.user
        scope = economy_scope(interaction)
        stats = await self.bot.store.reports.stats(scope, who.id)
        achievements = await self.bot.store.competition.achievements(scope, who.id)
        with speaking(interaction.locale):
            embed = stats_embed(who.display_name, stats)
            add_achievements(embed, achievements)
        await add_coach_figures(self.bot.store, embed, scope, who.id, interaction.locale)
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: BlackjackBot) -> None:
    """discord.py extension entry point."""
    bot.add_dynamic_items(PageButton)
    await bot.add_cog(EconomyCog(bot))
