"""Fixtures: a store on a SQLite file and on a PostgreSQL server this session starts.

``store`` is parametrised over both backends; after every test the economy's
invariants are checked straight in its database. ``pg_server`` (session) comes
from tests/conftest.py, for every test folder.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import db
from tests.db.invariants import check_invariants
from tests.pgserver import PostgresServer
from tests.support.clocks import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    """The store's clock, at 2026-01-01 12:00 UTC until a test moves it."""
    return FakeClock()


@pytest.fixture(params=["sqlite", "postgres"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of a fresh, empty database on each backend."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'chips.sqlite3'}"
    server: PostgresServer = request.getfixturevalue("pg_server")
    return server.create_database()


@pytest.fixture
async def store(store_url: str, clock: FakeClock) -> AsyncIterator[db.Store]:
    """An open store on a fresh database; its invariants are checked when the test ends."""
    opened = await db.open_store(store_url, clock=clock)
    try:
        yield opened
    finally:
        await opened.close()
    await check_invariants(store_url, tables=False)
