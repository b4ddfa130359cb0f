"""A second process for the race and crash tests: ``python -m tests.db.worker MODE URL ...``.

Modes:
  stakes URL GUILD USER ROUND AMOUNT COUNT
      print "ready", wait for a line on stdin, then make COUNT concurrent stakes
      and print how many were taken.
  stake-then-die URL GUILD USER ROUND AMOUNT
      begin a stake, print "inside" after the balance is debited but before its
      ledger row, and wait to be killed.
  settle-then-die URL ROUND PAYOUTS_JSON HANDS_JSON
      begin a settlement, print "inside" after the first payout is credited,
      and wait to be killed.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import Callable
from typing import Any, TypeVar

import db
from db.ops import rounds
from db.statements import Op, Row

T = TypeVar("T")


def pause_after(op: Op[T], statements: int) -> Op[T]:
    """Run ``op``'s first statements for real, then say so and hang inside the transaction."""
    statement = next(op)
    for _ in range(statements):
        rows: list[Row] = yield statement
        statement = op.send(rows)
    print("inside", flush=True)
    time.sleep(3600)  # the parent kills us long before this ends
    raise AssertionError("the parent should have killed this process")


async def _stakes(url: str, guild: int, user: int, round_id: int, amount: int, count: int) -> None:
    async with db.open_store(url) as store:
        print("ready", flush=True)
        await asyncio.to_thread(sys.stdin.readline)

        async def one() -> bool:
            try:
                await store.stake(guild, user, amount, "bet", round_id)
            except db.InsufficientChips:
                return False
            return True

        taken = await asyncio.gather(*(one() for _ in range(count)))
        print(sum(taken), flush=True)


async def _hang_in(url: str, op: Callable[[], Op[Any]]) -> None:
    store = await db.open_store(url)
    await store._run(op, write=True)


def main(argv: list[str]) -> None:
    mode, url, *args = argv
    if mode == "stakes":
        guild, user, round_id, amount, count = map(int, args)
        asyncio.run(_stakes(url, guild, user, round_id, amount, count))
    elif mode == "stake-then-die":
        guild, user, round_id, amount = map(int, args)
        now = db.models.to_micros(db.store.system_clock())
        # A stake is: lock the round, debit the account, write the ledger row.
        asyncio.run(
            _hang_in(
                url, lambda: pause_after(rounds.stake(guild, user, amount, "bet", round_id, now), 2)
            )
        )
    elif mode == "settle-then-die":
        round_id = int(args[0])
        payouts = {int(user): int(chips) for user, chips in json.loads(args[1]).items()}
        hands = [db.HandResult(**hand) for hand in json.loads(args[2])]
        now = db.models.to_micros(db.store.system_clock())
        # Settlement: close the round, read the stakes, credit and record the first payout.
        asyncio.run(
            _hang_in(
                url,
                lambda: pause_after(rounds.settle_round(round_id, payouts, hands, "{}", now), 4),
            )
        )
    else:
        raise SystemExit(f"unknown mode {mode!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
