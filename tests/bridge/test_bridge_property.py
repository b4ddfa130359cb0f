"""The property of the bridge: whatever mix of cash-ins, cash-outs, error answers, 5xx
answers (the change applied or not), 429s and changes by UnbelievaBoat's own commands,
a member's UnbelievaBoat cash plus their chips (at 1:1) changes only by what others
changed, and never a transfer is left open or sent twice."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import db
from bot.bridge.client import UnbClient
from bot.bridge.transfers import Bridge, BridgeRefusal
from fakediscord.clock import ManualClock
from fakeunb import FakeUnbelievaBoat, Fault
from tests.bridge.conftest import ADMIN, GUILD, TOKEN
from tests.db.invariants import check_invariants

ALICE = 222_222_222_222_222_222
FAULTS = [None, Fault.ERROR, Fault.SERVER_ERROR_AFTER, Fault.SERVER_ERROR_BEFORE]
STEPS = st.lists(
    st.tuples(
        st.sampled_from(["cash_in", "cash_out", "theirs"]),
        st.integers(1, 400),
        st.sampled_from(FAULTS),
        st.booleans(),  # a 429 first
    ),
    max_size=12,
)


async def play(steps: list[tuple[str, int, Fault | None, bool]], folder: Path) -> None:
    url = f"sqlite:///{folder / 'chips.sqlite3'}"
    async with FakeUnbelievaBoat() as unb, db.open_store(url) as store:
        unb.authorize(TOKEN.reveal(), GUILD)
        unb.set_balance(GUILD, ALICE, cash=500)
        client = UnbClient(unb.url, ManualClock(), timeout=5)
        bridge = Bridge(store, client)
        await bridge.connect(GUILD, TOKEN, ADMIN)
        expected = 500
        for kind, amount, fault, limited in steps:
            if kind == "theirs":  # UnbelievaBoat's own /work or /rob, between our calls
                unb.set_balance(GUILD, ALICE, cash=unb.cash(GUILD, ALICE) + amount - 200)
                expected += amount - 200
                continue
            if fault is not None:
                unb.fail_next(fault)
            if limited:
                unb.rate_limit_next(0)
            sent = len(unb.changes())
            move = bridge.cash_in if kind == "cash_in" else bridge.cash_out
            try:
                result = await move(GUILD, ALICE, amount)
            except (BridgeRefusal, db.InsufficientChips):
                assert len(unb.changes()) == sent  # refused before any change was sent
            else:
                assert result.outcome in ("done", "rolled_back")
                # One change, sent again only after a 429 (which applies nothing).
                assert len(unb.changes()) - sent <= 1 + limited
            assert await store.bridge.open_transfers(GUILD) == []
            assert unb.cash(GUILD, ALICE) + await store.balance(GUILD, ALICE) == expected
        await client.close()
    await check_invariants(url, tables=False)


@settings(max_examples=25)
@given(steps=STEPS)
def test_both_books_add_up_whatever_happens(
    steps: list[tuple[str, int, Fault | None, bool]],
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(play(steps, Path(folder)))
