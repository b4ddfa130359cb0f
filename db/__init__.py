"""Chips, ledger, rounds, shoes and guild settings, in SQLite or PostgreSQL.

``await db.open_store(url)`` returns a ``Store``; see db.store for every
operation. The store knows nothing of Discord or of game rules: rules and
round state are opaque JSON text to it.
"""

from __future__ import annotations

import re
from collections.abc import Generator
from pathlib import Path
from types import TracebackType
from typing import Any, Final
from urllib.parse import urlsplit

from db.errors import (
    BalanceLimitExceeded,
    BridgedEconomy,
    InsufficientChips,
    PlayRefused,
    RoundClosed,
    SettingsCrossed,
    StoreConfigError,
    StoreError,
    StoreUnavailable,
    StoreVersionError,
    UnknownRound,
    UnknownShoe,
)
from db.models import (
    MAX_BALANCE,
    Account,
    DailyResult,
    GuildSettings,
    HandResult,
    LeaderboardEntry,
    LeaderboardPage,
    LedgerEntry,
    LedgerPage,
    PlayerStats,
    RoundRecord,
    SettleResult,
    ShoeRecord,
    SideBetResult,
    Staked,
    StoredTable,
    TableAction,
    TableWrite,
    VoidResult,
)
from db.ops.achievements import AwardRecord, RoundAwards
from db.ops.bridge import BridgeRecord, TransferClosed, TransferRecord
from db.ops.coach import CoachFigures, DecisionRecord, SharpEntry, UngradedRound
from db.ops.seasons import Season, SeasonEntry, SeasonStandings
from db.store import Clock, Store

__all__ = [
    "DEFAULT_URL",
    "MAX_BALANCE",
    "Account",
    "AwardRecord",
    "BalanceLimitExceeded",
    "BridgeRecord",
    "BridgedEconomy",
    "Clock",
    "CoachFigures",
    "DailyResult",
    "DecisionRecord",
    "GuildSettings",
    "HandResult",
    "InsufficientChips",
    "LeaderboardEntry",
    "LeaderboardPage",
    "LedgerEntry",
    "LedgerPage",
    "PlayRefused",
    "PlayerStats",
    "RoundAwards",
    "RoundClosed",
    "RoundRecord",
    "Season",
    "SeasonEntry",
    "SeasonStandings",
    "SettingsCrossed",
    "SettleResult",
    "SharpEntry",
    "ShoeRecord",
    "SideBetResult",
    "Staked",
    "Store",
    "StoreConfigError",
    "StoreError",
    "StoreOpener",
    "StoreUnavailable",
    "StoreVersionError",
    "StoredTable",
    "TableAction",
    "TableWrite",
    "TransferClosed",
    "TransferRecord",
    "UngradedRound",
    "UnknownRound",
    "UnknownShoe",
    "VoidResult",
    "open_store",
    "redacted_url",
]

#: A SQLite file under ./data/ (relative to the working directory), created on first use.
DEFAULT_URL: Final = "sqlite:///data/blackjack.sqlite3"


#: A URL's password: after ``user:`` up to the last ``@`` before the path's query, or a
#: ``password=`` parameter. Text, not a parsed URL: a URL that does not parse is still
#: shown without its password.
_PASSWORD: Final = re.compile(
    r"(?P<user>://[^:/?#@]*:)[^?#]*(?=@)|(?P<key>[?&]password=)[^&#]*", re.IGNORECASE
)


def redacted_url(url: str) -> str:
    """``url`` fit to print: its password, in the user part or as ``password=``, is ``***``."""
    return _PASSWORD.sub(lambda m: f"{m['user'] or m['key']}***", url)


def sqlite_path(url: str) -> str:
    """The file path of a ``sqlite:///`` URL: ``sqlite:///data/x.db`` is relative,
    ``sqlite:////srv/x.db`` absolute, ``sqlite:///:memory:`` in memory."""
    path = url.removeprefix("sqlite:///")
    if not path or path.endswith("/") or "?" in path:
        raise StoreConfigError(
            f"DATABASE_URL {url!r} names no SQLite file: write sqlite:///relative/path.db"
            " or sqlite:////absolute/path.db"
        )
    return path if path == ":memory:" else str(Path(path))


class StoreOpener:
    """What ``open_store`` returns: await it for the Store, or ``async with`` it to close after."""

    def __init__(self, url: str, clock: Clock | None, migrate: bool = True) -> None:
        self._url = url
        self._clock = clock
        self._migrate = migrate
        self._store: Store | None = None

    def __await__(self) -> Generator[Any, None, Store]:
        return _open(self._url, self._clock, self._migrate).__await__()

    async def __aenter__(self) -> Store:
        self._store = await _open(self._url, self._clock, self._migrate)
        return self._store

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._store is not None:
            await self._store.close()


def open_store(url: str, *, clock: Clock | None = None, migrate: bool = True) -> StoreOpener:
    """Open the store at ``url`` (``sqlite:///...`` or ``postgresql://...``) and migrate it.

    ``store = await open_store(url)`` (close it with ``await store.close()``), or
    ``async with open_store(url) as store: ...``. A bad URL or an unreachable
    server raises StoreConfigError naming DATABASE_URL; a database migrated by
    newer code raises StoreVersionError. ``clock`` (returning timezone-aware
    datetimes) replaces the system clock, for tests. ``migrate=False`` (the health
    check) changes nothing: no file or folder is created and no migration runs; a
    missing SQLite file raises StoreConfigError.
    """
    return StoreOpener(url, clock, migrate)


async def _open(url: str, clock: Clock | None, migrate: bool = True) -> Store:
    if not isinstance(url, str):
        raise StoreConfigError(f"DATABASE_URL must be text, not {type(url).__name__}")
    if url.startswith("sqlite:///"):
        from db.sqlite import SQLiteStore

        return await SQLiteStore.open(sqlite_path(url), clock, migrate=migrate)
    if url.startswith(("postgresql://", "postgres://")):
        from db.postgres import PostgresStore

        try:
            urlsplit(url).port  # noqa: B018 -- raises on a malformed port
        except ValueError as exc:
            raise StoreConfigError(f"DATABASE_URL {redacted_url(url)!r}: {exc}") from exc
        return await PostgresStore.open(url, redacted_url(url), clock, migrate=migrate)
    scheme = url.split(":", 1)[0] if ":" in url else url
    raise StoreConfigError(
        f"DATABASE_URL must start with sqlite:/// or postgresql://, not {scheme!r}:"
        f" for example {DEFAULT_URL}"
    )
