"""``python -m bot check``: is this bot able to start? For Docker's HEALTHCHECK and for hosts.

Checks that the settings are valid, the database is reachable and its schema
is the one this code expects. Prints one line per check and exits non-zero,
with the reason, at the first failure.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

import db
from bot.config import ConfigError, environment, load_config
from db.migrate import load_migrations


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--no-token",
        action="store_true",
        help="do not require DISCORD_TOKEN (check only the database)",
    )


def run(args: argparse.Namespace) -> int:
    try:
        config = load_config(environment(), require_token=not args.no_token)
    except ConfigError as exc:
        print(f"config: FAILED: {exc}", file=sys.stderr)
        return 1
    print("config: ok")
    return asyncio.run(_check_database(config.database_url))


async def _check_database(url: str) -> int:
    expected = load_migrations()[-1].version
    try:
        async with db.open_store(url) as store:
            version = await store.schema_version()
    except (db.StoreConfigError, db.StoreVersionError) as exc:
        print(f"database: FAILED: {exc}", file=sys.stderr)
        return 1
    print("database: ok (reachable)")
    if version != expected:
        print(
            f"migrations: FAILED: the database is at schema {version}, this code expects "
            f"{expected}",
            file=sys.stderr,
        )
        return 1
    print(f"migrations: ok (schema {version})")
    return 0
