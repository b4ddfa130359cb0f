"""``/bet amount [hands]``: stake chips on this round at the channel's table."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_reply import tell
from bot.engine import MAX_SPOTS
from bot.play_gate import Action
from cogs.responsible import asker_of, first_bet_notice
from cogs.table.commands import player_of
from cogs.table.messages import TableMessages
from cogs.table.receipts import Receipts
from cogs.table.refusals import refuse_command_error
from cogs.table.response_window import BUSY, TimelyResponse

if TYPE_CHECKING:
    from bot.app import BlackjackBot

#: Longer than any amount a person types ("2.5k", "1,000,000"); Discord enforces it.
AMOUNT_MAX_LENGTH = 32


class BettingCog(commands.Cog, name="Betting"):
    """Bets by slash command; the Bet buttons on the table message live in the table cog."""

    def __init__(self, bot: BlackjackBot, messages: TableMessages, receipts: Receipts) -> None:
        self.bot = bot
        self.messages = messages
        self.receipts = receipts

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
    @app_commands.guild_only()
    async def bet(
        self,
        interaction: discord.Interaction[Any],
        amount: app_commands.Range[str, 1, AMOUNT_MAX_LENGTH],
        hands: app_commands.Range[int, 1, MAX_SPOTS] = 1,
    ) -> None:
        """Stake the bet at once; the table message shows it (and deals when everyone has bet)."""
        channel_id = interaction.channel_id or 0
        table = self.bot.tables.table_in(channel_id)
        table_id = None if table is None else table.table_id
        messages = self.messages
        if table_id is not None and messages.overloaded(table_id):
            await tell(interaction, BUSY)
            return
        if interaction.guild_id is not None:
            await self.bot.play_gate.require(
                interaction.guild_id, asker_of(interaction), Action.BET
            )
        async with TimelyResponse(interaction, self.bot.clock) as answer, messages.busy(table_id):
            reply = await self.bot.tables.bet(channel_id, player_of(interaction), amount, hands)
            receipt = await answer.text(reply.note, wait=True)
        self.receipts.expire(interaction, receipt)
        await first_bet_notice(self.bot, interaction)
