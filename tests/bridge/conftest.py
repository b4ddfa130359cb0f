"""Fixtures: the bridge on a real store (a SQLite file, and a PostgreSQL server this
session starts) talking to the fake UnbelievaBoat; the economy's invariants are checked
in the database after every test."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import db
from bot.bridge.client import Token, UnbClient
from bot.bridge.transfers import Bridge
from fakediscord.clock import ManualClock
from fakeunb import FakeUnbelievaBoat
from tests.db.invariants import check_invariants
from tests.pgserver import PostgresServer
from tests.support.clocks import FakeClock

GUILD, ADMIN = 111_111_111_111_111_111, 999_999_999_999_999_999
TOKEN = Token("unb-app-token-7f3a9c")
#: Long enough for an answer on a busy machine; a held request ends after it.
TIMEOUT_S = 1.0


@pytest.fixture(params=["sqlite", "postgres"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of a fresh, empty database on each backend."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'chips.sqlite3'}"
    server: PostgresServer = request.getfixturevalue("pg_server")
    return server.create_database()


@pytest.fixture
async def store(store_url: str) -> AsyncIterator[db.Store]:
    """An open store; its invariants are checked when the test ends."""
    opened = await db.open_store(store_url, clock=FakeClock())
    try:
        yield opened
    finally:
        await opened.close()
    await check_invariants(store_url, tables=False)


@pytest.fixture
async def unb() -> AsyncIterator[FakeUnbelievaBoat]:
    """The fake UnbelievaBoat, with the application authorized in GUILD."""
    async with FakeUnbelievaBoat() as fake:
        fake.authorize(TOKEN.reveal(), GUILD)
        yield fake


@pytest.fixture
async def client(unb: FakeUnbelievaBoat) -> AsyncIterator[UnbClient]:
    """A client of the fake, waiting on a clock the test moves."""
    made = UnbClient(unb.url, ManualClock(), timeout=TIMEOUT_S)
    yield made
    await made.close()


@pytest.fixture
async def bridge(store: db.Store, client: UnbClient) -> Bridge:
    """The bridge, GUILD connected to the fake at 1:1."""
    made = Bridge(store, client)
    await made.connect(GUILD, TOKEN, ADMIN)
    return made
