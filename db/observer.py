"""What the Store tells an observer (the bot's metrics): transactions, rounds settled and
voided, and side bets settled at a deal."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Protocol, TypeVar

from db.errors import StoreConfigError, StoreError, StoreUnavailable, StoreVersionError
from db.statements import Op

T = TypeVar("T")


class StoreObserver(Protocol):
    """Told of every transaction and of each round closed (the bot's metrics)."""

    def transaction(self, operation: str, seconds: float, failed: bool) -> None:
        """A transaction of ``operation`` ended; ``failed``: it raised something unexpected."""

    def round_settled(self, wagered: int, paid: int) -> None:
        """A round was settled by this call: its stakes and its payouts (stakes returned too)."""

    def round_voided(self, refunded: int) -> None:
        """A round was voided by this call and ``refunded`` chips went back."""

    def side_bets_settled(self, wagered: int, paid: int) -> None:
        """Side bets a deal decides (21+3, Perfect Pairs) were settled by this call, before
        their round is: their stakes and their payouts."""


def is_failure(error: BaseException) -> bool:
    """Not an answer (no chips, round closed, ...) nor a cancelled caller: a database error."""
    if isinstance(error, asyncio.CancelledError):
        return False
    answer = isinstance(error, StoreError)
    return not answer or isinstance(error, StoreConfigError | StoreVersionError | StoreUnavailable)


async def observed(
    observer: StoreObserver,
    transact: Callable[[Callable[[], Op[T]]], Awaitable[T]],
    op: Callable[[], Op[T]],
) -> T:
    """``transact(op)``, timed and told to ``observer`` under the operation's name."""
    name = "unknown"

    def named() -> Op[T]:
        nonlocal name
        generator = op()
        name = getattr(generator, "__name__", name)
        return generator

    started, failed = time.perf_counter(), False
    try:
        return await transact(named)
    except BaseException as error:
        failed = is_failure(error)
        raise
    finally:
        observer.transaction(name, time.perf_counter() - started, failed)
