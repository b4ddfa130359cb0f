"""The property of the automatic transfers: whatever mix of seats taken (a buy-in), seats
left and idle times (a cash-out of every chip), with error answers, 5xx answers (the
change applied or not), 429s and changes by UnbelievaBoat's own commands, a member's
UnbelievaBoat cash plus their chips (at 1:1) changes only by what others changed, and no
transfer is left open."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import db
from bot.bridge.auto import AutoTransfers, Move, Outcome
from bot.bridge.client import UnbClient
from bot.bridge.transfers import Bridge
from bot.engine import Rules
from bot.server_settings import ServerSettings
from bot.tables.flow import fresh_shoe
from bot.tables.table import Table, Timers
from fakediscord.clock import ManualClock
from fakeunb import FakeUnbelievaBoat, Fault
from tests.bridge.conftest import ADMIN, GUILD, TOKEN
from tests.db.invariants import check_invariants

ALICE = 222_222_222_222_222_222
FAULTS = [None, Fault.ERROR, Fault.SERVER_ERROR_AFTER, Fault.SERVER_ERROR_BEFORE]
STEPS = st.lists(
    st.tuples(
        st.sampled_from(["sit", "leave", "idle", "theirs"]),
        st.integers(1, 400),
        st.sampled_from(FAULTS),
        st.booleans(),  # a 429 first
    ),
    max_size=10,
)


def cash_table() -> Table:
    rules = Rules()
    return Table(
        table_id="t1",
        guild_id=GUILD,
        channel_id=1,
        host_id=ALICE,
        preset="vegas-shoe",
        rules=rules,
        timers=Timers(30, 30, 300),
        shoe=fresh_shoe(rules),
        previous_shoe=None,
        previous_decks=None,
        idle_since=0.0,
    )


async def play(steps: list[tuple[str, int, Fault | None, bool]], folder: Path) -> None:
    url = f"sqlite:///{folder / 'chips.sqlite3'}"

    async def report(guild_id: int, user_id: int, move: Move, outcome: Outcome) -> None:
        return None

    async with FakeUnbelievaBoat() as unb, db.open_store(url) as store:
        unb.authorize(TOKEN.reveal(), GUILD)
        unb.set_balance(GUILD, ALICE, cash=500)
        clock = ManualClock()
        client = UnbClient(unb.url, clock, timeout=5)
        bridge = Bridge(store, client)
        await bridge.connect(GUILD, TOKEN, ADMIN)
        server = ServerSettings(store)
        await server.write(
            GUILD, bridge_buy_in=300, bridge_cash_out_on_leave=1, bridge_idle_cash_out_min=1
        )
        auto = AutoTransfers(
            bridge,
            server,
            clock,
            seated=lambda guild, user: False,
            at_stake=lambda guild, user: False,
            report=report,
            refused=str,
        )
        table, expected = cash_table(), 500
        for kind, amount, fault, limited in steps:
            if kind == "theirs":  # UnbelievaBoat's own /work or /rob, between our calls
                unb.set_balance(GUILD, ALICE, cash=unb.cash(GUILD, ALICE) + amount - 200)
                expected += amount - 200
                continue
            if fault is not None:
                unb.fail_next(fault)
            if limited:
                unb.rate_limit_next(0)
            if kind == "sit":
                await auto.seat_taken(table, ALICE)
            elif kind == "leave":
                auto.seat_left(table, ALICE)
            else:
                clock.advance(61)
                await auto.cash_out_idle([GUILD])
            await auto.drain()
            assert await store.bridge.open_transfers(GUILD) == []
            assert unb.cash(GUILD, ALICE) + await store.balance(GUILD, ALICE) == expected
        await client.close()
    await check_invariants(url, tables=False)


@settings(max_examples=20, deadline=None)
@given(steps=STEPS)
def test_both_books_add_up_whatever_the_automatic_transfers_meet(
    steps: list[tuple[str, int, Fault | None, bool]],
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(play(steps, Path(folder)))
