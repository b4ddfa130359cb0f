"""The settle buttons of ``economy status``: an admin's word on a transfer waiting for
them (UnbelievaBoat applied it, or did not).

Each button is a ``discord.ui.DynamicItem`` whose custom id carries the transfer's id and
the word, so a press works after a restart too: the admin's permission and the transfer
(this server's, still open) are checked at each press.
"""

from __future__ import annotations

import re
from typing import Any, Final

import discord
from discord.ext import commands

from bot.bridge.transfers import Bridge
from bot.discord_reply import tell
from bot.failures import failures_answered
from bot.i18n import _, speak, speaking
from cogs.admin_ledger import NOT_ALLOWED
from db.ops.bridge import TransferClosed, TransferRecord

#: The transfers waiting for an admin that ``economy status`` offers to settle at once.
SETTLE_SHOWN: Final = 5


class SettleButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"bjb:settle:(?P<id>[0-9]{1,20}):(?P<applied>[01])",
):
    """``#id went through`` (applied) or ``#id did not``."""

    def __init__(self, transfer_id: int, applied: bool) -> None:
        label = (
            speak("#{id} went through", id=str(transfer_id))
            if applied
            else speak("#{id} did not", id=str(transfer_id))
        )
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.success if applied else discord.ButtonStyle.secondary,
                custom_id=f"bjb:settle:{transfer_id}:{int(applied)}",
            )
        )
        self.transfer_id, self.applied = transfer_id, applied

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> SettleButton:
        """Rebuild from a press (after a restart too)."""
        return cls(int(match["id"]), match["applied"] == "1")

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """The bot's gate (not while stopping), then Manage Server, at every press."""
        if not await interaction.client.admit(interaction):
            return False
        if interaction.guild_id is not None and interaction.permissions.manage_guild:
            return True
        await tell(interaction, NOT_ALLOWED)
        return False

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Settle the transfer, or say why not (another server's, or settled already)."""
        async with failures_answered(interaction, "a settle button"):
            bridge = _bridge_of(interaction.client)
            transfer = await bridge.store.bridge.transfer(self.transfer_id)
            id_ = str(self.transfer_id)
            if transfer is None or transfer.guild_id != interaction.guild_id:
                text = _("There is no transfer #{id} in this server.", id=id_)
            else:
                try:
                    await bridge.settle(self.transfer_id, self.applied, interaction.user.id)
                except TransferClosed:
                    text = _("Transfer #{id} was already settled.", id=id_)
                else:
                    text = _("Transfer #{id} is settled.", id=id_)
            await tell(interaction, text)


def _bridge_of(client: commands.Bot) -> Bridge:
    """The loaded bridge extension's bridge (its cog's class changes on a reload)."""
    bridge = getattr(client.get_cog("EconomyBridge"), "bridge", None)
    assert isinstance(bridge, Bridge)
    return bridge


def settle_view(held: list[TransferRecord], locale: object) -> discord.ui.View:
    """Two buttons for each of the first SETTLE_SHOWN transfers waiting for an admin."""
    view = discord.ui.View(timeout=None)
    with speaking(locale):
        for transfer in held[:SETTLE_SHOWN]:
            view.add_item(SettleButton(transfer.id, True))
            view.add_item(SettleButton(transfer.id, False))
    return view
