"""The SQLite file that DATABASE_URL names, for the tools that read it (backup, copy-db)."""

from __future__ import annotations

import sys
from pathlib import Path

from bot.config import ConfigError, environment, load_config
from db import sqlite_path

#: The epilog of each tool's help: where it reads from.
SOURCE_HELP = (
    "{tool} reads the SQLite database that DATABASE_URL names (from the environment or a "
    ".env file in this folder; unset: data/blackjack.sqlite3 under this folder), as the bot does."
)
#: Exit status for a setting that must be fixed first (as ``python -m bot run`` uses).
CONFIG_EXIT = 2


def configured_sqlite_file(not_sqlite: str) -> Path | int:
    """The existing SQLite file of DATABASE_URL, or (after saying why) an exit status.

    ``not_sqlite`` is what to print when DATABASE_URL is not a SQLite URL.
    """
    try:
        config = load_config(environment(), require_token=False)
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return CONFIG_EXIT
    if not config.database_url.startswith("sqlite:///"):
        print(not_sqlite, file=sys.stderr)
        return CONFIG_EXIT
    source = sqlite_path(config.database_url)
    if source == ":memory:" or not Path(source).is_file():
        print(f"error: there is no SQLite file at {source!r} (DATABASE_URL)", file=sys.stderr)
        return 1
    return Path(source)
