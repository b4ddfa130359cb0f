"""The Discord bot: a ``commands.Bot`` that opens the store, recovers, loads the cogs and syncs.

``python -m bot`` builds one with :func:`build_bot` and runs it. Tests build one
with the fake Discord's ManualClock (and, if they like, their own store and a
shoe factory that deals stacked shoes).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any, Final

import discord
from discord import app_commands
from discord.ext import commands

import db
from bot.clock import Clock, SystemClock
from bot.config import Config
from bot.engine import Rules, Shoe
from bot.tables.service import TableService
from cogs.render import voided_embed
from cogs.table_messages import TableMessages

log = logging.getLogger(__name__)

#: Builds the shoe for a table's rules; tests pass one that deals stacked cards.
ShoeFactory = Callable[[Rules], Shoe]

# A table bot never joins voice: no warning at every start about missing voice libraries.
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False

#: One cog per feature, loaded in this order.
EXTENSIONS: Final = ("cogs.table", "cogs.betting", "cogs.economy", "cogs.admin")


def intents() -> discord.Intents:
    """Only what the bot uses: guilds and channels (for permissions). No message content."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


def shard_options(config: Config, *, sharded: bool) -> dict[str, Any]:
    """SHARD_COUNT / SHARD_IDS as discord.py takes them: one shard_id, or several shard_ids."""
    if config.shard_count is None:
        return {}
    if sharded:
        return {"shard_count": config.shard_count, "shard_ids": list(config.shard_ids or ())}
    shard_id = config.shard_ids[0] if config.shard_ids else None
    return {"shard_count": config.shard_count, "shard_id": shard_id}


class BlackjackTree(app_commands.CommandTree[Any]):
    """The command tree, with an error handler that answers the user."""

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """A failed check has already answered; anything else is a bug: log it, apologise."""
        if isinstance(error, app_commands.CheckFailure):
            return
        log.error("command %s failed", interaction.command, exc_info=error)
        text = "Something went wrong on my side; nothing was changed. Please try again."
        with contextlib.suppress(discord.HTTPException):
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)


class BlackjackBot(commands.Bot):
    """The bot. ``store`` and ``tables`` exist once ``setup_hook`` has run."""

    def __init__(
        self,
        config: Config,
        *,
        clock: Clock | None = None,
        store: db.Store | None = None,
        shoe_factory: ShoeFactory | None = None,
        extensions: Sequence[str] = EXTENSIONS,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            tree_cls=BlackjackTree,
            allowed_mentions=discord.AllowedMentions.none(),
            **shard_options(config, sharded=isinstance(self, commands.AutoShardedBot)),
        )
        self.config = config
        self.clock: Clock = clock or SystemClock()
        self._given_store = store
        self._shoe_factory = shoe_factory
        self._extensions = tuple(extensions)
        self.table_messages = TableMessages(self)
        self._store: db.Store | None = store
        self._tables: TableService | None = None

    @property
    def store(self) -> db.Store:
        """The chips database (open after ``setup_hook``)."""
        if self._store is None:
            raise RuntimeError("the store opens in setup_hook")
        return self._store

    @property
    def tables(self) -> TableService:
        """The live tables (after ``setup_hook``)."""
        if self._tables is None:
            raise RuntimeError("the table service starts in setup_hook")
        return self._tables

    def store_time(self) -> datetime:
        """The bot's clock as the store wants it (an aware datetime)."""
        return datetime.fromtimestamp(self.clock.now(), UTC)

    async def setup_hook(self) -> None:
        """Open and migrate the store, void rounds a crash left open, load cogs, sync commands."""
        if self._store is None:
            self._store = await db.open_store(self.config.database_url, clock=self.store_time)
        self._tables = TableService(
            self._store,
            clock=self.clock,
            publish=self.table_messages.publish,
            shoe_factory=self._shoe_factory,
        )
        self.table_messages.bind(self._tables.close)
        voided = await self._tables.recover()
        await self.announce_voided(voided)
        for extension in self._extensions:
            await self.load_extension(extension)
        await self.sync_commands()

    async def announce_voided(self, voided: Sequence[db.VoidResult]) -> None:
        """Edit each voided round's table message, where it still exists, to say what happened."""
        for result in voided:
            if result.message_id is None:
                continue
            channel = self.get_partial_messageable(result.channel_id, guild_id=result.guild_id)
            try:
                await channel.get_partial_message(result.message_id).edit(
                    embed=voided_embed(result), view=None
                )
            except discord.HTTPException as error:
                # Deleted message, deleted channel, lost access: nothing left to tell there.
                log.info("round %s: its message could not be edited (%s)", result.round_id, error)

    async def sync_commands(self) -> None:
        """Sync to DEV_GUILD_ID at once when set (development), else globally."""
        if self.config.dev_guild_id is not None:
            guild = discord.Object(self.config.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def close(self) -> None:
        """Graceful stop: void and refund open rounds, finish edits, close the store."""
        if self._tables is not None:
            try:
                await self._tables.shutdown()
                await self.table_messages.idle()
            except Exception:
                log.exception("shutting the tables down failed")
        await super().close()
        if self._store is not None and self._given_store is None:
            await self._store.close()
            self._store = None


class ShardedBlackjackBot(BlackjackBot, commands.AutoShardedBot):
    """The same bot running several shards (SHARD_IDS names more than one) in one process."""

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Wait 5 s only between Discord's ``max_concurrency`` buckets, not before every shard.

        Shards identify in buckets keyed ``shard_id % max_concurrency``: a bucket may
        start together, the next one 5 s later (discord.py waits before each shard).
        """
        if initial:
            return
        limits = await self.fetch_session_start_limits()
        if shard_id is None or shard_id % max(1, limits.max_concurrency) == 0:
            await asyncio.sleep(5.0)  # Discord's identify limit is in real time


def build_bot(
    config: Config,
    *,
    clock: Clock | None = None,
    store: db.Store | None = None,
    shoe_factory: ShoeFactory | None = None,
) -> BlackjackBot:
    """The bot for ``config``; tests pass the fake Discord's clock and stacked shoes."""
    if config.shard_ids is not None and len(config.shard_ids) > 1:
        return ShardedBlackjackBot(config, clock=clock, store=store, shoe_factory=shoe_factory)
    return BlackjackBot(config, clock=clock, store=store, shoe_factory=shoe_factory)
