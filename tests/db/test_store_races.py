"""Races: concurrent stakes never overdraw, concurrent settlements pay once."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

import db
from db import HandResult
from db.ops import chips
from db.statements import Op

G, ALICE, BOB, CHANNEL = 10, 21, 22, 30
ROOT = Path(__file__).resolve().parents[2]


async def _try_stake(store: db.Store, amount: int, round_id: int) -> bool:
    try:
        await store.stake(G, ALICE, amount, "bet", round_id)
    except db.InsufficientChips:
        return False
    return True


async def test_200_concurrent_stakes_take_exactly_what_the_balance_covers(
    store: db.Store,
) -> None:
    round_id = await store.open_round(G, CHANNEL, "{}", "shoe")
    taken = await asyncio.gather(*(_try_stake(store, 7, round_id) for _ in range(200)))
    assert sum(taken) == 1000 // 7
    assert await store.balance(G, ALICE) == 1000 % 7


async def test_two_processes_staking_on_one_account_take_exactly_what_it_covers(
    store: db.Store, store_url: str
) -> None:
    round_id = await store.open_round(G, CHANNEL, "{}", "shoe")
    await store.ensure_account(G, ALICE)
    workers = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.db.worker",
            "stakes",
            store_url,
            str(G),
            str(ALICE),
            str(round_id),
            "7",
            "100",
            cwd=ROOT,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        for _ in range(2)
    ]
    for worker in workers:
        assert worker.stdout is not None
        assert await worker.stdout.readline() == b"ready\n"
    for worker in workers:  # both start together, each with 100 stakes in flight
        assert worker.stdin is not None
        worker.stdin.write(b"go\n")
        await worker.stdin.drain()
    outputs = [await worker.communicate() for worker in workers]
    assert [worker.returncode for worker in workers] == [0, 0]
    taken = [int(out.decode()) for out, _ in outputs]
    assert sum(taken) == 1000 // 7
    assert await store.balance(G, ALICE) == 1000 % 7


async def test_50_concurrent_settlements_of_one_round_pay_once(store: db.Store) -> None:
    round_id = await store.open_round(G, CHANNEL, "{}", "shoe")
    await store.stake(G, ALICE, 100, "bet", round_id)
    await store.stake(G, BOB, 100, "bet", round_id)
    hands = [HandResult(ALICE, "win", 100, 200), HandResult(BOB, "push", 100, 100)]
    results = await asyncio.gather(
        *(store.settle_round(round_id, {ALICE: 200, BOB: 100}, hands, "{}") for _ in range(50))
    )
    assert sum(not r.already_settled for r in results) == 1
    assert (await store.balance(G, ALICE), await store.balance(G, BOB)) == (1100, 1000)
    assert (await store.reports.stats(G, ALICE)).hands == 1


async def test_settling_and_voiding_at_once_closes_the_round_one_way(store: db.Store) -> None:
    round_id = await store.open_round(G, CHANNEL, "{}", "shoe")
    await store.stake(G, ALICE, 100, "bet", round_id)
    hands = [HandResult(ALICE, "win", 100, 200)]
    settle, void = await asyncio.gather(
        store.settle_round(round_id, {ALICE: 200}, hands, "{}"),
        store.void_round(round_id, "restart"),
    )
    assert [settle.already_settled, void.already_closed].count(False) == 1
    expected = 1100 if not settle.already_settled else 1000
    assert await store.balance(G, ALICE) == expected


async def test_stakes_racing_a_void_are_refunded_or_refused_never_lost(store: db.Store) -> None:
    round_id = await store.open_round(G, CHANNEL, "{}", "shoe")
    await store.stake(G, ALICE, 10, "bet", round_id)

    async def late_stake() -> str:
        try:
            await store.stake(G, ALICE, 10, "double", round_id)
        except db.RoundClosed:
            return "refused"
        return "taken"

    stakes = [asyncio.ensure_future(late_stake()) for _ in range(20)]
    # Yield once so that stakes are in flight when the void is sent; the
    # assertions below hold whichever order the database serialises them in.
    await asyncio.sleep(0)
    void = await store.void_round(round_id, "table closed")
    outcomes = await asyncio.gather(*stakes)
    assert set(outcomes) <= {"taken", "refused"}
    assert void.refunds == {ALICE: 10 + 10 * outcomes.count("taken")}
    assert await store.balance(G, ALICE) == 1000


async def test_concurrent_daily_claims_pay_once(store: db.Store) -> None:
    results = await asyncio.gather(*(store.claim_daily(G, ALICE) for _ in range(30)))
    assert sum(r.claimed for r in results) == 1
    assert await store.balance(G, ALICE) == 1250


async def test_a_caller_cancelled_mid_transaction_leaves_it_undone(
    store: db.Store,
) -> None:
    """The transaction is rolled back whole, and the next one runs (the connection is not
    left inside a transaction)."""
    await store.ensure_account(G, ALICE)
    caller: asyncio.Task[int]

    def two_grants() -> Op[int]:
        yield from chips.adjust(G, ALICE, 100, BOB, "first half", 0)
        caller.cancel()  # the caller stops waiting between the two statements' trips
        return (yield from chips.adjust(G, ALICE, 50, BOB, "second half", 0))

    caller = asyncio.ensure_future(store._run(two_grants, write=True))
    with pytest.raises(asyncio.CancelledError):
        await caller
    assert await store.balance(G, ALICE) == 1000
    assert [entry.kind for entry in await store.reports.ledger(G, ALICE)] == ["grant"]
    await store.adjust(G, ALICE, 1, BOB, "the next transaction")
    assert await store.balance(G, ALICE) == 1001
