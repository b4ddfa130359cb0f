"""``python -m bot copy-db --to postgresql://...``: move the economy from SQLite to PostgreSQL.

Copies every table of the configured SQLite database (DATABASE_URL) into an
empty PostgreSQL database in one transaction, and commits only once every row
count matches and every balance equals its ledger. Stop the bot first; then
point DATABASE_URL at the PostgreSQL database and start it again.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from bot.cli.sqlite_source import configured_sqlite_file
from db.errors import StoreError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--to",
        required=True,
        metavar="POSTGRESQL_URL",
        help="an empty PostgreSQL database, e.g. postgresql://user:password@host:5432/blackjack",
    )


def run(args: argparse.Namespace) -> int:
    source = configured_sqlite_file(
        "error: DATABASE_URL must name the SQLite database to copy from"
    )
    if isinstance(source, int):
        return source
    if not args.to.startswith(("postgresql://", "postgres://")):
        print("error: --to must be a postgresql:// URL", file=sys.stderr)
        return 2
    from db.copy import copy_sqlite_to_postgres  # needs asyncpg: only when copying

    try:
        report = asyncio.run(copy_sqlite_to_postgres(f"sqlite:///{source}", args.to))
    except StoreError as error:
        print(f"copy-db: FAILED, nothing was copied: {error}", file=sys.stderr)
        return 1
    for table, rows in report.rows.items():
        print(f"{table}: {rows} rows")
    print(
        f"copy-db: ok ({sum(report.rows.values())} rows; every count matches and all"
        f" {report.accounts_checked} balances equal their ledger)"
    )
    return 0
