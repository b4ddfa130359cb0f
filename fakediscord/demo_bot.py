"""A small bot used by the harness's own tests; it touches every route the fake serves.

Run it as a process with ``python -m fakediscord.demo_bot`` (``tests/`` on
``PYTHONPATH``) and ``DISCORD_TOKEN``, ``DISCORD_API_BASE``,
``DISCORD_GATEWAY_URL`` (and ``DEMO_GUILD_IDS`` for guild commands) set.
``SHARD_COUNT`` (a number, or ``auto`` for ``GET /gateway/bot``'s advice) and
``SHARD_IDS`` (``0,2,3``) make it an ``AutoShardedBot`` running those shards.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Mapping, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.clock import Clock, SystemClock
from bot.endpoints import apply_endpoints


def table_embed(hits: int) -> discord.Embed:
    """The demo table."""
    embed = discord.Embed(title="Blackjack table", description=f"Hits so far: {hits}")
    embed.set_footer(text="demo dealer")
    return embed


class TableView(discord.ui.View):
    """Hit, Stand, and a Split button that is never enabled."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Hit", custom_id="demo:hit", style=discord.ButtonStyle.primary)
    async def hit(
        self, interaction: discord.Interaction, button: discord.ui.Button[TableView]
    ) -> None:
        """Type 7: edit the table message in the response itself."""
        assert interaction.message is not None
        hits = int(interaction.message.content.rsplit(" ", 1)[-1]) + 1
        await interaction.response.edit_message(content=f"Hits: {hits}", embed=table_embed(hits))

    @discord.ui.button(label="Stand", custom_id="demo:stand", style=discord.ButtonStyle.secondary)
    async def stand(
        self, interaction: discord.Interaction, button: discord.ui.Button[TableView]
    ) -> None:
        """Type 6, then PATCH @original, an ephemeral followup, and an edit of that followup."""
        await interaction.response.defer()
        await interaction.edit_original_response(content="Stood", view=None)
        note = await interaction.followup.send("You stood.", ephemeral=True, wait=True)
        await note.edit(content="You stood. Good luck!")

    @discord.ui.button(
        label="Split", custom_id="demo:split", style=discord.ButtonStyle.secondary, disabled=True
    )
    async def split(
        self, interaction: discord.Interaction, button: discord.ui.Button[TableView]
    ) -> None:
        """Never reachable: the button is disabled."""
        await interaction.response.send_message("split", ephemeral=True)


def _blackjack_group() -> app_commands.Group:
    """``/blackjack start``: a table message with a Hit button."""
    blackjack = app_commands.Group(name="blackjack", description="Play blackjack")

    @blackjack.command(name="start", description="Open a table")
    @app_commands.describe(stake="Chips per hand")
    async def start(
        interaction: discord.Interaction, stake: app_commands.Range[int, 1, 1000] = 10
    ) -> None:
        await interaction.response.send_message(
            content="Hits: 0", embed=table_embed(0), view=TableView()
        )

    return blackjack


def _admin_group() -> app_commands.Group:
    """``/blackjack-admin grant``: a deferred, ephemeral answer with a member option."""
    admin = app_commands.Group(name="blackjack-admin", description="Table administration")

    @admin.command(name="grant", description="Give chips to a player")
    async def grant(interaction: discord.Interaction, member: discord.Member, amount: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send(f"Granted {amount} chips to {member.display_name}.")
        original = await interaction.original_response()
        assert original.content.startswith("Granted")

    return admin


class DemoBot(commands.Bot):
    """Slash commands in groups (global and per guild), buttons, channel messages."""

    def __init__(self, clock: Clock, guild_ids: Sequence[int] = (), **options: Any) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned, intents=discord.Intents.default(), **options
        )
        self.clock = clock
        self.guild_ids = list(guild_ids)
        self.build_commands()

    def build_commands(self) -> None:
        """Register ``/blackjack``, ``/demo`` (global) and ``/blackjack-admin`` (per guild)."""
        self.tree.add_command(_blackjack_group())
        self.tree.add_command(self._demo_group())
        guilds = [discord.Object(g) for g in self.guild_ids]
        if guilds:
            self.tree.add_command(_admin_group(), guilds=guilds)

    def _demo_group(self) -> app_commands.Group:
        """``/demo``: the harness's own checks (messages, waits on the clock, shards)."""
        clock = self.clock
        demo = app_commands.Group(name="demo", description="Harness checks")

        @demo.command(name="post", description="Post, fetch, edit and delete a channel message")
        async def post(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("Posting.", ephemeral=True)
            channel = interaction.channel
            assert isinstance(channel, discord.TextChannel | discord.Thread)
            message = await channel.send("Table message")
            fetched = await channel.fetch_message(message.id)
            await fetched.edit(content="Table message (edited)")
            await fetched.delete()
            await interaction.delete_original_response()

        @demo.command(name="slow", description="Answer after waiting on the clock")
        async def slow(interaction: discord.Interaction, seconds: int) -> None:
            await clock.sleep(seconds)
            await interaction.response.send_message("Sorry for the wait.")

        @demo.command(name="later", description="Answer now and follow up later")
        async def later(interaction: discord.Interaction, seconds: int) -> None:
            await interaction.response.send_message("Back soon.")
            await clock.sleep(seconds)
            await interaction.followup.send("Here I am.")

        @demo.command(name="whoami", description="Say which shard and process answered")
        async def whoami(interaction: discord.Interaction) -> None:
            guild = interaction.guild
            assert guild is not None
            count = self.shard_count or 1
            await interaction.response.send_message(
                f"Shard {guild.shard_id} of {count}, process {os.getpid()}"
            )

        return demo

    async def setup_hook(self) -> None:
        """Sync global commands, then each guild's."""
        self.add_view(TableView())
        await self.tree.sync()
        for guild_id in self.guild_ids:
            await self.tree.sync(guild=discord.Object(guild_id))


class ShardedDemoBot(DemoBot, commands.AutoShardedBot):
    """The demo bot as an ``AutoShardedBot``: all shards, or ``shard_ids`` of ``shard_count``."""

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Wait 5 s only where Discord's ``max_concurrency`` says so, not before every shard.

        Shards identify in buckets of ``max_concurrency`` (key ``shard_id %
        max_concurrency``); a bucket may start together, the next one 5 s later.
        """
        if initial:
            return
        limits = await self.fetch_session_start_limits()
        if shard_id is None or shard_id % limits.max_concurrency == 0:
            await asyncio.sleep(5.0)


def build_bot(
    clock: Clock | None = None,
    guild_ids: Sequence[int] = (),
    *,
    sharded: bool = False,
    shard_count: int | None = None,
    shard_ids: Sequence[int] | None = None,
) -> DemoBot:
    """The demo bot, on ``clock`` (the test's ManualClock in-process).

    ``sharded`` (implied by ``shard_count`` or ``shard_ids``) builds an
    ``AutoShardedBot``; without ``shard_count`` it runs the count ``GET /gateway/bot``
    recommends.
    """
    if not (sharded or shard_count is not None or shard_ids is not None):
        return DemoBot(clock or SystemClock(), guild_ids)
    return ShardedDemoBot(
        clock or SystemClock(),
        guild_ids,
        shard_count=shard_count,
        shard_ids=None if shard_ids is None else list(shard_ids),
    )


def shard_settings(env: Mapping[str, str]) -> dict[str, Any]:
    """``build_bot`` keywords from ``SHARD_COUNT`` and ``SHARD_IDS`` (empty when neither is set)."""
    count = env.get("SHARD_COUNT", "").strip()
    ids = env.get("SHARD_IDS", "").strip()
    if not count and not ids:
        return {}
    if not count:
        raise SystemExit("SHARD_IDS needs SHARD_COUNT (the total number of shards)")
    settings: dict[str, Any] = {"sharded": True}
    if count != "auto":
        if not count.isdigit() or int(count) < 1:
            raise SystemExit(f"SHARD_COUNT must be a whole number from 1 or 'auto', got {count!r}")
        settings["shard_count"] = int(count)
    if ids:
        if count == "auto":
            raise SystemExit("SHARD_IDS needs a fixed SHARD_COUNT, not 'auto'")
        parts = [p.strip() for p in ids.split(",")]
        if not all(p.isdigit() and int(p) < int(count) for p in parts):
            raise SystemExit(f"SHARD_IDS must be shard numbers below {count}, got {ids!r}")
        settings["shard_ids"] = [int(p) for p in parts]
    return settings


def main() -> None:
    """Entry point for the subprocess: configuration only from the environment."""
    apply_endpoints(os.environ)
    discord.utils.setup_logging(level=logging.INFO)
    guild_ids = [int(g) for g in os.environ.get("DEMO_GUILD_IDS", "").split(",") if g]
    bot = build_bot(SystemClock(), guild_ids, **shard_settings(os.environ))
    asyncio.run(bot.start(os.environ["DISCORD_TOKEN"]))


if __name__ == "__main__":
    main()
