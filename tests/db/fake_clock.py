"""A clock the test moves by hand, for the store's ``clock=`` argument."""

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
