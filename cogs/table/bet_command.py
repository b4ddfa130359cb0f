"""``/bet amount [hands] [21plus3] [perfect_pairs] ...``: stake chips on this round at the
channel's table, with side bets on each hand where the table offers them (one option per
bet of the registry: ``cogs.table.side_bet_options``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_reply import tell
from bot.engine import MAX_SPOTS
from bot.i18n import _, known_language
from bot.play_gate import Activity
from bot.tables import TableSnapshot
from bot.user_install import anywhere, economy_scope
from cogs.responsible import asker_of
from cogs.table.bet_form import BetForm
from cogs.table.commands import TableCog
from cogs.table.presses import player_of
from cogs.table.refusals import refuse_command_error
from cogs.table.response_window import BUSY, TimelyResponse
from cogs.table.side_bet_options import side_bet_options, side_stakes

if TYPE_CHECKING:
    from bot.app import BlackjackBot

#: Longer than any amount a person types ("2.5k", "1,000,000"); Discord enforces it.
AMOUNT_MAX_LENGTH = 32


#: A tournament player's bet while on a break begun after they entered the tournament.
ON_BREAK: Final = _(
    "{refusal} Your tournament seat plays on by itself until then:"
    " the minimum bet each hand, and basic strategy."
)


class BettingCog(commands.Cog, name="Betting"):
    """Bets by slash command; the Bet buttons on the table message live in the table cog."""

    def __init__(self, bot: BlackjackBot, table: TableCog) -> None:
        self.bot = bot
        self.table = table
        self.messages = table.messages

    async def cog_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """A refused bet is answered to the bettor (the tree's handler does the rest)."""
        await refuse_command_error(interaction, error, self.messages)

    @app_commands.command(name="bet", description="Bet on this round at the channel's table")
    @app_commands.describe(
        amount="Chips a hand: 500, 1k, 2.5k, 1m, half, max or all",
        hands="How many hands (spots) to play, 1 to 7",
    )
    @anywhere
    @side_bet_options
    async def bet(
        self,
        interaction: discord.Interaction[Any],
        /,
        amount: app_commands.Range[str, 1, AMOUNT_MAX_LENGTH],
        hands: app_commands.Range[int, 1, MAX_SPOTS] = 1,
        **side: int | None,
    ) -> None:
        """Stake the bet (and its side bets) at once; the table message shows it (and deals
        when everyone has bet)."""
        if await self.table.ended_unseen(interaction):
            return
        side_bets = side_stakes(side)
        await self.place(interaction, amount, hands, side_bets)

    def form(self, locale: object) -> discord.ui.Modal:
        """The Bet button's form (a tournament table's sealed bet)."""
        return BetForm(self, locale)

    async def seat_gate(self, interaction: discord.Interaction[Any], table: TableSnapshot) -> bool:
        """At a game mode's table (a tournament's) the chips are not the economy's: only a
        break begun since the player entered holds them back, and their seat plays on."""
        refusal = await self.bot.play_gate.on_break(table.guild_id, interaction.user.id)
        if refusal is not None:
            await tell(interaction, ON_BREAK.filled(refusal=refusal.args[0]))
        return refusal is None

    async def place(
        self,
        interaction: discord.Interaction[Any],
        amount: str,
        hands: int = 1,
        side: dict[str, int] | None = None,
        *,
        secret: bool = False,
    ) -> None:
        """The bet at the channel's table (``/bet``, ``/tournament bet``, the Bet form): past
        the play gate, answered with a receipt; a refusal is raised (TableError)."""
        self.bot.dispatch("seat_interaction", interaction)  # a bet may seat its player
        channel_id = interaction.channel_id or 0
        table = self.bot.tables.table_in(channel_id)
        table_id = None if table is None else table.table_id
        messages = self.messages
        if table_id is not None and messages.overloaded(table_id):
            await tell(interaction, BUSY)
            return
        if table is not None and table.mode != "cash":
            if not await self.seat_gate(interaction, table):
                return
        else:
            await self.bot.play_gate.require(
                economy_scope(interaction), asker_of(interaction), Activity.BET
            )
        language = await self.reading_language(interaction, table)
        async with TimelyResponse(interaction, self.bot.clock) as answer, messages.busy(table_id):
            reply = await self.bot.tables.bet(
                channel_id,
                player_of(interaction),
                amount,
                hands,
                side,
                secret=secret,
                language=language,
            )
            # The receipt is the command's one answer: private, and left for the player to
            # dismiss (deleting it would be a second request; the table shows the bet). A
            # first bet's notice rides in it.
            notice = self.bot.tables.notice_due(interaction.user.id)
            await answer.text(reply.note, notice=notice or "")
        await messages.renew_pocket(reply.snapshot.table_id, interaction)

    async def reading_language(
        self, interaction: discord.Interaction[Any], table: TableSnapshot | None
    ) -> str:
        """The language a bet is read in: the player's client's, or where the bot does not
        speak it, the table's (the player reads the table's amounts in it)."""
        language = known_language(interaction.locale)
        if language is not None:
            return language
        if table is None:
            return await self.messages.renderer.language(interaction.guild_id or 0)
        return await self.messages.renderer.table_language(table)
