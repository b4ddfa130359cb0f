"""``python -m bot check``: is this bot able to start? For Docker's HEALTHCHECK and for hosts.

Checks that the settings are valid, the database exists, is reachable and takes a
write (one row, rolled back), and its schema is the one this code expects. It
creates nothing: a mistyped path is a missing database, not a new one. Prints one
line per check and exits non-zero, with the reason, at the first failure.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

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
