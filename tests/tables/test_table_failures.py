"""When something breaks inside a table: the table closes, its round is refunded, and
every other table goes on (timers never take the service down)."""

from __future__ import annotations

import pytest

import db
from bot.engine import Action
from bot.tables import TableError, TablePhase, TableService
from fakediscord.clock import ManualClock
from tests.tables.helpers import (
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    OTHER_CHANNEL,
    SPARE,
    START_CHIPS,
    Published,
    ShoeQueue,
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
    rounds = await store.round_history(GUILD, channel_id=CHANNEL)
    assert [r.message_id for r in rounds] == [700_000_000_000_000_001] * 2
