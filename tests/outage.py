"""Taking the chip store away for a while, for real: the tests' and the soak's outages.

PostgreSQL: the server is stopped (``pg_ctl stop -m fast``) and started again.
SQLite: while a fault file exists, the bot's connection refuses every write with
SQLite's own read-only error (db.sqlite.FAULT_FILE_ENV names the file; the bot
process reads that variable when it opens the store).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from db.sqlite import FAULT_FILE_ENV
from tests.pgserver import PostgresServer


class Outage(Protocol):
    """An outage of the store: ``begin`` takes it away, ``end`` brings it back."""

    def begin(self) -> None: ...

    def end(self) -> None: ...


@dataclass(frozen=True)
class SQLiteOutage:
    """Writes refused while ``path`` exists; ``env`` is what the bot process needs set."""

    path: Path

    @property
    def env(self) -> dict[str, str]:
        return {FAULT_FILE_ENV: str(self.path)}

    def begin(self) -> None:
        self.path.touch()

    def end(self) -> None:
        self.path.unlink(missing_ok=True)


@dataclass(frozen=True)
class PostgresOutage:
    """The server stopped and started again."""

    server: PostgresServer

    def begin(self) -> None:
        self.server.go_down()

    def end(self) -> None:
        self.server.come_back()
