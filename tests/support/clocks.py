"""Clocks a test moves by hand. The event loop's clock for tables and the fake Discord is
``fakediscord.clock.ManualClock``; these are the others: the store's wall clock (``clock=``)
and a plain seconds counter (the progress bar's ``clock``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

START = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


class FakeClock:
    """Returns ``now`` until ``advance`` moves it."""

    def __init__(self, now: datetime = START) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        """Move time forward by ``timedelta(**delta)``."""
        self.now += timedelta(**delta)


class Seconds:
    """A ``time.monotonic``-like clock: returns ``now`` (seconds), set by the test."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now
