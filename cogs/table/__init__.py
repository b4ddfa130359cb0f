"""The table's Discord adapter: commands, the /bet command, buttons, rendering and message upkeep.

Loaded as one extension (``cogs.table``); nothing else in the bot imports discord.ui for a table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.table.bet_command import BettingCog
from cogs.table.commands import add_table_cog

if TYPE_CHECKING:
    from bot.app import BlackjackBot


async def setup(bot: BlackjackBot) -> None:
    """discord.py extension entry point: the table commands, its buttons, its messages
    (the bot's table display while loaded) and /bet."""
    table = await add_table_cog(bot)
    await bot.add_cog(BettingCog(bot, table))
