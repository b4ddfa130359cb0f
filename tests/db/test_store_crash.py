"""A process killed in the middle of a transaction leaves the books whole; recovery refunds once."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path

import db
from tests.db.invariants import check_invariants
from tests.support.clocks import FakeClock

G, ALICE, BOB, CHANNEL = 10, 21, 22, 30
ROOT = Path(__file__).resolve().parents[2]


async def _kill_when_inside(*args: str) -> None:
    """Start the worker, wait until it is inside its transaction, SIGKILL it."""
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.db.worker", *args, cwd=ROOT, stdout=asyncio.subprocess.PIPE
    )
    assert child.stdout is not None
    assert await child.stdout.readline() == b"inside\n"
    os.kill(child.pid, signal.SIGKILL)
    assert await child.wait() == -signal.SIGKILL


async def _round_with_bets(url: str, clock: FakeClock) -> int:
    async with db.open_store(url, clock=clock) as store:
        round_id = await store.open_round(G, CHANNEL, "{}", "shoe")
        await store.set_round_message(round_id, 555)
        await store.stake(G, ALICE, 100, "bet", round_id)
        await store.stake(G, BOB, 200, "bet", round_id)
    return round_id


async def test_a_process_killed_inside_a_stake_takes_no_chips(
    store_url: str, clock: FakeClock
) -> None:
    round_id = await _round_with_bets(store_url, clock)
    await _kill_when_inside("stake-then-die", store_url, str(G), str(ALICE), str(round_id), "300")
    await check_invariants(store_url, tables=False)
    async with db.open_store(store_url, clock=clock) as store:
        assert await store.balance(G, ALICE) == 900
        [recovered] = await store.recover()
        assert (recovered.round_id, recovered.message_id) == (round_id, 555)
        assert recovered.refunds == {ALICE: 100, BOB: 200}
        assert await store.recover() == []
        assert (await store.balance(G, ALICE), await store.balance(G, BOB)) == (1000, 1000)
    await check_invariants(store_url, tables=False)


async def test_a_process_killed_inside_a_settlement_pays_nothing_and_recovery_refunds_once(
    store_url: str, clock: FakeClock
) -> None:
    round_id = await _round_with_bets(store_url, clock)
    payouts = json.dumps({ALICE: 200, BOB: 400})
    hands = json.dumps(
        [
            {"user_id": ALICE, "outcome": "win", "wagered": 100, "payout": 200},
            {"user_id": BOB, "outcome": "win", "wagered": 200, "payout": 400},
        ]
    )
    await _kill_when_inside("settle-then-die", store_url, str(round_id), payouts, hands)
    await check_invariants(store_url, tables=False)
    async with db.open_store(store_url, clock=clock) as store:
        record = await store.reports.get_round(round_id)
        assert record is not None
        assert (record.status, record.paid) == ("open", 0)
        assert (await store.balance(G, ALICE), await store.balance(G, BOB)) == (900, 800)
        [recovered] = await store.recover()
        assert recovered.refunds == {ALICE: 100, BOB: 200}
    async with db.open_store(store_url, clock=clock) as store:
        assert await store.recover() == []
        assert (await store.balance(G, ALICE), await store.balance(G, BOB)) == (1000, 1000)
    await check_invariants(store_url, tables=False)
