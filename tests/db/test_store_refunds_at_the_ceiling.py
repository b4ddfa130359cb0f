"""A refund at the chip ceiling: paid up to it and the rest recorded (the round closes, as
a settlement does), and a grant that counts the chips a player has at stake."""

from __future__ import annotations

import pytest

import db
from db import HandResult

G, ALICE, ADMIN, CHANNEL = 10, 21, 99, 30
START = 1000


async def _open_round(store: db.Store, user_id: int, amount: int) -> int:
    round_id = await store.open_round(G, CHANNEL, '{"preset": "vegas-shoe"}', "shoe-1")
    await store.stake(G, user_id, amount, "bet", round_id)
    return round_id


async def _stake_then_reach(store: db.Store, balance: int) -> int:
    """Alice, a million below the ceiling, stakes 1,000 in a round; then chips reach her
    from another table (a win) until her balance is ``balance``: the round's id."""
    await store.adjust(G, ALICE, db.MAX_BALANCE - 1_000_000 - START, ADMIN, "high roller")
    stopped = await _open_round(store, ALICE, 1000)
    stake = balance - (db.MAX_BALANCE - 1_001_000)
    other = await _open_round(store, ALICE, stake)
    await store.settle_round(
        other, {ALICE: 2 * stake}, [HandResult(ALICE, "win", stake, 2 * stake)], "{}"
    )
    assert await store.balance(G, ALICE) == balance
    return stopped


async def test_a_refund_past_the_ceiling_is_paid_up_to_it_and_the_round_closes(
    store: db.Store,
) -> None:
    limit = db.MAX_BALANCE
    stopped = await _stake_then_reach(store, limit - 500)
    result = await store.void_round(stopped, "stopped")
    assert (result.refunds, result.unpaid, result.status) == ({ALICE: 500}, {ALICE: 500}, "void")
    assert await store.balance(G, ALICE) == limit
    assert (await store.reports.ledger(G, ALICE))[0].delta == 500
    record = await store.reports.get_round(stopped)
    assert record is not None
    assert record.status == "void"


async def test_a_refund_at_the_ceiling_pays_nothing_and_still_closes_the_round(
    store: db.Store,
) -> None:
    limit = db.MAX_BALANCE
    stopped = await _stake_then_reach(store, limit)
    result = await store.void_round(stopped, "stopped")
    assert (result.refunds, result.unpaid) == ({}, {ALICE: 1000})
    assert await store.balance(G, ALICE) == limit


async def test_a_grant_counts_the_chips_at_stake_in_open_rounds(store: db.Store) -> None:
    limit = db.MAX_BALANCE
    await store.adjust(G, ALICE, limit - 1_000_000 - START, ADMIN, "high roller")
    await _open_round(store, ALICE, 1000)
    # Her balance is 1,001,000 below the ceiling, 1,000 of it at stake: a refund must fit.
    with pytest.raises(db.BalanceLimitExceeded):
        await store.adjust(G, ALICE, 1_001_000, ADMIN, "to the brim")
    assert await store.balance(G, ALICE) == limit - 1_001_000
    assert await store.adjust(G, ALICE, 1_000_000, ADMIN, "up to the stake") == limit - 1000
