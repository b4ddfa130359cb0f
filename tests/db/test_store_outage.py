"""A database that cannot take writes says so (StoreUnavailable), and one channel holds
one open table, whatever the caller.

The outages are real (tests/outage.py): SQLite refusing writes with its own read-only
error, and a PostgreSQL server of the test's own, stopped and started again.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import asyncpg
import pytest

import db
from tests.outage import PostgresOutage, SQLiteOutage
from tests.pgserver import start_for_tests
from tests.support.clocks import FakeClock

G, CHANNEL, PLAYER = 10, 30, 20


def document(table_id: str, channel_id: int = CHANNEL) -> db.TableWrite:
    return db.TableWrite(table_id, G, channel_id, None, None, 1, "{}")


async def test_a_channel_holds_one_open_table_and_a_closed_one_leaves_it_free(
    store: db.Store,
) -> None:
    await store.tables.save_table(document("first"))
    with pytest.raises((sqlite3.IntegrityError, asyncpg.UniqueViolationError)):
        await store.tables.save_table(document("second"))
    await store.tables.save_table(document("elsewhere", CHANNEL + 1))
    assert [t.table_id for t in await store.tables.open_tables_in(CHANNEL)] == ["first"]
    await store.tables.close_table("first")
    await store.tables.save_table(document("second"))
    assert [t.table_id for t in await store.tables.open_tables_in(CHANNEL)] == ["second"]
    assert (await store.tables.open_table("second")) is not None
    assert (await store.tables.open_table("first")) is None


async def test_sqlite_refusing_writes_is_unavailable_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clock: FakeClock
) -> None:
    outage = SQLiteOutage(tmp_path / "store-fails")
    for name, value in outage.env.items():
        monkeypatch.setenv(name, value)
    async with await db.open_store(f"sqlite:///{tmp_path / 'chips.sqlite3'}", clock=clock) as store:
        await store.ensure_account(G, PLAYER)
        outage.begin()
        with pytest.raises(db.StoreUnavailable, match="readonly") as refused:
            await store.adjust(G, PLAYER, 50, PLAYER, "a grant")
        assert not refused.value.maybe_committed
        assert (
            len(await store.reports.ledger(G, PLAYER, 10)) == 1
        )  # reads go on; nothing was written
        outage.end()
        assert await store.adjust(G, PLAYER, 50, PLAYER, "a grant") == 1050


async def test_a_stopped_postgresql_server_is_unavailable_until_it_is_started_again(
    clock: FakeClock,
) -> None:
    server = start_for_tests()
    try:
        async with await db.open_store(server.create_database(), clock=clock) as store:
            await store.ensure_account(G, PLAYER)
            outage = PostgresOutage(server)
            outage.begin()
            try:
                with pytest.raises(db.StoreUnavailable, match="PostgreSQL"):
                    await store.adjust(G, PLAYER, 50, PLAYER, "a grant")
                with pytest.raises(db.StoreUnavailable):
                    await store.balance(G, PLAYER)
            finally:
                outage.end()
            # The pool's connections died with the server: the next transaction reconnects.
            assert await store.adjust(G, PLAYER, 50, PLAYER, "a grant") == 1050
    finally:
        server.stop()
