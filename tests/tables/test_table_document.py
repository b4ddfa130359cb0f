"""The table's document: the last round's lines are written to JSON once and put in each
later document as they are (a bet saves the document), the same JSON as written afresh."""

from __future__ import annotations

import json

import db
from bot.i18n import line_data, line_from
from bot.tables import TableService, durable
from fakediscord.clock import ManualClock
from tests.support.shoes import SPARE, ShoeQueue
from tests.support.tables import ALICE, BOB, CHANNEL, GUILD, tick


async def test_a_documents_kept_lines_are_the_lines_written_afresh(
    service: TableService, store: db.Store, clock: ManualClock, shoes: ShoeQueue
) -> None:
    shoes.add(f"Ts 9s 8d 9d 7c 9h Kd {SPARE}")
    await service.start(GUILD, CHANNEL, ALICE)
    await service.join(CHANNEL, BOB)
    for player in (ALICE, BOB):
        await service.bet(CHANNEL, player, "10")
    await tick(clock, 30)  # each hand stands at the timer: the round is settled
    snapshot = service.table_in(CHANNEL)
    assert snapshot is not None
    table = service.registry.tables[snapshot.table_id]
    assert table.last_results
    assert table.last_summary
    kept = durable.table_document(table)  # the lines' JSON as the settlement's write kept it
    data = json.loads(kept)
    for name in ("last_results", "last_summary", "shuffle_notice"):
        lines = getattr(table, name)
        assert data[name] == [line_data(line) for line in lines]
        assert [line_from(line) for line in data[name]] == list(lines)
    # New lines (the next round's), a new tuple: written anew, never the old ones.
    table.last_results = (*table.last_results[1:], table.last_results[0])
    moved = json.loads(durable.table_document(table))["last_results"]
    assert moved == [line_data(line) for line in table.last_results]
    assert moved != data["last_results"]
    await service.bet(CHANNEL, ALICE, "10")
    [stored] = await store.tables.open_tables()
    assert json.loads(stored.state_json)["last_results"] == moved
