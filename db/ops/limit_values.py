"""A player's limits as values: a group's limits with their pending changes, what
applies at a given time, and what ``/limits`` shows (the operations: play_limits.py)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Final

SECOND: Final = 1_000_000
DAY: Final = 86_400 * SECOND
#: How long a raise, a removal, or ending a timed exclusion early waits.
RAISE_WAIT: Final = DAY
#: A pause this long between bets ends a session (the reality check counts afresh).
SESSION_GAP: Final = 30 * 60 * SECOND

#: The columns of a group's limits, as held on its principal's row.
LIMIT_COLUMNS: Final = (
    "daily_loss",
    "daily_loss_next",
    "daily_loss_next_at",
    "session_s",
    "session_s_next",
    "session_s_next_at",
    "excluded_until",
    "until_admin",
    "session_started_at",
    "last_bet_at",
)


@dataclass(frozen=True, slots=True)
class Limits:
    """A group's limits (times in microseconds), as stored; pending changes not yet applied."""

    daily_loss: int | None = None
    daily_loss_next: int | None = None
    daily_loss_next_at: int | None = None
    session_s: int | None = None
    session_s_next: int | None = None
    session_s_next_at: int | None = None
    excluded_until: int | None = None
    until_admin: int = 0
    session_started_at: int | None = None
    last_bet_at: int | None = None

    def settled(self, now: int) -> Limits:
        """These limits with every pending change that is due applied."""
        result = self
        if result.daily_loss_next_at is not None and result.daily_loss_next_at <= now:
            result = replace(
                result,
                daily_loss=result.daily_loss_next,
                daily_loss_next=None,
                daily_loss_next_at=None,
            )
        if result.session_s_next_at is not None and result.session_s_next_at <= now:
            result = replace(
                result, session_s=result.session_s_next, session_s_next=None, session_s_next_at=None
            )
        if result.excluded_until is not None and result.excluded_until <= now:
            result = replace(result, excluded_until=None)
        return result

    def excluded(self, now: int) -> bool:
        """Whether the group is in a cooling-off or self-exclusion now."""
        return bool(self.until_admin) or (
            self.excluded_until is not None and now < self.excluded_until
        )

    def session_start(self, now: int) -> int | None:
        """When the session going on began (None: no session, the next bet starts one)."""
        if self.last_bet_at is None or now - self.last_bet_at >= SESSION_GAP:
            return None
        return self.session_started_at

    def reality_check_due(self, now: int) -> bool:
        """Whether the session has run its length and the player has not confirmed since."""
        start = self.session_start(now)
        return (
            self.session_s is not None
            and start is not None
            and now - start >= self.session_s * SECOND
        )

    @property
    def any(self) -> bool:
        """Whether anything here can refuse a bet (or a pending change may come to)."""
        return self != Limits(
            session_started_at=self.session_started_at, last_bet_at=self.last_bet_at
        )

    def values(self) -> tuple[Any, ...]:
        """The values in ``LIMIT_COLUMNS`` order."""
        return tuple(getattr(self, name) for name in LIMIT_COLUMNS)


@dataclass(frozen=True, slots=True)
class PlayerLimits:
    """What ``/limits`` and ``/blackjack-admin player`` show: a player's group and its limits."""

    user_id: int
    principal_id: int
    #: Every account of the group, the player's own included, in id order.
    members: tuple[int, ...]
    limits: Limits
    #: Chips the group has lost today (UTC), net of returns; negative when ahead.
    lost_today: int
    #: The day's end (microseconds): when the loss limit resets.
    day_ends_at: int
    #: Net of the session going on (stakes and returns since it began).
    session_net: int
    notice_shown: bool

    @property
    def linked(self) -> tuple[int, ...]:
        """The other accounts linked to this one."""
        return tuple(member for member in self.members if member != self.user_id)
