"""The Discord bot: a ``commands.Bot`` that opens the store, loads the cogs, resumes tables, syncs.

It builds what every feature shares (config, store, table service, metrics, clock) and
loads each feature as an extension by name (:data:`EXTENSIONS`). The table extension
shows the tables: it plugs a :class:`~bot.table_display.TableDisplay` into the bot.

``python -m bot`` builds one with :func:`build_bot` and runs it. Tests build one with the fake
Discord's ManualClock and, if they like, their own store and a stacked shoe factory.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, Final

import discord
from discord import app_commands
from discord.ext import commands

import db
from bot.clock import Clock, SystemClock
from bot.command_translator import CatalogTranslator
from bot.config import Config
from bot.discord_reply import tell
from bot.failures import answer_failure
from bot.i18n import _
from bot.log_context import bind
from bot.metrics import BotMetrics
from bot.metrics_server import MetricsServer
from bot.play_gate import PlayGate
from bot.server_settings import ServerSettings
from bot.shards import owned_shards, shard_of, shard_options
from bot.strategy_cache import cache_directory
from bot.strategy_process import BACKGROUND_NICE, StrategyPool
from bot.table_display import TableDisplay
from bot.tables import ShoeFactory, TableError, TableService, TableSnapshot
from bot.tables.advice import Advice
from bot.tables.errors import RESTARTING
from bot.tournaments.service import Tournaments

log = logging.getLogger(__name__)

# A table bot never joins voice: no warning at every start about missing voice libraries.
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False

#: One cog per feature, loaded in this order.
EXTENSIONS: Final = (
    "cogs.table",
    "cogs.economy",
    "cogs.admin",
    "cogs.tournament",
    "cogs.responsible",
    "cogs.economy_bridge",
)

#: What it gets before this process has resumed the tables a previous run left open.
STARTING: Final = _("The bot is still starting up; nothing was changed. Try again in a moment.")
#: Seconds a graceful stop gives interactions in flight, then the tables (steps in
#: flight), then edits due; with discord.py's own close this stays inside 5 s.
IN_FLIGHT_BUDGET_S: Final = 2.0
TABLES_BUDGET_S: Final = 1.0
#: Seconds an interaction waits for its shard's start-up recovery before it is refused.
RECOVERY_WAIT_S: Final = 2.0


def intents() -> discord.Intents:
    """Only what the bot uses: guilds and channels (for permissions). No message content."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


class BlackjackTree(app_commands.CommandTree[Any]):
    """The command tree, with an error handler that answers the user."""

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """Every command passes the bot's gate: not while stopping, not before recovery."""
        client = interaction.client
        return not isinstance(client, BlackjackBot) or await client.admit(interaction)

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """A table's refusal has been answered by its cog (``cog_app_command_error``), a
        failed check by the check; anything else is a failure (``bot.failures``)."""
        client = interaction.client
        if isinstance(client, BlackjackBot):
            if isinstance(error, app_commands.CheckFailure):
                client.metrics.refused(interaction)
            elif not isinstance(getattr(error, "original", None), TableError):
                client.metrics.failed(interaction)
        if isinstance(error, app_commands.CheckFailure):
            return
        if isinstance(error, app_commands.CommandInvokeError) and isinstance(
            error.original, TableError
        ):
            return
        name = interaction.command.qualified_name if interaction.command else "?"
        await answer_failure(
            interaction, error, f"command {name}", logger=log, extra={"command": name}
        )


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
        metrics = BotMetrics(clock=(clock or SystemClock()).now)
        super().__init__(
            http_trace=metrics.http_trace(),
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            tree_cls=BlackjackTree,
            allowed_mentions=discord.AllowedMentions.none(),
            **shard_options(config, sharded=isinstance(self, commands.AutoShardedBot)),
        )
        self.config = config
        self.clock: Clock = clock or SystemClock()
        #: Prometheus metrics, served on METRICS_PORT when it is set.
        self.metrics = metrics
        self._metrics_server: MetricsServer | None = None
        self._given_store = store
        self._shoe_factory = shoe_factory
        self._extensions = tuple(extensions)
        #: Shows the tables to people: the table extension's while it is loaded.
        self.display = TableDisplay()
        self._store: db.Store | None = store
        self._tables: TableService | None = None
        self._tournaments: Tournaments | None = None
        #: Set once a graceful stop begins: new clicks and commands are refused politely.
        self.stopping = False
        self._closing: asyncio.Future[None] | None = None
        self._in_flight: set[asyncio.Task[Any]] = set()
        # A process running only some shards resumes each shard's tables once it knows
        # that shard's guilds (its READY); until then its interactions wait.
        self._recovered: dict[int, asyncio.Event] = {
            shard: asyncio.Event() for shard in owned_shards(config) or ()
        }

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

    @property
    def tournaments(self) -> Tournaments:
        """The open tournaments, played at live tables (after ``setup_hook``)."""
        if self._tournaments is None:
            raise RuntimeError("tournaments start in setup_hook")
        return self._tournaments

    def store_time(self) -> datetime:
        """The bot's clock as the store wants it (an aware datetime)."""
        return datetime.fromtimestamp(self.clock.now(), UTC)

    async def setup_hook(self) -> None:
        """Open and migrate the store, start the table service, load the cogs, resume the
        tables left open (they are shown through the table extension), sync."""
        if self._store is None:
            self._store = await db.open_store(self.config.database_url, clock=self.store_time)
        self._store.observer = self.metrics
        await self.serve_metrics()
        self._tables = TableService(
            self._store,
            clock=self.clock,
            publish=self._publish,
            shoe_factory=self._shoe_factory,
            advice=Advice(
                cache_directory(self.config.database_url),
                worker=StrategyPool(),
                background=StrategyPool(nice=BACKGROUND_NICE),
                clock=self.clock,
            ),
        )
        self._tournaments = Tournaments(self._store, self.clock, self._tables)
        self.settings = ServerSettings(self._store)  # the one cache, written through
        #: What every feature asks before it lets a member play (bot.play_gate).
        self.play_gate = PlayGate(self._store, self.clock, self.settings)
        self._tables.shard_count = self.config.shard_count or 1
        await self._tables.check_shard_count()
        await self.tree.set_translator(CatalogTranslator())  # the commands in each language
        for extension in self._extensions:
            await self.load_extension(extension)
        if not self._recovered:
            # This process runs every shard: every open table is its own, resumed before
            # it connects. (A subset of shards resumes after READY: on_connect.)
            await self.resume_tables(None)
        await self.sync_commands()

    async def _publish(self, snapshot: TableSnapshot) -> None:
        """The table service's publish callback: to whatever display is plugged in now."""
        await self.display.publish(snapshot)

    async def serve_metrics(self) -> None:
        """With METRICS_PORT set: the Prometheus endpoint, and the event-loop lag sampled."""
        if self.config.metrics_port is None or self._metrics_server is not None:
            return
        self._metrics_server = MetricsServer(self.metrics, self._read_metrics)
        await self._metrics_server.start(self.config.metrics_host, self.config.metrics_port)
        self.metrics.start_lag_monitor()

    @property
    def metrics_port(self) -> int | None:
        """The port the metrics endpoint listens on (METRICS_PORT=0 picks a free one)."""
        return None if self._metrics_server is None else self._metrics_server.port

    def _read_metrics(self) -> None:
        """At each scrape: the open tables and each shard's gateway latency."""
        tables = self._tables.open_tables() if self._tables is not None else []
        latencies = (
            self.latencies
            if isinstance(self, commands.AutoShardedBot)
            else [(self.shard_id or 0, self.latency)]
        )
        self.metrics.refresh((len(t.seats) for t in tables), latencies)

    async def on_connect(self) -> None:
        """READY: resume the open tables of this shard's guilds (once per process)."""
        if not isinstance(self, commands.AutoShardedBot):
            await self.recover_shard(self.shard_id or 0)

    async def recover_shard(self, shard_id: int) -> None:
        """Resume the tables a previous run left open in the guilds of one of our shards.

        Only for a process running a subset of shards: another process may be
        dealing in the other shards' guilds on the same database. It runs once per
        shard: a later READY (a new session) must not touch this process's own tables.
        """
        done = self._recovered.get(shard_id)
        if done is None or done.is_set() or self._tables is None:
            return
        count = self.shard_count or 1
        guild_ids = [g.id for g in self.guilds if shard_of(g.id, count) == shard_id]
        try:
            await self.resume_tables(guild_ids)
        except Exception:
            log.exception("shard %s: resuming tables failed; retried at its next READY", shard_id)
            return
        done.set()
        log.info("shard %s: tables resumed in %d guild(s)", shard_id, len(guild_ids))

    async def resume_tables(self, guild_ids: Sequence[int] | None) -> None:
        """Resume the open tables of these guilds (all when None): each message says it is
        back; a table that cannot resume is refunded and its message says why."""
        await self.display.before_resume()
        await self.tournaments.resume(guild_ids)  # their tables' game mode asks them
        report = await self.tables.resume(guild_ids)
        await self.tournaments.settle_resumed()
        self.tables.coach.catch_up_soon()  # rounds settled but not graded when it stopped
        log.info(
            "%d table(s) resumed, %d round(s) refunded", len(report.resumed), len(report.voided)
        )
        await self.display.resumed(report)

    async def recovered(self, shard_id: int) -> None:
        """Return once this process has resumed the tables of one of its shards."""
        done = self._recovered.get(shard_id)
        if done is not None:
            await done.wait()

    async def admit(self, interaction: discord.Interaction[Any]) -> bool:
        """The gate before any command or click: False (after a polite answer) to refuse it.

        An admitted interaction counts as in flight until its task ends, so a
        graceful stop lets it finish (and answer) before the connection closes.
        """
        task = asyncio.current_task()
        if task is not None and task not in self._in_flight:
            self._in_flight.add(task)
            task.add_done_callback(self._in_flight.discard)
        bind(guild_id=interaction.guild_id, channel_id=interaction.channel_id)
        self.metrics.track(interaction, task)
        refusal = None
        if self.stopping:
            refusal = RESTARTING
        elif self._recovered and interaction.guild_id is not None:
            done = self._recovered.get(shard_of(interaction.guild_id, self.shard_count or 1))
            if done is not None and not done.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(done.wait(), RECOVERY_WAIT_S)
                refusal = None if done.is_set() else STARTING
        if refusal is None:
            return True
        self.metrics.refused(interaction)
        with contextlib.suppress(discord.HTTPException):
            await tell(interaction, refusal)
        return False

    async def sync_commands(self) -> None:
        """Sync to DEV_GUILD_ID at once when set (development), else globally."""
        if self.config.dev_guild_id is not None:
            guild = discord.Object(self.config.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def close(self) -> None:
        """Graceful stop (once, however often it is called): see :meth:`_stop_gracefully`."""
        self.stopping = True  # at once: a click that arrives from now on is refused
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._stop_gracefully())
        await asyncio.shield(self._closing)

    async def _stop_gracefully(self) -> None:
        """Refuse new actions, let those in flight answer, stop the tables' timers (every
        table stays open in the store and resumes at the next start), disconnect, close
        the store.

        Each step has a budget so the process exits well inside 5 s; every step of a
        table is durable when it ends, so nothing is lost to a step cut short. The
        strategy worker stops first: a Hint in flight that waits for it is answered
        that the bot is restarting, at once.
        """
        if self._tables is not None:
            self._tables.advice.close()
            self._tables.coach.close()  # ungraded rounds are graded at the next start
        await self._finish_in_flight()
        await self.display.stopping()
        if self._tables is not None:
            try:
                await asyncio.wait_for(self._tables.suspend(), TABLES_BUDGET_S)
            except Exception:
                log.exception("stopping the tables' timers failed")
            try:
                # Edits still due only make a message current; the state is stored already.
                await asyncio.wait_for(self.display.idle(), TABLES_BUDGET_S)
            except TimeoutError:
                log.info("stopping with table edits unsent; the next start shows every table")
        await self._finish_in_flight()  # the polite refusals sent meanwhile
        await super().close()
        if self._metrics_server is not None:
            await self._metrics_server.stop()
            await self.metrics.stop()
        if self._store is not None and self._given_store is None:
            await self._store.close()
            self._store = None

    async def _finish_in_flight(self) -> None:
        running = [t for t in self._in_flight if t is not asyncio.current_task() and not t.done()]
        if running:
            await asyncio.wait(running, timeout=IN_FLIGHT_BUDGET_S)


class ShardedBlackjackBot(BlackjackBot, commands.AutoShardedBot):
    """The same bot running several shards in one process (SHARD_COUNT alone, or SHARD_IDS
    naming more than one)."""

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

    async def on_shard_connect(self, shard_id: int) -> None:
        """A shard's READY: resume the open tables of its guilds (once per process)."""
        await self.recover_shard(shard_id)


def build_bot(
    config: Config,
    *,
    clock: Clock | None = None,
    store: db.Store | None = None,
    shoe_factory: ShoeFactory | None = None,
) -> BlackjackBot:
    """The bot for ``config``; tests pass the fake Discord's clock and stacked shoes."""
    several = config.shard_ids is None or len(config.shard_ids) > 1
    if config.shard_count is not None and several:
        return ShardedBlackjackBot(config, clock=clock, store=store, shoe_factory=shoe_factory)
    return BlackjackBot(config, clock=clock, store=store, shoe_factory=shoe_factory)
