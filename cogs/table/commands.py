"""``/blackjack start|join|leave|rules|stop|fairness`` and the buttons on the table message."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_reply import tell
from bot.engine import MAX_BET_CEILING, PRESETS
from bot.failures import answer_failure, store_outage
from bot.i18n import _, joined
from bot.play_gate import Activity
from bot.table_display import TableDisplay
from bot.tables import NoTableHere, TableError, TablePhase, TableSnapshot
from bot.user_install import anywhere, economy_scope, is_pocket
from cogs.responsible import asker_of
from cogs.table.buttons import ButtonRef, parse_custom_id
from cogs.table.card_emojis import CardEmojis
from cogs.table.coach import COACH_MODES, TeachNotes, coach_answer
from cogs.table.discord_codes import ALREADY_ACKNOWLEDGED
from cogs.table.discord_display import DiscordDisplay
from cogs.table.language import TableLanguages
from cogs.table.layout_setting import TableLayouts
from cogs.table.messages import TableMessages
from cogs.table.notices import missing_permissions, permission_list
from cogs.table.peers import FairnessTexts
from cogs.table.pocket import (
    EARLIER_TABLE_TIMED_OUT,
    TABLE_TIMED_OUT,
    is_pocket_table,
)
from cogs.table.presses import player_of, press
from cogs.table.refusals import apologise_for_click, refuse, refuse_command_error
from cogs.table.table_info import fairness_text, rules_text

if TYPE_CHECKING:
    from bot.app import BlackjackBot

log = logging.getLogger(__name__)


PRESET_CHOICES = [app_commands.Choice(name=name, value=name) for name in PRESETS]


class TableCog(commands.Cog, name="Table"):
    """Opening, joining and closing tables, every button on the table message, and the
    table messages themselves: while loaded, this cog is the bot's table display."""

    blackjack = anywhere(
        app_commands.Group(
            name="blackjack", description="Play blackjack at a table in this channel"
        )
    )

    def __init__(self, bot: BlackjackBot) -> None:
        self.bot = bot
        #: Where each table's message is, and the edits that keep it current.
        self.messages = TableMessages(
            bot, clock=bot.clock, max_age_s=bot.config.table_message_max_age_s
        )
        #: The card pictures (application emojis), uploaded in the background once loaded.
        self.card_emojis = CardEmojis(enabled=bot.config.card_pictures)
        self.messages.renderer.use_faces(self.card_emojis.faces_for)
        #: Each server's table language (the setting, or the server's preferred locale).
        self.languages = TableLanguages(bot, bot.settings.of)
        self.messages.renderer.use_language(self.languages.of)
        #: Each server's table layout (the embed, or Components V2).
        self.layouts = TableLayouts(bot.settings.of)
        self.messages.renderer.use_layout(self.layouts.of)
        #: Teach mode's notes, told of each round the coach grades while loaded.
        self.teach_notes = TeachNotes(bot, self.languages)
        self._display = DiscordDisplay(bot, self.messages, self.card_emojis)

    async def cog_load(self) -> None:
        """Wire the messages to the table service, start the card upload, show the tables."""
        tables = self.bot.tables
        self.messages.bind(tables.close, tables.attach_message)
        tables.gate_timers(self.messages.timer_may_act)
        self.card_emojis.start(self.bot, self.bot.settings.of)
        self.bot.display = self._display
        tables.coach.listeners.append(self.teach_notes.graded)

    async def cog_unload(self) -> None:
        """The bot shows no table any more; a card upload still running stops."""
        if self.bot.display is self._display:
            self.bot.display = TableDisplay()
            self.bot.tables.gate_timers(None)
        await self.card_emojis.stop()
        self.bot.tables.coach.listeners.remove(self.teach_notes.graded)

    async def cog_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """A command's refusal is answered to the caller (the tree's handler does the rest)."""
        await refuse_command_error(interaction, error, self.messages)

    # -- buttons -------------------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A click on a table button: past the bot's gate (stopping, recovering), to press;
        a refusal is answered in the one place, anything unexpected with an apology."""
        if interaction.type is not discord.InteractionType.component or interaction.data is None:
            return
        ref = parse_custom_id(str(interaction.data.get("custom_id", "")))
        if ref is None or not await self.bot.admit(interaction):
            return
        try:
            await self.press(interaction, ref)
        except TableError as error:
            await refuse(interaction, error, self.messages)
        except Exception as error:
            if store_outage(error) is not None:  # not a bug: answered as the table answers it
                await answer_failure(
                    interaction, error, f"a click on table {ref.table_id}", logger=log
                )
                return
            log.exception("a click on table %s failed", ref.table_id)
            if getattr(error, "code", None) != ALREADY_ACKNOWLEDGED:  # else it was answered
                await apologise_for_click(interaction)

    async def press(self, interaction: discord.Interaction[Any], ref: ButtonRef) -> None:
        """One response per press (``cogs.table.presses``)."""
        await press(self, interaction, ref)

    # -- commands ------------------------------------------------------------------------------

    @blackjack.command(name="start", description="Open a blackjack table in this channel")
    @app_commands.describe(
        preset="The rules (default: this server's)",
        min_bet="Smallest bet a hand (default: this server's)",
        max_bet="Largest bet a hand (default: this server's)",
        practice="A counting trainer: a Count button, and a quiz at the reshuffle",
    )
    @app_commands.choices(preset=PRESET_CHOICES)
    async def start(
        self,
        interaction: discord.Interaction[Any],
        preset: str | None = None,
        min_bet: app_commands.Range[int, 1, MAX_BET_CEILING] | None = None,
        max_bet: app_commands.Range[int, 1, MAX_BET_CEILING] | None = None,
        practice: bool = False,
    ) -> None:
        """Post the table message (the public response) and tell the service its id."""
        assert interaction.channel_id is not None
        pocket = is_pocket(interaction)  # answers only: no channel the bot must post in
        missing = [] if pocket else missing_permissions(interaction.app_permissions)
        if missing:
            await tell(
                interaction,
                _(
                    "I can't run a table here: I need {permissions} in this channel. "
                    "Ask a moderator to allow that.",
                    permissions=permission_list(missing),
                ),
            )
            return
        await self.bot.play_gate.require(
            economy_scope(interaction), asker_of(interaction), Activity.OPEN, interaction.channel_id
        )
        self.bot.dispatch("seat_interaction", interaction)  # the starter sits down
        # A pocket table here past its last token ends first (refunded); the new one opens.
        old = self.bot.tables.table_in(interaction.channel_id)
        ended = old is not None and await self.messages.end_expired(old.table_id) is not None
        snapshot, note = await self.bot.tables.start(
            economy_scope(interaction),
            interaction.channel_id,
            player_of(interaction),
            preset=preset,
            min_bet=min_bet,
            max_bet=max_bet,
            practice=practice,
        )
        if is_pocket_table(snapshot):
            self.messages.renderer.opened_pocket(snapshot.table_id, interaction.locale)
        posted = await self.post_table(interaction, snapshot)
        if posted and ended:
            await tell(interaction, EARLIER_TABLE_TIMED_OUT)
        if posted and note:  # what the seat's listeners say (the bridge's buy-in)
            await tell(interaction, note)

    async def post_table(
        self, interaction: discord.Interaction[Any], snapshot: TableSnapshot
    ) -> bool:
        """Post a new table's message as the interaction's response (``/blackjack start``,
        a tournament's table) and tell the service its id. False if Discord refused it: the
        table is closed, anything staked at it refunded."""
        payload = await self.messages.payload(snapshot)
        try:
            await interaction.response.send_message(**payload.fields())
            message = await interaction.original_response()
        except discord.HTTPException:
            log.warning("could not post table %s", snapshot.table_id, exc_info=True)
            await self.bot.tables.close(
                snapshot.table_id, _("the table message could not be posted")
            )
            return False
        self.messages.answered_with_table(snapshot, interaction)
        self.messages.attach(snapshot, message.id, payload.layout)
        await self.bot.tables.attach_message(snapshot.table_id, message.id)
        return True

    @blackjack.command(name="join", description="Sit down at this channel's table")
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        """Seat the caller; the table message shows them at once."""
        if await self.ended_unseen(interaction):
            return
        await self.bot.play_gate.require(
            economy_scope(interaction), asker_of(interaction), Activity.JOIN
        )
        self.bot.dispatch("seat_interaction", interaction)
        reply = await self.bot.tables.join(interaction.channel_id or 0, player_of(interaction))
        sat = _("You sat down. Bet with /bet amount [hands].")
        await tell(interaction, joined([sat, reply.note], "\n") if reply.note else sat)

    @blackjack.command(name="leave", description="Stand up from this channel's table")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """Leave now, or when this round ends if you have hands in it."""
        if await self.ended_unseen(interaction):
            return
        self.bot.dispatch("seat_interaction", interaction)
        reply = await self.bot.tables.leave(interaction.channel_id or 0, player_of(interaction))
        await tell(interaction, reply.note)

    async def ended_unseen(self, interaction: discord.Interaction[Any]) -> bool:
        """A command at a pocket table past its last token: the table ends (its round
        refunded) and the caller is told; True then, and the command does nothing more."""
        table = self.bot.tables.table_in(interaction.channel_id or 0)
        if table is None or await self.messages.end_expired(table.table_id) is None:
            return False
        await tell(interaction, TABLE_TIMED_OUT)
        return True

    @blackjack.command(name="rules", description="This table's rules and house edge")
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        """The rules in plain words; the house edge is computed off the event loop."""
        snapshot = self.bot.tables.table_in(interaction.channel_id or 0)
        if snapshot is not None:
            preset, rules = snapshot.preset, self.bot.tables.rules_of(snapshot.table_id)
            side_bets = self.bot.tables.side_bet_lines(snapshot.table_id)
        elif interaction.guild_id is not None:
            # No table yet: the rules a table opened here now would have, to read first.
            preset, rules, side_bets = await self.bot.tables.server_rules(interaction.guild_id)
        else:
            raise NoTableHere()
        await interaction.response.defer(ephemeral=True, thinking=True)
        edge = await self.bot.tables.advice.edge(rules)  # the strategy worker, cached
        text = rules_text(preset, rules, edge, side_bets)
        if snapshot is None:
            text = _("No table is open here; a new one would play:\n{rules}", rules=text)
        await tell(interaction, text)

    @blackjack.command(
        name="stop", description="Close this channel's table (host or Manage Channels)"
    )
    async def stop(self, interaction: discord.Interaction[Any]) -> None:
        """Close the table: now between rounds (bets not dealt are refunded), else once the
        round in play is settled."""
        may_manage = interaction.permissions.manage_channels
        reply = await self.bot.tables.stop(
            interaction.channel_id or 0, player_of(interaction), may_manage_channel=may_manage
        )
        if reply.snapshot.phase is TablePhase.CLOSED:
            text = _("Table closed. Any bets not yet dealt were refunded.")
        else:
            text = _("The round in play is played out; the table closes when it ends.")
        await tell(interaction, text)

    @blackjack.command(name="fairness", description="Check the shuffle: commitment and last seed")
    async def fairness(self, interaction: discord.Interaction[Any]) -> None:
        """The current shoe's commitment, the previous shoe's seed, and how to verify it."""
        channel_id = interaction.channel_id or 0
        other = self.bot.get_cog("Tournament")
        text = other.fairness_text(channel_id) if isinstance(other, FairnessTexts) else None
        if text is None:
            text = fairness_text(self.bot.tables.fairness(channel_id))
        await tell(interaction, text)

    @blackjack.command(name="coach", description="Your last round, each decision graded exactly")
    @app_commands.describe(mode="teach: a private note after each round on a costly decision")
    @app_commands.choices(mode=COACH_MODES)
    async def coach(
        self, interaction: discord.Interaction[Any], mode: app_commands.Choice[str] | None = None
    ) -> None:
        """The player's last graded round, privately (cogs/table/coach.py)."""
        await coach_answer(self.bot, interaction, None if mode is None else mode.value)


def table_cog(bot: commands.Bot) -> TableCog | None:
    """The loaded table cog (its messages and card emojis); None when it is not loaded.

    Found by its name, not by ``isinstance``: discord.py imports an extension's modules
    afresh each time it loads it, so the cog may be of a newer copy of this class.
    """
    return cast("TableCog | None", bot.get_cog(TableCog.__cog_name__))


async def add_table_cog(bot: BlackjackBot) -> TableCog:
    """Add the table's commands and buttons."""
    cog = TableCog(bot)
    await bot.add_cog(cog)
    return cog
