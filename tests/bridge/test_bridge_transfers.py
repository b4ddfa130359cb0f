"""Moving value between UnbelievaBoat's cash and the bot's chips: each transfer pending
in our books before the call, closed by the answer, and an unknown outcome told by
reading the cash, never by sending again. In every case the two books add up."""

from __future__ import annotations

import asyncio

import pytest

import db
from bot.bridge.client import Token, UnbClient
from bot.bridge.transfers import (
    Bridge,
    NoEconomyPermission,
    NotBridged,
    NotEnoughCash,
    OffRate,
    OverLossLimit,
    TransferOpen,
    Unavailable,
)
from fakeunb import FakeUnbelievaBoat, Fault
from tests.bridge.conftest import ADMIN, GUILD, TOKEN

ALICE, BOB = 222_222_222_222_222_222, 333_333_333_333_333_333


async def books(store: db.Store, unb: FakeUnbelievaBoat, user_id: int = ALICE) -> int:
    """The member's value in both books at 1:1: UnbelievaBoat cash plus bot chips."""
    return unb.cash(GUILD, user_id) + await store.balance(GUILD, user_id)


async def test_a_new_player_on_a_bridged_server_starts_with_no_chips(
    store: db.Store, bridge: Bridge
) -> None:
    assert await store.balance(GUILD, ALICE) == 0
    assert await store.balance(GUILD + 1, ALICE) > 0


async def test_cash_in_turns_cash_into_chips(
    store: db.Store, unb: FakeUnbelievaBoat, bridge: Bridge
) -> None:
    unb.set_balance(GUILD, ALICE, cash=500)
    result = await bridge.cash_in(GUILD, ALICE, 200)
    assert (result.outcome, result.chips) == ("done", 200)
    assert unb.cash(GUILD, ALICE) == 300
    assert await store.balance(GUILD, ALICE) == 200
    assert result.transfer.cash_after == 300
    assert unb.changes()[-1].body == {"cash": -200, "reason": "Blackjack table chips"}


async def test_cash_out_turns_chips_into_cash(
    store: db.Store, unb: FakeUnbelievaBoat, bridge: Bridge
) -> None:
    unb.set_balance(GUILD, ALICE, cash=500)
    await bridge.cash_in(GUILD, ALICE, 500)
    result = await bridge.cash_out(GUILD, ALICE, 120)
    assert result.outcome == "done"
    assert unb.cash(GUILD, ALICE) == 120
    assert await store.balance(GUILD, ALICE) == 380


async def test_a_cash_in_over_the_cash_is_refused_and_changes_nothing(
    store: db.Store, unb: FakeUnbelievaBoat, bridge: Bridge
) -> None:
    unb.set_balance(GUILD, ALICE, cash=99)
    with pytest.raises(NotEnoughCash) as refused:
        await bridge.cash_in(GUILD, ALICE, 100)
    assert refused.value.cash == 99
    assert unb.changes() == []
    assert await store.bridge.open_transfers(GUILD) == []
    assert await books(store, unb) == 99


async def test_a_cash_out_over_the_chips_is_refused_and_changes_nothing(
    store: db.Store, unb: FakeUnbelievaBoat, bridge: Bridge
) -> None:
    unb.set_balance(GUILD, ALICE, cash=50)
    await bridge.cash_in(GUILD, ALICE, 50)
    with pytest.raises(db.InsufficientChips):
        await bridge.cash_out(GUILD, ALICE, 51)
    assert len(unb.changes()) == 1
    assert await store.bridge.open_transfers(GUILD) == []
    assert await books(store, unb) == 50


async def test_a_server_without_a_bridge_is_refused(store: db.Store, client: UnbClient) -> None:
    with pytest.raises(NotBridged):
        await Bridge(store, client).cash_in(GUILD, ALICE, 10)


@pytest.mark.parametrize("kind", ["cash_in", "cash_out"])
async def test_an_error_answer_is_rolled_back(
    store: db.Store, unb: FakeUnbelievaBoat, bridge: Bridge, kind: str
) -> None:
    unb.set_balance(GUILD, ALICE, cash=300)
    await bridge.cash_in(GUILD, ALICE, 100)
    unb.fail_next(Fault.ERROR)
    move = bridge.cash_in if kind == "cash_in" else bridge.cash_out
    result = await move(GUILD, ALICE, 60)
    assert result.outcome == "rolled_back"
    assert (unb.cash(GUILD, ALICE), await store.balance(GUILD, ALICE)) == (200, 100)


@pytest.mark.parametrize("kind", ["cash_in", "cash_out"])
@pytest.mark.parametrize(
    ("fault", "outcome"), [(Fault.TIMEOUT_AFTER, "done"), (Fault.TIMEOUT_BEFORE, "rolled_back")]
)
async def test_a_timeout_is_reconciled_by_reading_the_cash_never_by_sending_again(
    store: db.Store,
    unb: FakeUnbelievaBoat,
    bridge: Bridge,
    kind: str,
    fault: Fault,
    outcome: str,
) -> None:
    unb.set_balance(GUILD, ALICE, cash=300)
    await bridge.cash_in(GUILD, ALICE, 100)
    unb.fail_next(fault)
    move = bridge.cash_in if kind == "cash_in" else bridge.cash_out
    result = await move(GUILD, ALICE, 60)
    assert result.outcome == outcome
    assert len(unb.changes()) == 2
    assert await books(store, unb) == 300
    moved = 60 if outcome == "done" else 0
    sign = 1 if kind == "cash_in" else -1
    assert await store.balance(GUILD, ALICE) == 100 + sign * moved


@pytest.mark.parametrize("applied", [True, False])
async def test_a_change_by_someone_else_meanwhile_waits_for_an_admin(
    store: db.Store, unb: FakeUnbelievaBoat, bridge: Bridge, applied: bool
) -> None:
    unb.set_balance(GUILD, ALICE, cash=300)
    unb.fail_next(Fault.TIMEOUT_AFTER if applied else Fault.TIMEOUT_BEFORE)
    cash_in = asyncio.create_task(bridge.cash_in(GUILD, ALICE, 100))
    await unb.wait_held()
    unb.set_balance(GUILD, ALICE, cash=unb.cash(GUILD, ALICE) + 7)  # a /work payout
    result = await cash_in
    assert result.outcome == "held"
    with pytest.raises(TransferOpen):
        await bridge.cash_in(GUILD, ALICE, 10)
    assert [t.id for t in await store.bridge.open_transfers(GUILD)] == [result.transfer.id]
    settled = await bridge.settle(result.transfer.id, applied, ADMIN)
    assert settled.outcome == ("done" if applied else "rolled_back")
    assert settled.transfer.settled_by == ADMIN
    assert await books(store, unb) == 307
    with pytest.raises(db.TransferClosed):
        await bridge.settle(result.transfer.id, applied, ADMIN)
    assert await books(store, unb) == 307


@pytest.mark.parametrize("kind", ["cash_in", "cash_out"])
@pytest.mark.parametrize("called", [False, True])
async def test_a_transfer_cut_short_is_reconciled_at_the_next_start(
    store_url: str, unb: FakeUnbelievaBoat, client: UnbClient, kind: str, called: bool
) -> None:
    """A kill after the pending row (and before or after the call) leaves the row pending;
    the next start's reconciliation tells its outcome from the cash."""
    unb.set_balance(GUILD, ALICE, cash=300)
    async with db.open_store(store_url) as store:
        await Bridge(store, client).connect(GUILD, TOKEN, ADMIN)
        await Bridge(store, client).cash_in(GUILD, ALICE, 100)
        sign = -1 if kind == "cash_in" else 1
        pending = await store.bridge.begin(GUILD, ALICE, kind, 60, 60, unb.cash(GUILD, ALICE))
        if called:
            await client.change_cash(TOKEN, GUILD, ALICE, sign * 60, "Blackjack table chips")
    async with db.open_store(store_url) as store:
        results = await Bridge(store, client).reconcile()
        assert [(r.transfer.id, r.outcome) for r in results] == [
            (pending.id, "done" if called else "rolled_back")
        ]
        assert await books(store, unb) == 300
        assert await store.bridge.open_transfers() == []


async def test_connect_checks_the_token_with_the_servers_permission(
    store: db.Store, unb: FakeUnbelievaBoat, client: UnbClient
) -> None:
    bridge = Bridge(store, client)
    with pytest.raises(Unavailable):
        await bridge.connect(GUILD, Token("wrong"), ADMIN)
    with pytest.raises(Unavailable):
        await bridge.connect(GUILD + 1, TOKEN, ADMIN)
    unb.authorize(TOKEN.reveal(), GUILD + 1, permissions=2)
    with pytest.raises(NoEconomyPermission):
        await bridge.connect(GUILD + 1, TOKEN, ADMIN)
    assert await store.bridge.bridge(GUILD) is None
    await bridge.connect(GUILD, TOKEN, ADMIN)
    stored = await store.bridge.bridge(GUILD)
    assert stored is not None
    assert stored.token == TOKEN.reveal()
    assert TOKEN.reveal() not in repr(stored)


async def test_a_429_is_waited_out_in_the_servers_queue(
    store: db.Store, unb: FakeUnbelievaBoat, bridge: Bridge, client: UnbClient
) -> None:
    unb.set_balance(GUILD, ALICE, cash=100)
    unb.rate_limit_next(1500)  # the balance read before the change
    clock = client.clock
    cash_in = asyncio.create_task(bridge.cash_in(GUILD, ALICE, 40))
    await clock.wait_for_sleepers()
    assert clock.next_wakeup() == clock.now() + 1.5
    clock.advance(1.5)
    result = await cash_in
    assert result.outcome == "done"
    assert (unb.cash(GUILD, ALICE), await store.balance(GUILD, ALICE)) == (60, 40)


async def test_a_pending_transfer_is_checked_again_before_the_players_next_one(
    store: db.Store, unb: FakeUnbelievaBoat, bridge: Bridge
) -> None:
    unb.set_balance(GUILD, ALICE, cash=300)
    left = await store.bridge.begin(GUILD, ALICE, "cash_in", 50, 50, 300)  # never sent
    result = await bridge.cash_in(GUILD, ALICE, 100)
    assert result.outcome == "done"
    earlier = await store.bridge.transfer(left.id)
    assert earlier is not None
    assert earlier.status == "rolled_back"
    assert (unb.cash(GUILD, ALICE), await store.balance(GUILD, ALICE)) == (200, 100)


async def test_the_admins_rate_converts_both_ways_in_whole_steps(
    store: db.Store, unb: FakeUnbelievaBoat, client: UnbClient
) -> None:
    bridge = Bridge(store, client)
    await bridge.connect(GUILD, TOKEN, ADMIN, rate_cash=10, rate_chips=3)  # 3 chips for 10 cash
    unb.set_balance(GUILD, ALICE, cash=100)
    with pytest.raises(OffRate):
        await bridge.cash_in(GUILD, ALICE, 25)
    assert (await bridge.cash_in(GUILD, ALICE, 50)).chips == 15
    with pytest.raises(OffRate):
        await bridge.cash_out(GUILD, ALICE, 7)
    result = await bridge.cash_out(GUILD, ALICE, 6)
    assert (result.transfer.cash, result.chips) == (20, 9)
    assert unb.cash(GUILD, ALICE) == 70
    assert len(unb.changes()) == 2


async def test_cash_ins_count_against_the_players_daily_loss_limit(
    store: db.Store, unb: FakeUnbelievaBoat, bridge: Bridge
) -> None:
    unb.set_balance(GUILD, ALICE, cash=1_000)
    await store.play.set_limits(ALICE, {"daily_loss": 150})
    await bridge.cash_in(GUILD, ALICE, 100)
    asked = len(unb.requests)
    with pytest.raises(OverLossLimit) as over:
        await bridge.cash_in(GUILD, ALICE, 60)
    assert (over.value.limit, over.value.bought) == (150, 100)
    assert len(unb.requests) == asked  # refused before UnbelievaBoat is asked anything
    assert len(unb.changes()) == 1
    assert (await bridge.cash_in(GUILD, ALICE, 50)).outcome == "done"
    assert (unb.cash(GUILD, ALICE), await store.balance(GUILD, ALICE)) == (850, 150)


async def test_a_cash_in_past_the_chip_ceiling_is_refused_before_anything_moves(
    store: db.Store, unb: FakeUnbelievaBoat, client: UnbClient
) -> None:
    bridge = Bridge(store, client)
    await bridge.connect(GUILD, TOKEN, ADMIN, rate_cash=1, rate_chips=1_000_000)
    unb.set_balance(GUILD, ALICE, cash=2 * 10**9)
    with pytest.raises(db.BalanceLimitExceeded):
        await bridge.cash_in(GUILD, ALICE, 10**9 + 1)
    assert unb.changes() == []
    assert await store.bridge.open_transfers(GUILD) == []
    assert (await bridge.cash_in(GUILD, ALICE, 10**9)).chips == db.MAX_BALANCE
