"""When something breaks inside a table: the table closes, its round is refunded, and
every other table goes on (timers never take the service down).

When the store stops taking writes, the table pauses instead and nothing is claimed that
did not commit. SQLite refuses every write (its own read-only refusal, ``PRAGMA
query_only``) while the fault file exists (tests/outage.py): a click is answered
"paused" and changes nothing, the table stays in its channel, and once the file is gone
the table reloads itself from the store (on the manual clock's backoff) and goes on.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import asyncpg
import pytest

import db
from bot.engine import Action
from bot.tables import (
    TableAlreadyOpen,
    TableError,
    TablePaused,
    TablePhase,
    TableService,
    TableSnapshot,
)
from bot.tables.changes import RETRY_FIRST_S
from bot.tables.errors import PAUSED
from bot.tables.opening import PAUSED_THERE
from db import sqlite_path
from fakediscord.clock import ManualClock
from tests.db.invariants import check_invariants
from tests.outage import SQLiteOutage
from tests.support.shoes import SPARE, START_CHIPS, ShoeQueue
from tests.support.tables import (
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    OTHER_CHANNEL,
    Published,
    ledger_kinds,
    tick,
)


async def test_a_failure_in_a_timer_closes_that_table_refunded_and_spares_the_others(
    service: TableService,
    store: db.Store,
    clock: ManualClock,
    shoes: ShoeQueue,
    published: Published,
    caplog: pytest.LogCaptureFixture,
) -> None:
    shoes.add("Ts")  # one card: the deal runs the stacked shoe dry
    shoes.add("5s Td 6s 7d " + SPARE)
    broken = (await service.start(GUILD, CHANNEL, ALICE)).snapshot
    other = (await service.start(GUILD, OTHER_CHANNEL, BOB)).snapshot
    await service.join(CHANNEL, BOB)
    await service.bet(CHANNEL, ALICE, "100")  # Bob sits out: the bet timer deals
    await tick(clock, 30)

    assert service.table_in(CHANNEL) is None
    assert f"the timer of table {broken.table_id} failed" in caplog.text
    closed = [s for s in published.snapshots if s.table_id == broken.table_id][-1]
    assert closed.phase is TablePhase.CLOSED
    assert "refunded" in closed.closed_reason
    assert await ledger_kinds(store, ALICE) == [
        ("grant", START_CHIPS),
        ("bet", -100),
        ("refund", 100),
    ]
    table, _ = await service.bet(OTHER_CHANNEL, BOB, "100")
    assert table.table_id == other.table_id
    assert table.phase is TablePhase.PLAYING
    table = (await service.act(table.table_id, table.round_no, BOB, Action.STAND)).snapshot
    assert table.phase is TablePhase.BETTING


async def test_a_failure_during_a_bet_says_so_and_refunds(
    service: TableService, store: db.Store, shoes: ShoeQueue
) -> None:
    shoes.add("Ts")
    await service.start(GUILD, CHANNEL, ALICE)
    with pytest.raises(TableError, match="it closed, and any open round was refunded"):
        await service.bet(CHANNEL, ALICE, "100")
    assert service.table_in(CHANNEL) is None
    assert await store.balance(GUILD, ALICE.user_id) == START_CHIPS


async def test_the_table_message_is_stored_on_every_round(
    service: TableService, store: db.Store, shoes: ShoeQueue
) -> None:
    shoes.add("5s Td 6s 7d " + SPARE)
    table = (await service.start(GUILD, CHANNEL, ALICE)).snapshot
    await service.attach_message(table.table_id, 700_000_000_000_000_001)
    table, _ = await service.bet(CHANNEL, ALICE, "100")
    await service.act(table.table_id, table.round_no, ALICE, Action.STAND)
    rounds = await store.reports.round_history(GUILD, channel_id=CHANNEL)
    assert [r.message_id for r in rounds] == [700_000_000_000_000_001] * 2


#: Alice 5 6 (11) against the dealer's T 7 (17): she has a decision to make.
ROUND = "5s Td 6s 7d " + SPARE


@pytest.fixture
def fault(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> SQLiteOutage:
    """Set before the store opens: the store's SQLite connection refuses writes at will."""
    outage = SQLiteOutage(tmp_path / "store-fails")
    for name, value in outage.env.items():
        monkeypatch.setenv(name, value)
    return outage


async def run_sql(store_url: str, sql: str) -> list[tuple[Any, ...]]:
    """Run ``sql`` straight on the database (SQLite file or PostgreSQL); its rows."""
    if store_url.startswith("sqlite:///"):
        conn = sqlite3.connect(sqlite_path(store_url))
        try:
            with conn:
                return conn.execute(sql).fetchall()
        finally:
            conn.close()
    pg = await asyncpg.connect(store_url)
    try:
        return [tuple(row) for row in await pg.fetch(sql)]
    finally:
        await pg.close()


async def open_tables(store_url: str) -> list[tuple[str, int]]:
    sql = "SELECT table_id, channel_id FROM live_tables WHERE status = 'open' ORDER BY table_id"
    return [(str(t), int(c)) for t, c in await run_sql(store_url, sql)]


async def test_a_click_while_the_store_refuses_writes_pauses_the_table_until_it_is_back(
    fault: SQLiteOutage,
    service: TableService,
    store: db.Store,
    store_url: str,
    clock: ManualClock,
    shoes: ShoeQueue,
) -> None:
    shoes.add(ROUND)
    table = (await service.start(GUILD, CHANNEL, ALICE)).snapshot
    dealt, _ = await service.bet(CHANNEL, ALICE, "100")
    assert dealt.phase is TablePhase.PLAYING

    fault.begin()
    with pytest.raises(TablePaused) as paused:
        await service.act(table.table_id, dealt.round_no, ALICE, Action.STAND)
    assert str(paused.value) == PAUSED
    with pytest.raises(TablePaused):  # every change waits, timers too
        await service.act(table.table_id, dealt.round_no, ALICE, Action.HIT)
    with pytest.raises(TableAlreadyOpen, match=PAUSED_THERE):
        await service.start(GUILD, CHANNEL, BOB)
    assert service.get(table.table_id).version == dealt.version  # shown as it was
    await tick(clock, 60)  # the action timer does not run, the retries fail
    with pytest.raises(TablePaused):
        await service.act(table.table_id, dealt.round_no, ALICE, Action.STAND)

    fault.end()
    await tick(clock, 30)  # the next retry finds the store back
    assert service.get(table.table_id).phase is TablePhase.PLAYING
    done = (await service.act(table.table_id, dealt.round_no, ALICE, Action.STAND)).snapshot
    assert done.phase is TablePhase.BETTING
    assert await ledger_kinds(store, ALICE) == [("grant", START_CHIPS), ("bet", -100)]
    assert await open_tables(store_url) == [(table.table_id, CHANNEL)]


@pytest.fixture
async def table(service: TableService, shoes: ShoeQueue) -> TableSnapshot:
    """Alice's table, taking bets, its ROUND stacked."""
    shoes.add(ROUND)
    return (await service.start(GUILD, CHANNEL, ALICE)).snapshot


async def test_a_stop_that_cannot_commit_claims_no_refund_and_refunds_once_the_store_is_back(
    fault: SQLiteOutage,
    table: TableSnapshot,
    service: TableService,
    store: db.Store,
    clock: ManualClock,
) -> None:
    await service.join(CHANNEL, BOB)  # Bob has not bet: Alice's bet is not dealt yet
    await service.bet(CHANNEL, ALICE, "100")
    fault.begin()
    with pytest.raises(TablePaused):
        await service.stop(CHANNEL, ALICE, may_manage_channel=False)
    assert service.table_in(CHANNEL) is not None  # not dropped: it still holds the stake

    fault.end()
    await tick(clock, RETRY_FIRST_S)
    closed = (await service.stop(CHANNEL, ALICE, may_manage_channel=False)).snapshot
    assert closed.phase is TablePhase.CLOSED
    assert service.table_in(CHANNEL) is None
    assert await ledger_kinds(store, ALICE) == [
        ("grant", START_CHIPS),
        ("bet", -100),
        ("refund", 100),
    ]
    assert table.table_id not in {t.table_id for t in service.open_tables()}


async def test_a_timer_whose_write_fails_pauses_and_deals_once_the_store_is_back(
    fault: SQLiteOutage,
    service: TableService,
    store: db.Store,
    clock: ManualClock,
    shoes: ShoeQueue,
) -> None:
    shoes.add(ROUND)
    await service.start(GUILD, CHANNEL, ALICE)
    await service.join(CHANNEL, BOB)
    await service.bet(CHANNEL, ALICE, "100")  # Bob sits out: the bet timer deals
    fault.begin()
    await tick(clock, 30)
    with pytest.raises(TablePaused):
        await service.bet(CHANNEL, BOB, "50")
    fault.end()
    await tick(clock, 60)
    assert service.table_in(CHANNEL) is not None
    assert service.table_in(CHANNEL).phase is TablePhase.PLAYING  # type: ignore[union-attr]
    assert await ledger_kinds(store, ALICE) == [("grant", START_CHIPS), ("bet", -100)]
    assert await ledger_kinds(store, BOB) == [("grant", START_CHIPS)]


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
async def test_two_open_tables_of_one_channel_from_before_keep_the_newer_and_refund_the_other(
    store_url: str, clock: ManualClock, shoes: ShoeQueue
) -> None:
    def when() -> datetime:
        return datetime.fromtimestamp(clock.now(), UTC)

    store = await db.open_store(store_url, clock=when)
    first = TableService(store, clock=clock, shoe_factory=shoes)
    older = (await first.start(GUILD, CHANNEL, ALICE)).snapshot
    newer = (await first.start(GUILD, OTHER_CHANNEL, BOB)).snapshot
    await first.attach_message(older.table_id, 700_000_000_000_000_001)
    await first.attach_message(newer.table_id, 700_000_000_000_000_002)
    await first.bet(CHANNEL, ALICE, "100")
    clock.advance(1)
    await first.bet(OTHER_CHANNEL, BOB, "40")
    await first.suspend()
    await store.close()
    # The database as a bot without one table per channel left it: both in one channel.
    for sql in (
        "DROP INDEX live_tables_one_per_channel",
        "DELETE FROM schema_version WHERE version = 4",
        f"UPDATE live_tables SET channel_id = {CHANNEL}",
        f"UPDATE rounds SET channel_id = {CHANNEL}",
    ):
        await run_sql(store_url, sql)

    store = await db.open_store(store_url, clock=when)  # migration 004
    try:
        second = TableService(store, clock=clock, shoe_factory=shoes)
        report = await second.resume()
        assert [r.snapshot.table_id for r in report.resumed] == [newer.table_id]
        assert [v.refunds for v in report.voided] == [{ALICE.user_id: 100}]
        assert await ledger_kinds(store, ALICE) == [
            ("grant", START_CHIPS),
            ("bet", -100),
            ("refund", 100),
        ]
        assert await ledger_kinds(store, BOB) == [("grant", START_CHIPS), ("bet", -40)]
        with pytest.raises(TableAlreadyOpen):
            await second.start(GUILD, CHANNEL, ALICE)
        await second.suspend()
    finally:
        await store.close()
    assert await open_tables(store_url) == [(newer.table_id, CHANNEL)]
    await check_invariants(store_url)


async def test_start_in_a_channel_whose_table_is_stored_open_resumes_it_instead_of_a_second(
    store: db.Store, clock: ManualClock, shoes: ShoeQueue
) -> None:
    shoes.add(ROUND)
    before = TableService(store, clock=clock, shoe_factory=shoes)
    left = (await before.start(GUILD, CHANNEL, ALICE)).snapshot
    await before.attach_message(left.table_id, 700_000_000_000_000_001)
    await before.bet(CHANNEL, ALICE, "100")
    await before.suspend()  # stored open; a service that never resumed it comes next

    after = TableService(store, clock=clock, shoe_factory=shoes)
    with pytest.raises(TableAlreadyOpen) as pointed:
        await after.start(GUILD, CHANNEL, BOB)
    assert pointed.value.snapshot.table_id == left.table_id
    done = await after.act(left.table_id, pointed.value.snapshot.round_no, ALICE, Action.STAND)
    assert done.snapshot.phase is TablePhase.BETTING  # the round went on and settled
    await after.suspend()
