"""The floor of ``bench/load.py``: a minimal bot that answers each click with one edit, the
throughput discord.py allows (or, rich, with a table message's embed and buttons)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

FLOOR_BUTTON = "floor:press"


class FloorView(discord.ui.View):
    """A press is answered with one type-7 edit of the message and nothing else.

    Plain: one button, the edit sets a short content. Rich (``table`` given: a table
    message's embed and its number of buttons): the edit sends that embed and as many
    buttons, so payloads are the table's size but nothing is played, stored or rendered.
    """

    def __init__(self, table: tuple[dict[str, Any], int] | None = None) -> None:
        super().__init__(timeout=None)
        self.presses = 0
        self.embed = None if table is None else discord.Embed.from_dict(table[0])
        for extra in range(0 if table is None else table[1] - 1):
            self.add_item(discord.ui.Button(label=f"Spare {extra}", custom_id=f"floor:{extra}"))

    @discord.ui.button(label="Press", custom_id=FLOOR_BUTTON)
    async def press(
        self, interaction: discord.Interaction[Any], button: discord.ui.Button[FloorView]
    ) -> None:
        self.presses += 1
        if self.embed is None:
            await interaction.response.edit_message(content=f"Presses: {self.presses}")
        else:
            await interaction.response.edit_message(embed=self.embed, view=self)


class FloorBot(commands.Bot):
    """The minimal bot: ``/floor`` posts a message with the view; presses edit it."""

    def __init__(self, table: tuple[dict[str, Any], int] | None = None) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None)
        self.view = FloorView(table)

    async def setup_hook(self) -> None:
        """Register the persistent view and the command, and sync."""
        self.add_view(self.view)

        @app_commands.command(name="floor", description="Post the floor message")
        async def floor(interaction: discord.Interaction[Any]) -> None:
            if self.view.embed is None:
                await interaction.response.send_message("Presses: 0", view=self.view)
            else:
                await interaction.response.send_message(embed=self.view.embed, view=self.view)

        self.tree.add_command(floor)
        await self.tree.sync()
