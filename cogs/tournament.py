"""``/tournament create | join | start | bet | standings | cancel``, and each tournament's
result. Its tables are live tables (bot.tournaments): the table cog shows them and takes
their clicks and bets; refusals are answered by the table's one path."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_reply import tell
from bot.engine import commitment
from bot.i18n import Text, _, joined, speak, speaking, tr
from bot.play_gate import Activity
from bot.tables import TableError
from bot.tables.errors import TableAlreadyOpen
from bot.tournaments import elimination as R
from bot.tournaments.state import Status, Tournament, standings_lines
from bot.user_install import economy_scope
from cogs.responsible import asker_of
from cogs.table.bet_command import AMOUNT_MAX_LENGTH
from cogs.table.commands import table_cog
from cogs.table.peers import BetForms
from cogs.table.presses import player_of
from cogs.table.refusals import refuse_command_error

if TYPE_CHECKING:
    from bot.app import BlackjackBot

log = logging.getLogger(__name__)

CASH_TABLE_HERE: Final = _(
    "This channel has a blackjack table open: a tournament needs a channel of its own."
)


def may_manage(interaction: discord.Interaction[Any]) -> bool:
    """Manage Channels, or the server's admin (Manage Server or Administrator)."""
    perms = interaction.permissions
    return perms.manage_channels or perms.manage_guild or perms.administrator


def verify_line(t: Tournament) -> Text:
    """The seed, revealed, with the command that checks it (hand n: continuation n)."""
    return _(
        "Seed `{seed}` (commitment `{commitment}`). Check hand n's shoe: "
        "`python -m bot verify --seed {seed} --continuations {hands}`",
        seed=t.seed.hex(),
        commitment=commitment(t.seed),
        hands=t.fmt.hands,
    )


class TournamentCog(commands.Cog, name="Tournament"):
    """The tournament commands, and each tournament's result."""

    tournament = app_commands.Group(
        name="tournament", description="Elimination tournaments in this channel", guild_only=True
    )

    def __init__(self, bot: BlackjackBot) -> None:
        self.bot = bot
        self.service = bot.tournaments
        self.service.ended = self._ended
        self._posting: set[asyncio.Task[None]] = set()

    async def cog_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """A refusal is answered as a table's is (a reality check with its Continue)."""
        cog = table_cog(self.bot)
        if cog is not None:
            await refuse_command_error(interaction, error, cog.messages)

    def _ended(self, t: Tournament) -> None:
        task = asyncio.create_task(self._post_result(t), name=f"tournament {t.tournament_id}")
        self._posting.add(task)
        task.add_done_callback(self._posting.discard)

    async def _post_result(self, t: Tournament) -> None:
        """The final standings (or why it ended) and the revealed seed, in each channel."""
        tables = table_cog(self.bot)
        language = "en" if tables is None else await tables.messages.renderer.language(t.guild_id)
        with speaking(language):
            if t.status is Status.FINISHED:
                heading = speak("Tournament #{id} is over.", id=str(t.tournament_id))
            else:
                heading = speak("Tournament #{id} has ended.", id=str(t.tournament_id))
            text = "\n".join([heading, *(tr(line) for line in t.final), tr(verify_line(t))])
        for channel_id in t.channels:
            try:
                await self.bot.get_partial_messageable(channel_id).send(text[:2000])
            except discord.HTTPException:
                log.warning("tournament %s: its result could not be posted", t.tournament_id)

    async def idle(self) -> None:
        """Return once every result posted so far is out (for tests)."""
        while self._posting:
            await asyncio.gather(*self._posting, return_exceptions=True)

    @tournament.command(name="create")
    @app_commands.describe(
        fee="Entry fee in chips, paid into the prize pool (default none)",
        prize="Without a fee: chips from your balance for the prize pool",
        stack="Tournament chips each player starts with (default 1,000)",
        hands="Hands to play (default 30)",
        min_bet="Smallest bet (default 10)",
        max_bet="Largest bet (default 500)",
        eliminations="Hands after which the fewest chips go out (default 8, 16, 25)",
        split="Prize split in percent, first place first (default 60/30/10)",
        duplicate="Play the same cards at several channels: create it in each of them",
    )
    async def create(
        self,
        interaction: discord.Interaction[Any],
        fee: app_commands.Range[int, 0, 1_000_000_000] = 0,
        prize: app_commands.Range[int, 0, 1_000_000_000] = 0,
        stack: app_commands.Range[int, 1, 1_000_000] = R.DEFAULT_STACK,
        hands: app_commands.Range[int, 1, R.MAX_HANDS] = R.DEFAULT_HANDS,
        min_bet: app_commands.Range[int, 1, 1_000_000] = R.DEFAULT_MIN_BET,
        max_bet: app_commands.Range[int, 1, 1_000_000] = R.DEFAULT_MAX_BET,
        eliminations: str | None = None,
        split: str | None = None,
        duplicate: bool = False,
    ) -> None:
        """Create an elimination tournament in this channel (Manage Channels)."""
        if interaction.guild_id is None or interaction.channel_id is None:
            raise TableError(_("Tournaments are played in a server's channels."))
        if not may_manage(interaction):
            raise TableError(_("Creating a tournament needs Manage Channels."))
        await self._may_host(interaction)
        elim = (
            R.parse_hands(eliminations)
            if eliminations is not None
            else tuple(h for h in R.DEFAULT_ELIMINATIONS if h < hands)
        )
        parts = R.parse_split(split) if split is not None else R.DEFAULT_SPLIT
        fmt = R.Format(stack, hands, min_bet, max_bet, elim, fee, parts).check()
        settings = await self.bot.settings.of(interaction.guild_id)
        try:
            _t, snapshot = await self.service.create(
                interaction.guild_id,
                interaction.channel_id,
                player_of(interaction),
                fmt,
                duplicate=duplicate,
                prize=prize,
                timers=(settings.bet_timer_s, settings.action_timer_s, settings.idle_close_s),
            )
        except TableAlreadyOpen:
            raise TableError(CASH_TABLE_HERE) from None
        tables = table_cog(self.bot)
        if tables is not None:
            await tables.post_table(interaction, snapshot)

    @tournament.command(name="join")
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        """Enter this channel's tournament (its entry fee is taken now).

        The play gate is asked first: a break or the server's gates keep the player out."""
        await self.bot.play_gate.require(
            economy_scope(interaction), asker_of(interaction), Activity.TOURNAMENT
        )
        t, _reply = await self.service.join(interaction.channel_id or 0, player_of(interaction))
        if t.fmt.fee:
            text = _(
                "You are in tournament #{id}. Your entry fee of {fee} is in the prize pool.",
                id=str(t.tournament_id),
                fee=t.fmt.fee,
            )
        else:
            text = _("You are in tournament #{id}.", id=str(t.tournament_id))
        await tell(interaction, text)

    @tournament.command(name="start")
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        """Close entries and deal the first hand (the host, or Manage Channels)."""
        await self._may_host(interaction)
        t = await self.service.start(
            interaction.channel_id or 0, player_of(interaction), may_manage=may_manage(interaction)
        )
        await tell(
            interaction, _("Tournament #{id} has started. Good luck!", id=str(t.tournament_id))
        )

    async def _may_host(self, interaction: discord.Interaction[Any]) -> None:
        """The play gate's refusal to create or start a tournament here (while an admin has
        stopped all play), raised."""
        await self.bot.play_gate.require(
            economy_scope(interaction), asker_of(interaction), Activity.HOST
        )

    @tournament.command(name="bet")
    @app_commands.describe(
        amount="Chips to bet this hand: 50, half, max or all",
        secret="Your one secret bet: hidden until the hand is paid",
    )
    async def bet(
        self,
        interaction: discord.Interaction[Any],
        amount: app_commands.Range[str, 1, AMOUNT_MAX_LENGTH],
        secret: bool = False,
    ) -> None:
        """Seal your bet for this hand; bets are shown when everyone has bet."""
        betting = self.bot.get_cog("Betting")
        if self.service.in_channel(interaction.channel_id or 0) is None:
            raise TableError(_("There is no tournament in this channel."))
        if isinstance(betting, BetForms):
            await betting.place(interaction, amount, secret=secret)

    @tournament.command(name="standings")
    async def standings(self, interaction: discord.Interaction[Any]) -> None:
        """Every player of this channel's tournament, best first (or its final places)."""
        channel_id = interaction.channel_id or 0
        t = self.service.in_channel(channel_id)
        if t is not None:
            heading = _("Tournament #{id} standings:", id=str(t.tournament_id))
            lines = standings_lines(t, self.service.standings(t))
            await tell(interaction, joined([heading, *lines], "\n"))
            return
        ended = self.service.ended_in(channel_id)
        if ended is None:
            raise TableError(_("There is no tournament in this channel."))
        heading = _("Tournament #{id} has ended.", id=str(ended.tournament_id))
        await tell(interaction, joined([heading, *ended.final, verify_line(ended)], "\n"))

    @tournament.command(name="cancel")
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        """End this channel's tournament now, refunding every fee (host or Manage Channels)."""
        t = await self.service.cancel(
            interaction.channel_id or 0, player_of(interaction), may_manage=may_manage(interaction)
        )
        text = _("Tournament #{id} is cancelled; every fee is refunded.", id=str(t.tournament_id))
        await tell(interaction, text)

    def fairness_text(self, channel_id: int) -> Text | None:
        """``/blackjack fairness`` in a tournament's channel: its commitment (and, once it
        has ended, its seed and how to check it); None elsewhere."""
        t = self.service.in_channel(channel_id)
        if t is not None:
            return _(
                "**Provably fair shuffle**\nTournament #{id} deals hand n from "
                "continuation n of one seed, committed before the first card: `{commitment}`. "
                "The seed is shown when the tournament ends.",
                id=str(t.tournament_id),
                commitment=commitment(t.seed),
            )
        ended = self.service.ended_in(channel_id)
        return None if ended is None else verify_line(ended)


async def setup(bot: BlackjackBot) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(TournamentCog(bot))
