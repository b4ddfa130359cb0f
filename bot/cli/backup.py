"""``python -m bot backup PATH``: a consistent copy of the SQLite database, safe while the bot runs.

SQLite's online backup API copies every page inside one read transaction, so
the copy is the database as of one commit: a stake and its ledger row are both
in it or both not, whatever the bot writes meanwhile. The copy is written
beside PATH and renamed into place, so a half-written file never looks like a
backup (and a failed one is removed); it is no more readable than the database.
For PostgreSQL this prints the ``pg_dump`` recipe instead.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
from pathlib import Path

from bot.cli.sqlite_source import SOURCE_HELP, configured_sqlite_file

PG_DUMP_RECIPE = (
    "DATABASE_URL is PostgreSQL: back it up with pg_dump, which reads one consistent\n"
    "snapshot while the bot runs:\n"
    '  pg_dump --format=custom --file=blackjack.dump "$DATABASE_URL"\n'
    "and restore into an empty database with:\n"
    '  pg_restore --no-owner --dbname="$NEW_DATABASE_URL" blackjack.dump'
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = SOURCE_HELP.format(tool="backup")
    parser.add_argument(
        "path", type=Path, help="the file to write (must not exist yet; its folder must)"
    )


def run(args: argparse.Namespace) -> int:
    source = configured_sqlite_file(PG_DUMP_RECIPE)
    if isinstance(source, int):
        return source
    target: Path = args.path
    if target.exists():
        print(f"error: {target} exists; name a new file", file=sys.stderr)
        return 1
    folder = target.parent
    if not folder.is_dir():
        print(
            f"error: there is no folder {str(folder)!r} to write {target.name} into",
            file=sys.stderr,
        )
        return 1
    try:
        pages = backup_sqlite(source, target)
    except (OSError, sqlite3.Error) as error:
        print(f"error: backup failed: {error}", file=sys.stderr)
        return 1
    print(f"backup: ok ({pages} pages from {source} to {target})")
    return 0


def backup_sqlite(source: Path, target: Path) -> int:
    """Copy ``source`` to ``target`` as of one commit; the number of pages copied.

    The copy gets the source's permissions (or tighter, by the umask): a backup of a
    private database is private. A failed copy leaves no file behind.
    """
    partial = target.with_name(f".{target.name}.partial")
    partial.unlink(missing_ok=True)
    src = sqlite3.connect(source)  # reads only: the bot's writes are never blocked
    try:
        mode = os.stat(source).st_mode & 0o666
        os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode))
        try:
            pages = _copy(src, partial)
            os.replace(partial, target)
        except BaseException:
            partial.unlink(missing_ok=True)
            raise
    finally:
        src.close()
    return pages


def _copy(src: sqlite3.Connection, partial: Path) -> int:
    """Copy every page of ``src`` into the empty file ``partial``; the number of pages."""
    dst = sqlite3.connect(partial)
    try:
        # pages=-1 copies everything in one step, inside one read transaction: a
        # write by the bot meanwhile neither restarts nor tears the copy.
        src.backup(dst, pages=-1)
        dst.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
        return int(dst.execute("PRAGMA page_count").fetchone()[0])
    finally:
        dst.close()
