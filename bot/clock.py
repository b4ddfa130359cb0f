"""The clock the bot reads and sleeps on, so tests can drive time instead of waiting."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Protocol


class Cancellable(Protocol):
    """What :meth:`Clock.call_at` returns: ``cancel()`` stops the call if it has not run."""

    def cancel(self) -> object: ...


class Clock(Protocol):
    """Wall-clock time in seconds since the epoch, and sleeping measured on that time."""

    def now(self) -> float:
        """Return the current time in seconds since the Unix epoch."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Return once ``seconds`` have passed on this clock."""
        ...

    async def sleep_until(self, when: float) -> None:
        """Return once this clock reads ``when`` or later (at once if it already does)."""
        ...

    def call_at(self, when: float, callback: Callable[[], None]) -> Cancellable:
        """Call ``callback`` on the event loop once this clock reads ``when``.

        A timer without a task: cheaper than a task sleeping until ``when`` when, as with
        the deferral armed on every click, it is nearly always cancelled first.
        """
        ...


class SystemClock:
    """The real clock: ``time.time`` and ``asyncio.sleep``."""

    def now(self) -> float:
        """Return ``time.time()``."""
        return time.time()

    async def sleep(self, seconds: float) -> None:
        """Sleep for ``seconds`` of real time."""
        await asyncio.sleep(max(0.0, seconds))

    async def sleep_until(self, when: float) -> None:
        """Sleep until ``time.time()`` reaches ``when``."""
        await asyncio.sleep(max(0.0, when - time.time()))

    def call_at(self, when: float, callback: Callable[[], None]) -> asyncio.TimerHandle:
        """``loop.call_later`` until ``time.time()`` reaches ``when``."""
        return asyncio.get_running_loop().call_later(max(0.0, when - time.time()), callback)
