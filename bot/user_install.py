"""Playing outside the servers that added the bot: the user install and the pocket wallet.

Discord lets a person install the application to their own account and use its commands
in DMs, group DMs and servers that never added the bot. There the app can only answer
interactions: it sees no channel and posts no message of its own.

**The pocket scope.** Every chip, daily claim, stat and table played where the bot is not
a member of the server is kept under the reserved guild id :data:`POCKET_SCOPE` (0, the id
Discord itself gives a DM in ``authorizing_integration_owners``; no server has it). So a
player has one pocket wallet of their own wherever they play outside servers, and it is
apart from every server's economy: no operation moves chips between two guild ids.

Where the server did add the bot, its commands play in that server's economy as always,
whether the player also installed the app or not.

Which commands are offered outside servers: every player command decorated ``@anywhere``
(``/blackjack``, ``/bet``, ``/balance``, ``/daily``, ``/stats``, ``/leaderboard``,
``/limits``: a player's limits and breaks are their own and apply everywhere); a new
player command that makes sense in a DM takes ``@anywhere`` too and reads its chips and
settings through :func:`economy_scope`. Admin commands are ``@server_only``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeVar

import discord
from discord import app_commands

#: The guild id of the pocket economy: DMs, group DMs and servers without the bot.
POCKET_SCOPE: Final = 0

T = TypeVar("T")


def economy_scope(interaction: discord.Interaction[Any]) -> int:
    """The guild id whose chips this interaction plays with: the server's when the app is
    installed to it, :data:`POCKET_SCOPE` everywhere else."""
    if interaction.guild_id is not None and interaction.is_guild_integration():
        return interaction.guild_id
    return POCKET_SCOPE


def is_pocket(interaction: discord.Interaction[Any]) -> bool:
    """Whether the app may only answer here (no channel messages): see the module."""
    return economy_scope(interaction) == POCKET_SCOPE


def anywhere(command: T) -> T:
    """Offer a command to both installs (server and user) and in every context (servers, the
    bot's DM and group DMs). Discord reads it from the top-level command only."""
    installs: Callable[[T], T] = app_commands.allowed_installs(guilds=True, users=True)
    contexts: Callable[[T], T] = app_commands.allowed_contexts(
        guilds=True, dms=True, private_channels=True
    )
    return installs(contexts(command))


def server_only(command: T) -> T:
    """Offer a command only where a server added the bot, and only in that server: an
    install by a user (which Discord would otherwise default to) never offers it."""
    installs: Callable[[T], T] = app_commands.allowed_installs(guilds=True, users=False)
    contexts: Callable[[T], T] = app_commands.allowed_contexts(
        guilds=True, dms=False, private_channels=False
    )
    return installs(contexts(command))
