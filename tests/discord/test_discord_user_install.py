"""The user install: which commands a person may install to their own account, and where."""

from __future__ import annotations

from discord_world import World

from bot.app import BlackjackBot

#: Commands that make sense outside a server: both installs, every context.
ANYWHERE = ("blackjack", "bet", "balance", "daily", "stats")
#: Commands of a server's own: its install only, in the server only.
SERVER_ONLY = ("blackjack-admin", "leaderboard")


async def test_synced_commands_say_where_they_may_be_installed_and_used(
    bot: BlackjackBot, world: World
) -> None:
    synced = {command.name: command.data for command in world.fake.commands[None]}
    for name in ANYWHERE:
        assert synced[name]["integration_types"] == [0, 1], name
        assert synced[name]["contexts"] == [0, 1, 2], name
    for name in SERVER_ONLY:
        assert synced[name]["integration_types"] == [0], name
        assert synced[name]["contexts"] == [0], name
