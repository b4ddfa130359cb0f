"""Random sequences of every money operation keep the books exact, on both backends.

A hypothesis state machine drives a real store next to a plain Python model of
the balances; after every step the store's balances must equal the model's,
and after every run the database-wide invariants are checked.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Coroutine
from datetime import datetime, timedelta
from typing import Any, TypeVar

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

import db
from db import HandResult
from tests.db.invariants import check_invariants
from tests.support.clocks import FakeClock

T = TypeVar("T")
USERS = st.sampled_from([1, 2, 3, 4])
KINDS = st.sampled_from(["bet", "double", "split", "insurance"])
START, DAILY = 1000, 250


async def attempt(call: Coroutine[Any, Any, T]) -> T | db.StoreError:
    """The call's result, or the store error it raised."""
    try:
        return await call
    except db.StoreError as error:
        return error


class Economy(RuleBasedStateMachine):
    """One guild's economy; each run gets a fresh guild in a shared store."""

    runner: asyncio.Runner
    store: db.Store
    clock: FakeClock
    guilds: itertools.count[int]

    def __init__(self) -> None:
        super().__init__()
        self.guild = next(self.guilds)
        self.balances: dict[int, int] = {}
        self.open_rounds: dict[int, dict[int, int]] = {}
        self.closed_rounds: list[int] = []
        self.last_daily: dict[int, datetime] = {}

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return self.runner.run(coroutine)

    def _account(self, user: int) -> int:
        return self.balances.get(user, START)

    @rule(user=USERS)
    def join(self, user: int) -> None:
        account = self.run(self.store.ensure_account(self.guild, user))
        assert account.created == (user not in self.balances)
        self.balances.setdefault(user, START)

    @precondition(lambda self: len(self.open_rounds) < 3)
    @rule()
    def open_round(self) -> None:
        round_id = self.run(self.store.open_round(self.guild, 7, "{}", f"shoe-{self.guild}"))
        self.open_rounds[round_id] = {}

    @precondition(lambda self: self.open_rounds)
    @rule(data=st.data(), user=USERS, amount=st.integers(1, 1500), kind=KINDS)
    def stake(self, data: st.DataObject, user: int, amount: int, kind: str) -> None:
        round_id = data.draw(st.sampled_from(sorted(self.open_rounds)))
        have = self._account(user)
        outcome = self.run(attempt(self.store.stake(self.guild, user, amount, kind, round_id)))
        if have < amount:
            assert isinstance(outcome, db.InsufficientChips)
            assert (outcome.balance, outcome.amount) == (have, amount)
            return
        assert outcome == have - amount
        self.balances[user] = have - amount
        staked = self.open_rounds[round_id]
        staked[user] = staked.get(user, 0) + amount

    @precondition(lambda self: self.closed_rounds)
    @rule(data=st.data(), user=USERS)
    def stake_on_a_closed_round(self, data: st.DataObject, user: int) -> None:
        round_id = data.draw(st.sampled_from(self.closed_rounds))
        outcome = self.run(attempt(self.store.stake(self.guild, user, 1, "bet", round_id)))
        assert isinstance(outcome, db.RoundClosed)

    @precondition(lambda self: self.open_rounds)
    @rule(data=st.data())
    def settle(self, data: st.DataObject) -> None:
        round_id = data.draw(st.sampled_from(sorted(self.open_rounds)))
        staked = self.open_rounds.pop(round_id)
        payouts = {user: data.draw(st.integers(0, 3 * chips)) for user, chips in staked.items()}
        hands = [
            HandResult(user, "win" if payouts[user] > chips else "loss", chips, payouts[user])
            for user, chips in staked.items()
        ]
        result = self.run(self.store.settle_round(round_id, payouts, hands, "{}"))
        assert not result.already_settled
        for user, chips in payouts.items():
            self.balances[user] += chips
        self.closed_rounds.append(round_id)

    @precondition(lambda self: self.open_rounds)
    @rule(data=st.data())
    def void(self, data: st.DataObject) -> None:
        round_id = data.draw(st.sampled_from(sorted(self.open_rounds)))
        staked = self.open_rounds.pop(round_id)
        result = self.run(self.store.void_round(round_id, "random void"))
        assert result.refunds == {user: chips for user, chips in staked.items() if chips}
        for user, chips in staked.items():
            self.balances[user] += chips
        self.closed_rounds.append(round_id)

    @precondition(lambda self: self.closed_rounds)
    @rule(data=st.data())
    def close_again(self, data: st.DataObject) -> None:
        round_id = data.draw(st.sampled_from(self.closed_rounds))
        assert self.run(self.store.settle_round(round_id, {}, [], "{}")).already_settled
        assert self.run(self.store.void_round(round_id, "again")).already_closed

    @rule()
    def recover(self) -> None:
        results = self.run(self.store.recover([self.guild]))
        assert sorted(r.round_id for r in results) == sorted(self.open_rounds)
        for round_id, staked in self.open_rounds.items():
            for user, chips in staked.items():
                self.balances[user] += chips
            self.closed_rounds.append(round_id)
        self.open_rounds.clear()

    @rule(user=USERS, amount=st.integers(-1500, 1500).filter(bool))
    def adjust(self, user: int, amount: int) -> None:
        have = self._account(user)
        outcome = self.run(attempt(self.store.adjust(self.guild, user, amount, 99, "random")))
        if have + amount < 0:
            assert isinstance(outcome, db.InsufficientChips)
            return
        assert outcome == have + amount
        self.balances[user] = have + amount

    @rule(user=USERS)
    def claim_daily(self, user: int) -> None:
        have = self._account(user)
        result = self.run(self.store.claim_daily(self.guild, user))
        last = self.last_daily.get(user)
        due = last is None or self.clock.now - last >= timedelta(
            seconds=db.GuildSettings().daily_period_s
        )
        assert result.claimed == due
        self.balances[user] = have + (DAILY if due else 0)
        if due:
            self.last_daily[user] = self.clock.now

    @rule(hours=st.integers(0, 30))
    def time_passes(self, hours: int) -> None:
        self.clock.advance(hours=hours)

    @invariant()
    def balances_match_the_model(self) -> None:
        page = self.run(self.store.reports.leaderboard(self.guild, 1, per_page=100))
        assert {e.user_id: e.balance for e in page.entries} == self.balances


async def _open(url: str, clock: FakeClock) -> db.Store:
    return await db.open_store(url, clock=clock)


def test_random_operations_keep_the_books_exact(store_url: str) -> None:
    with asyncio.Runner() as runner:
        clock = FakeClock()
        store = runner.run(_open(store_url, clock))
        machine = type(
            "EconomyRun",
            (Economy,),
            {"runner": runner, "store": store, "clock": clock, "guilds": itertools.count(1)},
        )
        try:
            run_state_machine_as_test(
                machine,
                settings=settings(
                    stateful_step_count=25,
                    deadline=None,
                    suppress_health_check=[HealthCheck.too_slow],
                ),
            )
        finally:
            runner.run(store.close())
        runner.run(check_invariants(store_url, tables=False))
