"""Accounts, stakes, admin adjustments and the daily claim."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

import db
from tests.support.clocks import FakeClock

G, ALICE, BOB, ADMIN, CHANNEL = 10, 21, 22, 99, 30
BIG = 2**63 - 1  # the largest snowflake a signed BIGINT holds


async def _round(store: db.Store, guild_id: int = G, commitment: str = "c1") -> int:
    return await store.open_round(guild_id, CHANNEL, '{"decks": 6}', commitment)


async def test_a_new_player_gets_the_starting_chips_as_a_grant(store: db.Store) -> None:
    account = await store.ensure_account(G, ALICE)
    assert account == db.Account(G, ALICE, 1000, created=True)
    assert await store.ensure_account(G, ALICE) == db.Account(G, ALICE, 1000, created=False)
    [grant] = await store.reports.ledger(G, ALICE)
    assert (grant.kind, grant.delta, grant.balance_after) == ("grant", 1000, 1000)


async def test_the_starting_grant_follows_the_guild_settings(store: db.Store) -> None:
    await store.set_guild_settings(G, starting_chips=5000)
    assert (await store.ensure_account(G, ALICE)).balance == 5000
    assert (await store.ensure_account(G + 1, ALICE)).balance == 1000


async def test_a_guild_that_starts_players_at_zero_writes_no_grant(store: db.Store) -> None:
    await store.set_guild_settings(G, starting_chips=0)
    assert (await store.ensure_account(G, ALICE)).balance == 0
    assert await store.reports.ledger(G, ALICE) == []


async def test_balances_are_per_guild(store: db.Store) -> None:
    round_id = await _round(store)
    await store.stake(G, ALICE, 300, "bet", round_id)
    assert await store.balance(G, ALICE) == 700
    assert await store.balance(G + 1, ALICE) == 1000


async def test_the_largest_snowflakes_are_stored_exactly(store: db.Store) -> None:
    round_id = await store.open_round(BIG, BIG, "{}", "c-big")
    assert await store.stake(BIG, BIG, 1, "bet", round_id) == 999
    page = await store.reports.leaderboard(BIG, caller_id=BIG)
    assert page.entries == [db.LeaderboardEntry(1, BIG, 999)]


async def test_a_stake_is_taken_with_a_ledger_row(store: db.Store) -> None:
    round_id = await _round(store)
    assert await store.stake(G, ALICE, 100, "bet", round_id) == 900
    assert await store.stake(G, ALICE, 100, "double", round_id) == 800
    rows = await store.reports.ledger(G, ALICE)
    assert [(r.kind, r.delta, r.balance_after, r.round_id) for r in rows] == [
        ("double", -100, 800, round_id),
        ("bet", -100, 900, round_id),
        ("grant", 1000, 1000, None),
    ]
    record = await store.reports.get_round(round_id)
    assert record is not None
    assert record.staked == 200


async def test_a_stake_larger_than_the_balance_is_refused_and_writes_nothing(
    store: db.Store,
) -> None:
    round_id = await _round(store)
    await store.stake(G, ALICE, 900, "bet", round_id)
    with pytest.raises(db.InsufficientChips) as caught:
        await store.stake(G, ALICE, 101, "split", round_id)
    assert (caught.value.balance, caught.value.amount) == (100, 101)
    assert await store.balance(G, ALICE) == 100
    assert len(await store.reports.ledger(G, ALICE)) == 2
    record = await store.reports.get_round(round_id)
    assert record is not None
    assert record.staked == 900


async def test_a_new_players_first_stake_creates_the_account(store: db.Store) -> None:
    round_id = await _round(store)
    assert await store.stake(G, BOB, 1000, "bet", round_id) == 0


async def test_a_new_players_failed_stake_creates_nothing(store: db.Store) -> None:
    round_id = await _round(store)
    with pytest.raises(db.InsufficientChips):
        await store.stake(G, BOB, 1001, "bet", round_id)
    page = await store.reports.leaderboard(G)
    assert page.total_players == 0


async def test_a_stake_on_a_settled_round_is_refused(store: db.Store) -> None:
    round_id = await _round(store)
    await store.settle_round(round_id, {}, [], "{}")
    with pytest.raises(db.RoundClosed, match="settled"):
        await store.stake(G, ALICE, 10, "bet", round_id)
    with pytest.raises(db.UnknownRound):
        await store.stake(G, ALICE, 10, "bet", round_id + 1)
    assert await store.balance(G, ALICE) == 1000


async def test_a_stake_on_another_guilds_round_is_refused(store: db.Store) -> None:
    round_id = await _round(store, guild_id=G + 1)
    with pytest.raises(ValueError, match="another guild"):
        await store.stake(G, ALICE, 10, "bet", round_id)
    assert await store.balance(G, ALICE) == 1000


BAD_AMOUNTS: list[Any] = [0, -5, True, 1.0, 2.5, "10", None, db.MAX_BALANCE + 1]


@pytest.mark.parametrize("amount", BAD_AMOUNTS)
async def test_an_amount_that_is_not_a_positive_whole_number_is_refused(
    store: db.Store, amount: Any
) -> None:
    round_id = await _round(store)
    await store.ensure_account(G, ALICE)
    with pytest.raises(ValueError, match="amount"):
        await store.stake(G, ALICE, amount, "bet", round_id)
    with pytest.raises(ValueError, match="amount"):
        await store.adjust(G, ALICE, amount if amount != -5 else 0, ADMIN, "gift")
    assert [row.kind for row in await store.reports.ledger(G, ALICE)] == ["grant"]
    assert await store.balance(G, ALICE) == 1000


@pytest.mark.parametrize(
    ("field", "value"),
    [("guild_id", -1), ("guild_id", 2**63), ("user_id", True), ("kind", "payout")],
)
async def test_bad_ids_and_kinds_are_refused(store: db.Store, field: str, value: Any) -> None:
    round_id = await _round(store)
    args: dict[str, Any] = {"guild_id": G, "user_id": ALICE, "kind": "bet"} | {field: value}
    with pytest.raises(ValueError, match=field):
        await store.stake(args["guild_id"], args["user_id"], 10, args["kind"], round_id)


async def test_an_admin_grant_and_take_are_ledger_rows_naming_the_admin(store: db.Store) -> None:
    assert await store.adjust(G, ALICE, 500, ADMIN, "tournament prize") == 1500
    assert await store.adjust(G, ALICE, -1500, ADMIN, "reset") == 0
    rows = await store.reports.ledger(G, ALICE)
    assert [(r.kind, r.delta, r.actor_id, r.reason) for r in rows[:2]] == [
        ("admin", -1500, ADMIN, "reset"),
        ("admin", 500, ADMIN, "tournament prize"),
    ]


async def test_an_admin_take_larger_than_the_balance_is_refused_not_clamped(
    store: db.Store,
) -> None:
    with pytest.raises(db.InsufficientChips) as caught:
        await store.adjust(G, ALICE, -1001, ADMIN, "too much")
    assert (caught.value.balance, caught.value.amount) == (1000, 1001)
    assert await store.balance(G, ALICE) == 1000


async def test_no_balance_passes_the_ceiling(store: db.Store) -> None:
    await store.adjust(G, ALICE, db.MAX_BALANCE - 1000, ADMIN, "whale")
    assert await store.balance(G, ALICE) == db.MAX_BALANCE
    with pytest.raises(db.BalanceLimitExceeded):
        await store.adjust(G, ALICE, 1, ADMIN, "one more")
    with pytest.raises(db.BalanceLimitExceeded):
        await store.claim_daily(G, ALICE)
    assert await store.balance(G, ALICE) == db.MAX_BALANCE


async def test_the_daily_claim_opens_once_per_period(store: db.Store, clock: FakeClock) -> None:
    first = await store.claim_daily(G, ALICE)
    assert (first.claimed, first.amount, first.balance) == (True, 250, 1250)
    assert first.next_claim_at == clock.now + timedelta(days=1)
    clock.advance(hours=23, minutes=59)
    again = await store.claim_daily(G, ALICE)
    assert (again.claimed, again.amount, again.balance) == (False, 0, 1250)
    assert again.next_claim_at == first.next_claim_at
    clock.advance(minutes=1)
    third = await store.claim_daily(G, ALICE)
    assert (third.claimed, third.balance) == (True, 1500)


async def test_the_daily_amount_and_period_follow_the_guild_settings(
    store: db.Store, clock: FakeClock
) -> None:
    await store.set_guild_settings(G, daily_amount=50, daily_period_s=3600)
    first = await store.claim_daily(G, ALICE)
    assert (first.amount, first.next_claim_at) == (50, clock.now + timedelta(hours=1))
    clock.advance(minutes=59)
    assert not (await store.claim_daily(G, ALICE)).claimed
    clock.advance(minutes=1)
    assert (await store.claim_daily(G, ALICE)).claimed
