"""The bridge to UnbelievaBoat in Discord: ``/blackjack-admin economy connect|disconnect|
status`` (with a settle button for each transfer waiting for an admin) and
``/blackjack cash-in|cash-out``.

The commands join the admin's and the table's groups when this extension loads (it is
loaded after them), so those cogs carry nothing of it. Every command that calls
UnbelievaBoat defers first: a 429's wait or a slow answer never costs an interaction.
The token is typed into a modal, never shown back, and never logged.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.bridge.client import Token, UnbClient
from bot.bridge.transfers import Bridge, BridgeRefusal, NoEconomyPermission, TransferResult
from bot.discord_reply import tell
from bot.i18n import _, speak, speaking
from bot.log_setup import UNB_TOKEN_FIELD
from bot.play_gate import Activity, PlayGate
from bot.tables.chip_limit import at_the_limit
from cogs.admin_ledger import NOT_ALLOWED
from cogs.economy_auto import EconomyAuto, auto_command
from cogs.economy_settle import SETTLE_SHOWN, SettleButton, settle_view
from cogs.economy_words import (
    NOT_BRIDGED,
    SERVER_ONLY,
    STILL_OPEN,
    held_line,
    refusal_text,
    result_text,
)
from cogs.responsible import asker_of, tell_refusal
from db.bridge_store import MAX_RATE
from db.errors import BalanceLimitExceeded, InsufficientChips
from db.models import MAX_BALANCE

if TYPE_CHECKING:
    from bot.app import BlackjackBot

log = logging.getLogger(__name__)


def bridge_of(bot: commands.Bot) -> Bridge:
    """The loaded extension's bridge."""
    cog = bot.get_cog("EconomyBridge")
    assert isinstance(cog, EconomyBridgeCog)
    return cog.bridge


class TokenForm(discord.ui.Modal):
    """Asks the admin for the application's token (never shown back)."""

    def __init__(self, bridge: Bridge, locale: object, rate: tuple[int, int]) -> None:
        with speaking(locale):
            super().__init__(title=speak("Connect UnbelievaBoat"))
            self.token: discord.ui.TextInput[TokenForm] = discord.ui.TextInput(
                label=speak("UnbelievaBoat API token"),
                custom_id=UNB_TOKEN_FIELD,
                min_length=8,
                max_length=512,
            )
        self.add_item(self.token)
        self._bridge = bridge
        self._rate = rate

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        await interaction.response.defer(ephemeral=True, thinking=True)
        token = Token(str(self.token.value).strip())
        try:
            await self._bridge.connect(
                interaction.guild_id, token, interaction.user.id, *self._rate
            )
        except NoEconomyPermission:
            text = _(
                "The application may not change balances in this server: give it the"
                " economy permission on UnbelievaBoat's site. Nothing was stored."
            )
        except BridgeRefusal:
            text = _(
                "UnbelievaBoat did not accept this token for this server: nothing was stored."
                " Authorize the application for this server on UnbelievaBoat's site first."
            )
        else:
            text = _(
                "Connected to UnbelievaBoat. Players buy chips with /blackjack cash-in and"
                " change them back with /blackjack cash-out; /daily and starting chips are off."
            )
        await tell(interaction, text)


class EconomyAdmin(app_commands.Group):
    """``/blackjack-admin economy``."""

    def __init__(self, bridge: Bridge) -> None:
        super().__init__(name="economy", description="Link this server's chips to UnbelievaBoat")
        self.bridge = bridge

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        if interaction.guild_id is not None and interaction.permissions.manage_guild:
            return True
        await tell(interaction, NOT_ALLOWED)
        return False

    @app_commands.command(name="connect", description="Connect UnbelievaBoat (asks its token)")
    @app_commands.describe(
        cash="UnbelievaBoat cash a player pays for the chips (default 1)",
        chips="Chips the player gets for that cash (default 1)",
    )
    async def connect(
        self,
        interaction: discord.Interaction[Any],
        cash: app_commands.Range[int, 1, MAX_RATE] = 1,
        chips: app_commands.Range[int, 1, MAX_RATE] = 1,
    ) -> None:
        """Open the token form; the rate is ``chips`` chips for ``cash`` cash."""
        form = TokenForm(self.bridge, interaction.locale, (cash, chips))
        await interaction.response.send_modal(form)

    @app_commands.command(name="disconnect", description="Stop using UnbelievaBoat's economy")
    async def disconnect(self, interaction: discord.Interaction[Any]) -> None:
        """Forget the token; chips bought stay with their players. Refused while a transfer
        is open: settling it needs the bridge (economy status)."""
        assert interaction.guild_id is not None
        if await self.bridge.store.bridge.open_transfers(interaction.guild_id):
            await tell(interaction, STILL_OPEN)
        elif await self.bridge.store.bridge.disconnect(interaction.guild_id):
            await tell(interaction, _("Disconnected from UnbelievaBoat."))
        else:
            await tell(interaction, NOT_BRIDGED)

    @app_commands.command(name="status", description="The rate, chips held and open transfers")
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        """The bridge at a glance, with a settle button for each held transfer."""
        guild_id, store = interaction.guild_id, self.bridge.store.bridge
        assert guild_id is not None
        record = await store.bridge(guild_id)
        if record is None:
            await tell(interaction, NOT_BRIDGED)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bridge.reconcile(guild_id)  # what can be told from the cash now, is
        open_ = await store.open_transfers(guild_id)
        held = [t for t in open_ if t.status == "held"]
        with speaking(interaction.locale):
            text = speak(
                "Connected to UnbelievaBoat.\nRate: {cash} cash for {chips} chips\n"
                "Chips held by players: {held}\nTransfers being checked: {pending}\n"
                "Transfers waiting for an admin: {waiting}",
                cash=record.rate_cash,
                chips=record.rate_chips,
                held=await store.chips_held(guild_id),
                pending=len(open_) - len(held),
                waiting=len(held),
            )
            lines = [held_line(transfer) for transfer in held[:SETTLE_SHOWN]]
        text = "\n".join([text, *lines])
        view = settle_view(held, interaction.locale)
        await interaction.followup.send(text, view=view, ephemeral=True)


@app_commands.describe(amount="How much UnbelievaBoat cash to change into chips")
async def cash_in(
    interaction: discord.Interaction[Any], amount: app_commands.Range[int, 1, MAX_BALANCE]
) -> None:
    """Buy chips with UnbelievaBoat cash."""
    await _transfer(interaction, "cash_in", amount)


@app_commands.describe(amount="How many chips to change back (all of them if left out)")
async def cash_out(
    interaction: discord.Interaction[Any],
    amount: app_commands.Range[int, 1, MAX_BALANCE] | None = None,
) -> None:
    """Change chips (all of them without an amount) back into UnbelievaBoat cash."""
    await _transfer(interaction, "cash_out", amount)


async def _transfer(interaction: discord.Interaction[Any], kind: str, amount: int | None) -> None:
    guild_id, user_id = interaction.guild_id, interaction.user.id
    if guild_id is None:
        await tell(interaction, SERVER_ONLY)
        return
    bridge = bridge_of(interaction.client)
    if kind == "cash_in":
        gate: PlayGate = interaction.client.play_gate
        refusal = await gate.check(guild_id, asker_of(interaction), Activity.CASH_IN)
        if refusal is not None:
            await tell_refusal(interaction, refusal)
            return
    await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        if kind == "cash_in":
            assert amount is not None
            result = await bridge.cash_in(guild_id, user_id, amount)
        else:
            chips = amount or await bridge.store.balance(guild_id, user_id)
            if chips <= 0:
                raise InsufficientChips(0, 1)
            result = await bridge.cash_out(guild_id, user_id, chips)
    except (BridgeRefusal, InsufficientChips) as error:
        await tell(interaction, refusal_text(error))
        return
    except BalanceLimitExceeded as error:
        await tell(interaction, at_the_limit(error, _("this cash-in")))
        return
    balance = await bridge.store.balance(guild_id, user_id)
    await tell(interaction, result_text(result, balance))


class EconomyBridgeCog(commands.Cog, name="EconomyBridge"):
    """Owns the bridge; reconciles transfers a previous run left pending."""

    def __init__(self, bot: BlackjackBot) -> None:
        self.bot = bot
        self.client = UnbClient(bot.config.unbelievaboat_api_url, bot.clock)
        self.bridge = Bridge(bot.store, self.client)
        self._admin = EconomyAdmin(self.bridge)
        self._player: list[app_commands.Command[Any, Any, None]] = [
            app_commands.Command(
                name="cash-in", description="Buy chips with UnbelievaBoat cash", callback=cash_in
            ),
            app_commands.Command(
                name="cash-out",
                description="Change chips back into UnbelievaBoat cash",
                callback=cash_out,
            ),
        ]
        #: The start-up reconciliation of transfers a previous run left pending.
        self.reconciling: asyncio.Task[list[TransferResult]] | None = None

    async def cog_load(self) -> None:
        """Join the admin's and the table's groups; reconcile in the background."""
        admin = self.bot.tree.get_command("blackjack-admin")
        table = self.bot.tree.get_command("blackjack")
        assert isinstance(admin, app_commands.Group)
        assert isinstance(table, app_commands.Group)
        self._admin.add_command(auto_command())
        admin.add_command(self._admin)
        for command in self._player:
            table.add_command(command)
        self.reconciling = asyncio.create_task(self.bridge.reconcile(), name="bridge reconcile")

    async def cog_unload(self) -> None:
        """Leave the groups, stop reconciling, close the connections."""
        admin = self.bot.tree.get_command("blackjack-admin")
        table = self.bot.tree.get_command("blackjack")
        if isinstance(admin, app_commands.Group):
            admin.remove_command(self._admin.name)
        if isinstance(table, app_commands.Group):
            for command in self._player:
                table.remove_command(command.name)
        if self.reconciling is not None:
            self.reconciling.cancel()
            await asyncio.gather(self.reconciling, return_exceptions=True)
        await self.client.close()


async def setup(bot: BlackjackBot) -> None:
    """discord.py extension entry point."""
    cog = EconomyBridgeCog(bot)
    bot.add_dynamic_items(SettleButton)
    await bot.add_cog(cog)
    await bot.add_cog(EconomyAuto(bot, cog.bridge))


async def teardown(bot: BlackjackBot) -> None:
    """Unloaded: the automatic transfers and the settle buttons go with it (a reload adds
    them again)."""
    await bot.remove_cog("EconomyAuto")
    bot.remove_dynamic_items(SettleButton)
