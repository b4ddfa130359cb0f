"""``python -m bot`` / ``python -m bot run``: start the Discord bot.

Settings come from the environment and ``.env`` (see .env.example). A missing or
rejected token prints how to get one and exits with status 2, without a traceback, as
does a database that cannot be opened or written, or a metrics port that is taken; a
Discord that cannot be reached says so in one line and exits with status 1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
from collections.abc import Callable, Coroutine
from typing import Any

import aiohttp
import discord

import db
from bot import gc_tuning
from bot.config import TOKEN_HELP, Config, ConfigError, environment, load_config
from bot.endpoints import api_base, apply_endpoints
from bot.log_setup import setup_logging
from bot.tables.resume import ShardCountChanged
from db.errors import StoreError

#: Exit status for a setting that must be fixed before the bot can start.
CONFIG_EXIT = 2
#: Exit status when Discord cannot be reached (no network, DNS, Discord down).
NETWORK_EXIT = 1


#: The settings ``run`` reads, for its help (.env.example says more of each).
SETTINGS_HELP = """\
settings (environment variables, or a .env file in the folder you start from):
  DISCORD_TOKEN          the bot's token (required)
  DATABASE_URL           sqlite:////absolute/path.sqlite3 or postgresql://...
                         (default: data/blackjack.sqlite3 under this folder)
  LOG_LEVEL, LOG_FORMAT  DEBUG/INFO/WARNING/ERROR; text or json
  METRICS_PORT, METRICS_HOST
                         Prometheus metrics at http://HOST:PORT/metrics
  SHARD_COUNT, SHARD_IDS sharding: the total, and this process's shards
  DEV_GUILD_ID           sync slash commands to this one server at once
  TABLE_MESSAGE_MAX_AGE_S
                         seconds before a table message is replaced
  CARD_PICTURES          on (default) or off: cards as emoji pictures or text
  UNBELIEVABOAT_API_URL  UnbelievaBoat's API, for servers linked to its economy
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """No options: everything is configured by the environment, listed in the help."""
    parser.epilog = SETTINGS_HELP
    parser.formatter_class = argparse.RawDescriptionHelpFormatter


def run(args: argparse.Namespace) -> int:
    """Read the settings, point discord.py at the configured endpoints, run until stopped."""
    env = environment()
    try:
        config = load_config(env)
        apply_endpoints(env)
    except (ConfigError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return CONFIG_EXIT
    setup_logging(config.log_level, config.log_format, secrets=(config.token,))
    try:
        event_loop_runner()(serve(config))
    except discord.LoginFailure:
        fatal(config, f"Discord rejected DISCORD_TOKEN. {TOKEN_HELP}")
        return CONFIG_EXIT
    except discord.PrivilegedIntentsRequired:
        fatal(config, "Discord refused the bot's intents.")
        return CONFIG_EXIT
    except (StoreError, ShardCountChanged, MetricsPortError) as error:
        fatal(config, str(error))
        return CONFIG_EXIT
    except (aiohttp.ClientError, OSError, discord.GatewayNotFound) as error:
        fatal(
            config,
            f"cannot reach Discord at {api_base()} ({error}). "
            "Check the network connection, then start the bot again.",
        )
        return NETWORK_EXIT
    except KeyboardInterrupt:
        pass
    return 0


def fatal(config: Config, message: str) -> None:
    """The line the bot exits with: one JSON line with LOG_FORMAT=json, else ``error: ...``."""
    if config.log_format == "json":
        logging.getLogger("bot").critical(message)
    else:
        print(f"error: {message}", file=sys.stderr)


def event_loop_runner() -> Callable[[Coroutine[Any, Any, None]], None]:
    """``uvloop.run`` when uvloop is installed (the ``speed`` extra; the Docker image has
    it), else ``asyncio.run``.

    uvloop cut the bot's CPU per interaction by about 16% under load (bench/load.py,
    bench/README.md); the bot behaves the same on either loop.
    """
    try:
        import uvloop
    except ImportError:
        return asyncio.run
    return uvloop.run


class MetricsPortError(Exception):
    """The metrics endpoint cannot listen where METRICS_HOST and METRICS_PORT say."""


async def serve(config: Config) -> None:
    """Run the bot; SIGTERM and SIGINT stop it gracefully (its tables resume at the next start).

    The store (opened, migrated and tried with a write) and the metrics endpoint come
    first, before logging in to Discord, so a fault in either is named as itself.
    """
    from bot.app import build_bot  # imports discord.ui and the cogs: only when running

    gc_tuning.tune()
    async with db.open_store(config.database_url) as store:
        await store.check_writable()
        bot = build_bot(config, store=store)
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError):  # not on Windows
                loop.add_signal_handler(signum, lambda: asyncio.ensure_future(bot.close()))
        async with bot:
            try:
                await bot.serve_metrics()
            except OSError as error:
                errno = error.errno or 0  # an address error (gaierror) has a negative one
                reason = os.strerror(errno) if errno > 0 else str(error)
                raise MetricsPortError(
                    f"cannot serve metrics on {config.metrics_host}:{config.metrics_port}"
                    f" ({reason}): set METRICS_PORT to a free port, or leave it empty"
                    " for no metrics"
                ) from error
            await bot.start(config.token)
    logging.getLogger(__name__).info("the bot stopped")
