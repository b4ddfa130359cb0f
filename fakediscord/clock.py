"""A clock that moves only when a test says so; implements ``bot.clock.Clock``."""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Callable

#: 2027-01-15 08:00 UTC: a fixed, realistic epoch time so snowflakes and timestamps look real.
DEFAULT_START = 1_800_000_000.0


class ManualClock:
    """``now()``, ``sleep``/``sleep_until`` that wait for :meth:`advance`, nothing real.

    Sleepers wake in order of their wake-up time (ties: order of going to sleep),
    so a test that advances the clock gets the same interleaving every run.
    """

    def __init__(self, start: float = DEFAULT_START) -> None:
        self._now = start
        self._seq = itertools.count()
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        #: Entries of cancelled sleepers still in the heap (dropped lazily, like asyncio's timers).
        self._dead = 0
        self._changed: asyncio.Event | None = None

    def now(self) -> float:
        """The clock's current time, seconds since the Unix epoch."""
        return self._now

    async def sleep(self, seconds: float) -> None:
        """Wait until the clock has moved ``seconds`` forward."""
        await self.sleep_until(self._now + seconds)

    async def sleep_until(self, when: float) -> None:
        """Wait until the clock reads ``when``; yields once and returns if it already does."""
        if when <= self._now:
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (when, next(self._seq), future))
        self._notify()
        try:
            await future
        finally:
            if not future.done():
                future.cancel()
            if future.cancelled():
                self._dropped()

    def _dropped(self) -> None:
        """A sleeper was cancelled. Its entry stays in the heap until woken past or compacted:
        rebuilding the heap at every cancel made each timer reschedule cost O(sleepers)."""
        self._dead += 1
        if self._dead > 32 and self._dead * 2 > len(self._sleepers):
            self._sleepers = [s for s in self._sleepers if not s[2].done()]
            heapq.heapify(self._sleepers)
            self._dead = 0

    def call_at(self, when: float, callback: Callable[[], None]) -> asyncio.Future[None]:
        """Call ``callback`` once the clock reads ``when`` (counted as a sleeper until then);
        cancel the returned future to drop the call."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        if when <= self._now:
            future.add_done_callback(lambda done: None if done.cancelled() else callback())
            future.set_result(None)
            return future
        future.add_done_callback(lambda done: self._dropped() if done.cancelled() else callback())
        heapq.heappush(self._sleepers, (when, next(self._seq), future))
        self._notify()
        return future

    @property
    def sleepers(self) -> int:
        """How many tasks are waiting on this clock."""
        return sum(1 for *_, fut in self._sleepers if not fut.done())

    def next_wakeup(self) -> float | None:
        """The earliest time a sleeper waits for, or ``None``."""
        pending = [when for when, _, fut in self._sleepers if not fut.done()]
        return min(pending) if pending else None

    def advance(self, seconds: float) -> None:
        """Move the clock forward and wake every sleeper whose time has come.

        Woken tasks run when the caller next yields to the event loop; use
        :meth:`run_for` to also let them run (and re-sleep) step by step.
        """
        if seconds < 0:
            raise ValueError("a clock does not go backwards")
        self._now += seconds
        self._wake_due()

    async def run_for(self, seconds: float) -> None:
        """Advance by ``seconds`` one wake-up at a time, letting woken tasks run in between.

        A timer loop that sleeps 1 s at a time runs 30 times for ``run_for(30)``.
        """
        target = self._now + seconds
        while True:
            due = self.next_wakeup()
            if due is None or due > target:
                break
            self._now = max(self._now, due)
            self._wake_due()
            await settle()
        self._now = target
        await settle()

    async def wait_for_sleepers(self, count: int = 1, max_wait: float = 5.0) -> None:
        """Return once at least ``count`` tasks sleep on this clock (fails after ``max_wait`` s)."""

        async def _wait() -> None:
            while self.sleepers < count:
                self._changed = self._changed or asyncio.Event()
                self._changed.clear()
                await self._changed.wait()

        await asyncio.wait_for(_wait(), max_wait)

    def _notify(self) -> None:
        if self._changed is not None:
            self._changed.set()

    def _wake_due(self) -> None:
        while self._sleepers and self._sleepers[0][0] <= self._now:
            _, _, future = heapq.heappop(self._sleepers)
            if not future.done():
                future.set_result(None)
            elif future.cancelled():
                self._dead = max(0, self._dead - 1)


async def settle(rounds: int = 20) -> None:
    """Give other ready tasks a few turns of the event loop (no real time passes)."""
    for _ in range(rounds):
        await asyncio.sleep(0)
