"""Fixtures for the table service: a real store (SQLite file, or PostgreSQL where a test
asks for it), the manual clock driving both the service and the store, stacked shoes.

After every test: timers stopped, no task left behind, and the economy's invariants
(balances equal their ledgers; chips granted = chips held + the house's net) checked
straight in the database.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

import db
from bot.tables import TableService, TableSnapshot
from fakediscord.clock import ManualClock
from tests.db.invariants import check_invariants
from tests.pgserver import PostgresServer
from tests.support.shoes import ShoeQueue
from tests.support.tables import GUILD, Published


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """'sqlite' unless a test parametrises it (indirect) with 'postgres'."""
    return str(getattr(request, "param", "sqlite"))


@pytest.fixture
def store_url(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if backend == "sqlite":
        return f"sqlite:///{tmp_path / 'tables.sqlite3'}"
    server: PostgresServer = request.getfixturevalue("pg_server")
    return server.create_database("tables")


@pytest.fixture
async def store(store_url: str, clock: ManualClock) -> AsyncIterator[db.Store]:
    """A store whose clock is the test's manual clock; invariants checked at the end."""
    opened = await db.open_store(store_url, clock=lambda: datetime.fromtimestamp(clock.now(), UTC))
    try:
        yield opened
    finally:
        await opened.close()
    await check_invariants(store_url)


@pytest.fixture
def shoes() -> ShoeQueue:
    """Stacked shoes for the next tables and reshuffles (then seeded real shoes)."""
    return ShoeQueue()


@pytest.fixture
def published() -> Published:
    return Published()


@pytest.fixture
async def service(
    store: db.Store, clock: ManualClock, shoes: ShoeQueue, published: Published
) -> AsyncIterator[TableService]:
    """A table service on the store; shut down (timers cancelled) when the test ends."""
    await store.get_guild_settings(GUILD)

    async def publish(snapshot: TableSnapshot) -> None:
        published.append(snapshot)

    tables = TableService(store, clock=clock, publish=publish, shoe_factory=shoes)
    yield tables
    await tables.suspend()
    leaked = [task for task in asyncio.all_tasks() if task.get_name().startswith("table ")]
    assert not leaked, f"tasks left running after a graceful stop: {leaked}"
