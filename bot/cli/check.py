"""``python -m bot check``: is this bot able to start? For Docker's HEALTHCHECK and for hosts.

Checks that the settings are valid, the database exists, is reachable and takes a
write (one row, rolled back), and its schema is the one this code expects; with
``--gateway``, that the running bot is connected to Discord (through its metrics
endpoint). It creates nothing: a mistyped path is a missing database, not a new one.
Prints one line per check and exits non-zero, with the reason, at the first failure.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import urllib.request
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

import db
from bot.config import Config, ConfigError, environment, load_config
from db.migrate import load_migrations

#: Seconds the health check waits for the metrics endpoint.
GATEWAY_TIMEOUT_S = 5


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--no-token",
        action="store_true",
        help="do not require DISCORD_TOKEN (check only the database)",
    )
    parser.add_argument(
        "--gateway",
        action="store_true",
        help="also ask the running bot, at its metrics endpoint (METRICS_PORT), whether it is "
        "connected to Discord's gateway (not checked when METRICS_PORT is unset)",
    )


def run(args: argparse.Namespace) -> int:
    try:
        config = load_config(environment(), require_token=not args.no_token)
    except ConfigError as exc:
        print(f"config: FAILED: {exc}", file=sys.stderr)
        return 1
    print("config: ok")
    failed = asyncio.run(_check_database(config.database_url))
    if failed or not args.gateway:
        return failed
    return _check_gateway(config)


def _check_gateway(config: Config) -> int:
    """Healthy when the bot's metrics endpoint answers and a shard reports a heartbeat: a
    shard's latency is exported only while its gateway connection is up."""
    if config.metrics_port is None:
        print("gateway: not checked (METRICS_PORT is unset)")
        return 0
    host = {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(config.metrics_host, config.metrics_host)
    url = f"http://{host}:{config.metrics_port}/metrics"
    if ":" in host:
        url = f"http://[{host}]:{config.metrics_port}/metrics"
    try:
        with urllib.request.urlopen(url, timeout=GATEWAY_TIMEOUT_S) as response:
            text = response.read().decode()
    except OSError as exc:
        print(f"gateway: FAILED: the bot does not answer at {url} ({exc})", file=sys.stderr)
        return 1
    shards = [
        sample.labels.get("shard")
        for family in text_string_to_metric_families(text)
        if family.name == "blackjack_gateway_latency_seconds"
        for sample in family.samples
    ]
    if not shards:
        print("gateway: FAILED: the bot is not connected to Discord's gateway", file=sys.stderr)
        return 1
    print(f"gateway: ok (shards {', '.join(sorted(str(s) for s in shards))} connected)")
    return 0


async def _check_database(url: str) -> int:
    """Open the database as it is: the check creates and migrates nothing."""
    expected = load_migrations()[-1].version
    try:
        async with db.open_store(url, migrate=False) as store:
            try:
                version = await store.schema_version()
            except Exception as exc:  # sqlite3 or asyncpg: no schema_version table
                print(
                    f"database: FAILED: {_where(url)} has no bot schema ({exc}); "
                    "the bot creates it when it first starts",
                    file=sys.stderr,
                )
                return 1
            await store.check_writable()
    except (db.StoreConfigError, db.StoreVersionError) as exc:
        print(f"database: FAILED: {exc}", file=sys.stderr)
        return 1
    print(f"database: ok ({_where(url)})")
    if version != expected:
        fix = (
            "run a newer version of the bot"
            if version > expected
            else "the bot migrates it when it starts"
        )
        print(
            f"migrations: FAILED: the database is at schema {version}, this code expects "
            f"{expected}: {fix}",
            file=sys.stderr,
        )
        return 1
    print(f"migrations: ok (schema {version})")
    return 0


def _where(url: str) -> str:
    """The database in words: a SQLite file's absolute path, or the server."""
    if url.startswith("sqlite:///"):
        return f"SQLite file {Path(db.sqlite_path(url)).resolve()}"
    return "the PostgreSQL database"
