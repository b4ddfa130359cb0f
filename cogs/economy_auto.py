"""The bridge's automatic transfers in Discord: ``/blackjack-admin economy auto`` sets
them (bot.bridge.auto runs them), and each one's outcome is told to its player privately,
as a followup to their last interaction in the server (the seat they took or left) while
Discord still takes one; an idle cash-out with none is not told (their cash shows it).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands
from discord.ext import commands

from bot.bridge.auto import AutoTransfers, Move, Outcome
from bot.bridge.transfers import Bridge, BridgeRefusal, NotEnoughCash, TransferResult
from bot.discord_reply import tell
from bot.i18n import Text, _
from bot.tables.chip_limit import at_the_limit
from cogs.economy_words import refusal_text, result_text
from db.errors import BalanceLimitExceeded, InsufficientChips
from db.models import MAX_BALANCE, GuildSettings
from db.ops.settings import LIMITS

if TYPE_CHECKING:
    from bot.app import BlackjackBot

log = logging.getLogger(__name__)

#: Discord takes followups to an interaction for 15 minutes; a little margin.
FOLLOWUP_S: Final = 14 * 60
IDLE_MAX: Final = LIMITS["bridge_idle_cash_out_min"][1]
#: Interactions remembered before those too old for a followup are forgotten.
KEPT_MOST: Final = 10_000


def auto_text(settings: GuildSettings) -> Text:
    """The automatic transfers as they are set."""
    off = _("off")
    return _(
        "Automatic buy-in on sitting down: {buy_in}\nCash-out on leaving a table: {leave}\n"
        "Cash-out after idle time: {idle}",
        buy_in=_("up to {chips} chips", chips=settings.bridge_buy_in)
        if settings.bridge_buy_in
        else off,
        leave=_("on") if settings.bridge_cash_out_on_leave else off,
        idle=_("after {minutes} minutes", minutes=settings.bridge_idle_cash_out_min)
        if settings.bridge_idle_cash_out_min
        else off,
    )


def outcome_text(move: Move, outcome: Outcome, balance: int) -> Text | None:
    """What the player is told of an automatic transfer (None: nothing worth a message)."""
    if isinstance(outcome, TransferResult):
        return result_text(outcome, balance)
    if isinstance(outcome, NotEnoughCash):
        return _(
            "Your buy-in was refused: you have {cash} cash on UnbelievaBoat. You keep your"
            " seat; buy chips with /blackjack cash-in.",
            cash=outcome.cash,
        )
    if isinstance(outcome, BalanceLimitExceeded):
        return at_the_limit(outcome, _("this buy-in"))
    if isinstance(outcome, InsufficientChips) or move == "cash_out":
        return None  # a bet took the chips first, or a transfer is still open: nothing moved
    return refusal_text(outcome)


class EconomyAuto(commands.Cog, name="EconomyAuto"):
    """Runs the automatic transfers and tells their players."""

    def __init__(self, bot: BlackjackBot, bridge: Bridge) -> None:
        self.bot = bot
        self.auto = AutoTransfers(
            bridge,
            bot.settings,
            bot.clock,
            seated=self._seated,
            at_stake=self._at_stake,
            report=self._report,
            refused=self._refused,
        )
        #: Each member's last interaction in a server and when it came (bot clock).
        self._last: dict[tuple[int, int], tuple[discord.Interaction[Any], float]] = {}
        self._watching: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        """Listen to the seats; watch for idle chips."""
        flow = self.bot.tables.flow
        flow.on_seat_taken.append(self.auto.seat_taken)
        flow.on_seat_left.append(self.auto.seat_left)
        guilds = self._guild_ids
        self._watching = asyncio.create_task(self.auto.watch_idle(guilds), name="bridge idle")

    async def cog_unload(self) -> None:
        """Stop listening and watching; cancel what runs."""
        flow = self.bot.tables.flow
        flow.on_seat_taken.remove(self.auto.seat_taken)
        flow.on_seat_left.remove(self.auto.seat_left)
        if self._watching is not None:
            self._watching.cancel()
            await asyncio.gather(self._watching, return_exceptions=True)
        await self.auto.close()

    @commands.Cog.listener()
    async def on_seat_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Remember the member's last interaction that could take or leave a seat in the
        server (for the outcome's words): the table cog dispatches those alone, so the
        clicks of a round cost nothing here."""
        if interaction.guild_id is None:
            return
        now = self.bot.clock.now()
        if len(self._last) >= KEPT_MOST:  # now and then, not at every interaction
            self._last = {k: v for k, v in self._last.items() if now - v[1] < FOLLOWUP_S}
        self._last[interaction.guild_id, interaction.user.id] = (interaction, now)

    def _guild_ids(self) -> list[int]:
        return [guild.id for guild in self.bot.guilds]

    def _seated(self, guild_id: int, user_id: int) -> bool:
        tables = self.bot.tables.registry.tables.values()
        return any(t.guild_id == guild_id and t.seat_of(user_id) for t in tables)

    def _at_stake(self, guild_id: int, user_id: int) -> bool:
        for table in self.bot.tables.registry.tables.values():
            seat = table.seat_of(user_id) if table.guild_id == guild_id else None
            if seat is not None and (seat.spots or table.in_round(seat)):
                return True
        return False

    @staticmethod
    def _refused(refusal: BridgeRefusal | BalanceLimitExceeded) -> Text:
        """A buy-in our books refuse, in the seat's answer."""
        if isinstance(refusal, BalanceLimitExceeded):
            return at_the_limit(refusal, _("this buy-in"))
        return _("No buy-in: {reason}", reason=refusal_text(refusal))

    async def _report(self, guild_id: int, user_id: int, move: Move, outcome: Outcome) -> None:
        last = self._last.get((guild_id, user_id))
        if last is None or self.bot.clock.now() - last[1] >= FOLLOWUP_S:
            return
        balance = await self.bot.store.read_balance(guild_id, user_id)
        text = outcome_text(move, outcome, balance)
        if text is None:
            return
        try:
            await tell(last[0], text)
        except discord.HTTPException as error:
            log.info("the outcome of an automatic %s was not told: %s", move, error)


@app_commands.describe(
    buy_in="Chips a player who sits down with fewer buys up to (0: off)",
    cash_out_on_leave="Change a player's chips back into cash when they leave a table",
    idle_cash_out_minutes="Change a player's chips back after this many idle minutes (0: off)",
)
async def auto(
    interaction: discord.Interaction[Any],
    buy_in: app_commands.Range[int, 0, MAX_BALANCE] | None = None,
    cash_out_on_leave: bool | None = None,
    idle_cash_out_minutes: app_commands.Range[int, 0, IDLE_MAX] | None = None,
) -> None:
    """Set the automatic transfers (each off by default); without options, show them."""
    assert interaction.guild_id is not None
    changes = {
        "bridge_buy_in": buy_in,
        "bridge_cash_out_on_leave": None if cash_out_on_leave is None else int(cash_out_on_leave),
        "bridge_idle_cash_out_min": idle_cash_out_minutes,
    }
    changes = {name: value for name, value in changes.items() if value is not None}
    settings = interaction.client.settings
    if changes:
        shown = await settings.write(interaction.guild_id, **changes)
        if shown.bridge_idle_cash_out_min:
            cog = interaction.client.get_cog("EconomyAuto")
            assert isinstance(cog, EconomyAuto)
            cog.auto.idle_wanted.set()  # the watcher starts waiting on the clock
    else:
        shown = await settings.of(interaction.guild_id)
    await tell(interaction, auto_text(shown))


def auto_command() -> app_commands.Command[Any, Any, None]:
    """``/blackjack-admin economy auto``."""
    return app_commands.Command(
        name="auto", description="Automatic buy-in and cash-outs (off by default)", callback=auto
    )
