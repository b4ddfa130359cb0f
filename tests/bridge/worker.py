"""A bot process for the kill tests: ``python -m tests.bridge.worker KIND STORE_URL UNB_URL
TOKEN GUILD USER AMOUNT`` makes one transfer (KIND: cash_in or cash_out) through the real
bridge, with a client that waits an hour for an answer: the test kills it while the fake
UnbelievaBoat holds its change."""

from __future__ import annotations

import asyncio
import sys

import db
from bot.bridge.client import UnbClient
from bot.bridge.transfers import Bridge
from bot.clock import SystemClock


async def main(kind: str, store_url: str, unb_url: str, guild: int, user: int, amount: int) -> None:
    async with db.open_store(store_url) as store:
        bridge = Bridge(store, UnbClient(unb_url, SystemClock(), timeout=3600))
        move = bridge.cash_in if kind == "cash_in" else bridge.cash_out
        await move(guild, user, amount)
    raise AssertionError("the test should have killed this process")


if __name__ == "__main__":
    kind, store_url, unb_url, guild, user, amount = sys.argv[1:]
    asyncio.run(main(kind, store_url, unb_url, int(guild), int(user), int(amount)))
