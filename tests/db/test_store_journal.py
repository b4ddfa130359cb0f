"""The rounds' journals: appends of many tables at once share a transaction (a group commit),
each table's rows keep their order, and one caller's bad row fails only that caller."""

from __future__ import annotations

import asyncio

import pytest

import db
from tests.support.journal_rows import Transactions, row

G, CHANNEL = 10, 30


async def test_appends_of_many_tables_at_once_share_a_transaction_in_order(
    store: db.Store,
) -> None:
    rounds = [await store.open_round(G, CHANNEL + n, "{}", f"shoe-{n}") for n in range(6)]
    seen = Transactions()
    store.observer = seen

    async def table(round_id: int) -> None:
        for action in ("hit", "hit", "stand"):  # one at a time, as under a table's lock
            await store.tables.append_actions([row(round_id, "p", action)])

    await asyncio.gather(*(table(round_id) for round_id in rounds))
    # 18 appends: the first goes alone, the other tables' join the next trip, and so on.
    assert sum(seen.count.values()) < 18
    for round_id in rounds:
        journal = await store.tables.round_actions(round_id)
        assert [a.action for a in journal] == ["hit", "hit", "stand"]
        await store.void_round(round_id, "test over")


async def test_a_bad_append_fails_alone_and_the_others_are_written(store: db.Store) -> None:
    good = [await store.open_round(G, CHANNEL + n, "{}", f"shoe-{n}") for n in range(3)]
    missing_round = max(good) + 1000  # no such round: the journal refuses the row
    first = asyncio.ensure_future(store.tables.append_actions([row(good[0], "p", "hit")]))
    await asyncio.sleep(0)  # the first trip is on its way; the next three queue together
    rest = await asyncio.gather(
        store.tables.append_actions([row(good[1], "p", "stand")]),
        store.tables.append_actions([row(missing_round, "p", "hit")]),
        store.tables.append_actions([row(good[2], "p", "double")]),
        return_exceptions=True,
    )
    await first
    assert rest[0] is None
    assert rest[2] is None
    assert isinstance(rest[1], Exception), rest[1]
    for round_id, action in zip(good, ("hit", "stand", "double"), strict=True):
        assert [a.action for a in await store.tables.round_actions(round_id)] == [action]
        await store.void_round(round_id, "test over")


async def test_an_empty_append_writes_nothing(store: db.Store) -> None:
    seen = Transactions()
    store.observer = seen
    await store.tables.append_actions([])
    assert seen.count == {}


@pytest.mark.parametrize("cancelled", [0, 1])
async def test_a_caller_that_stops_waiting_does_not_stop_the_others(
    store: db.Store, cancelled: int
) -> None:
    rounds = [await store.open_round(G, CHANNEL + n, "{}", f"shoe-{n}") for n in range(2)]
    appends = [
        asyncio.ensure_future(store.tables.append_actions([row(r, "p", "hit")])) for r in rounds
    ]
    await asyncio.sleep(0)
    appends[cancelled].cancel()
    await asyncio.gather(*appends, return_exceptions=True)
    other = appends[1 - cancelled]
    assert not other.cancelled()
    assert other.exception() is None
    assert [a.action for a in await store.tables.round_actions(rounds[1 - cancelled])] == ["hit"]
    for round_id in rounds:
        await store.void_round(round_id, "test over")
