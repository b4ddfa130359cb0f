"""A bot process SIGKILLed with a transfer pending in our books (its change held by
UnbelievaBoat, applied or not) leaves it pending; the next start reconciles it from the
member's cash, and the two books add up."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest

import db
from bot.bridge.client import UnbClient
from bot.bridge.transfers import Bridge
from fakeunb import FakeUnbelievaBoat, Fault
from tests.bridge.conftest import ADMIN, GUILD, TOKEN
from tests.db.invariants import check_invariants

ALICE = 222_222_222_222_222_222
ROOT = Path(__file__).resolve().parents[2]


async def kill_while_held(unb: FakeUnbelievaBoat, *args: str) -> None:
    """Run the worker's transfer; SIGKILL it once the fake holds its change."""
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.bridge.worker", *args, cwd=ROOT
    )
    held = asyncio.ensure_future(unb.wait_held())
    exited = asyncio.ensure_future(child.wait())
    await asyncio.wait({held, exited}, timeout=60, return_when=asyncio.FIRST_COMPLETED)
    assert held.done(), f"the worker ended first ({child.returncode})"
    os.kill(child.pid, signal.SIGKILL)
    assert await exited == -signal.SIGKILL


@pytest.mark.parametrize("kind", ["cash_in", "cash_out"])
@pytest.mark.parametrize(
    ("fault", "outcome"), [(Fault.TIMEOUT_BEFORE, "rolled_back"), (Fault.TIMEOUT_AFTER, "done")]
)
async def test_a_transfer_killed_mid_call_is_reconciled_at_the_next_start(
    store_url: str,
    unb: FakeUnbelievaBoat,
    client: UnbClient,
    kind: str,
    fault: Fault,
    outcome: str,
) -> None:
    unb.set_balance(GUILD, ALICE, cash=300)
    async with db.open_store(store_url) as store:
        bridge = Bridge(store, client)
        await bridge.connect(GUILD, TOKEN, ADMIN)
        await bridge.cash_in(GUILD, ALICE, 100)
    unb.fail_next(fault)
    await kill_while_held(unb, kind, store_url, unb.url, str(GUILD), str(ALICE), "60")
    async with db.open_store(store_url) as store:
        [pending] = await store.bridge.open_transfers(GUILD)
        assert (pending.kind, pending.status) == (kind, "pending")
        [result] = await Bridge(store, client).reconcile()
        assert (result.transfer.id, result.outcome) == (pending.id, outcome)
        assert unb.cash(GUILD, ALICE) + await store.balance(GUILD, ALICE) == 300
        assert await store.bridge.open_transfers(GUILD) == []
    await check_invariants(store_url, tables=False)
