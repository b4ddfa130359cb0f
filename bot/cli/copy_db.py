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

from bot.cli.sqlite_source import SOURCE_HELP, configured_sqlite_file
from db.errors import StoreError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = SOURCE_HELP.format(tool="copy-db")
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
        print(f"{table}: {counted(rows, 'row')}")
    balances = report.accounts_checked
    print(
        f"copy-db: ok ({counted(sum(report.rows.values()), 'row')}; every count matches and "
        + (
            "the balance equals its ledger)"
            if balances == 1
            else f"all {balances:,} balances equal their ledger)"
        )
    )
    return 0


def counted(number: int, noun: str) -> str:
    """``1 row``, ``2 rows``, ``1,200 rows``."""
    return f"{number:,} {noun}{'' if number == 1 else 's'}"
