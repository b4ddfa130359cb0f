"""The store's operations for playing responsibly (``Store.play``): a player's limits,
self-exclusion, the no-value notice, and the moderators' links (db.ops.play_limits).

A player's limits are theirs in every server (they are not given a guild); the
moderators' actions are logged with the server they were taken in."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from db import checks
from db.models import MAX_BALANCE
from db.ops import play_limits, play_moderation
from db.ops.limit_values import PlayerLimits
from db.ops.play_moderation import ModerationEntry
from db.statements import Run

#: The longest session a player may set: a week.
MAX_SESSION_S: Final = 7 * 86_400
#: The longest timed exclusion: a year (longer: until an admin lifts it).
MAX_EXCLUSION_S: Final = 366 * 86_400
_BOUNDS: Final = {"daily_loss": MAX_BALANCE, "session_s": MAX_SESSION_S}


class PlayLimitsStore:
    """Each method checks its arguments, then runs one transaction."""

    def __init__(self, run: Run, now: Callable[[], int]) -> None:
        self._run = run
        self._now = now

    async def limits(
        self, user_id: int, *, tally: bool = True, guild_id: int | None = None
    ) -> PlayerLimits:
        """The player's group, its limits and today's play in every server (read only); with
        ``guild_id``, the limits as they hold in that server (a break its admin lifted: off).

        ``tally=False``: today's play is left at 0 for a player without limits."""
        u, now = checks.snowflake("user_id", user_id), self._now()
        g = None if guild_id is None else checks.snowflake("guild_id", guild_id)
        return await self._run(lambda: play_limits.player_limits(u, now, tally, g), write=False)

    async def set_limits(self, user_id: int, changes: Mapping[str, int | None]) -> PlayerLimits:
        """Set 'daily_loss' (chips) and/or 'session_s' (seconds); None removes the limit.
        Stricter applies at once, looser in 24 hours."""
        checked: dict[str, int | None] = {}
        for name, value in changes.items():
            if name not in _BOUNDS:
                raise ValueError(f"there is no limit {name!r}")
            bound = _BOUNDS[name]
            checked[name] = None if value is None else checks.positive(name, value, limit=bound)
        u, now = checks.snowflake("user_id", user_id), self._now()
        return await self._run(lambda: play_limits.set_limits(u, checked, now), write=True)

    async def exclude(self, user_id: int, seconds: int | None) -> PlayerLimits:
        """Exclude the player's group at once, for ``seconds`` or until an admin lifts it."""
        s = None if seconds is None else checks.positive("seconds", seconds, limit=MAX_EXCLUSION_S)
        u, now = checks.snowflake("user_id", user_id), self._now()
        return await self._run(lambda: play_limits.exclude(u, s, now), write=True)

    async def end_exclusion(self, user_id: int) -> PlayerLimits:
        """End a timed exclusion early: in 24 hours (an admin's exclusion is left alone)."""
        u, now = checks.snowflake("user_id", user_id), self._now()
        return await self._run(lambda: play_limits.end_exclusion(u, now), write=True)

    async def confirm_reality_check(self, user_id: int) -> None:
        """The player goes on after the reality check: a new session period starts now."""
        u, now = checks.snowflake("user_id", user_id), self._now()
        await self._run(lambda: play_limits.confirm_reality_check(u, now), write=True)

    async def mark_notice(self, user_id: int) -> bool:
        """Record the no-value notice as seen; True the first time only."""
        u, now = checks.snowflake("user_id", user_id), self._now()
        return await self._run(lambda: play_limits.mark_notice(u, now), write=True)

    async def link(
        self, guild_id: int, user_id: int, other_id: int, actor_id: int, reason: str
    ) -> bool:
        """A moderator links two accounts as one person's; False if they already are."""
        g, u, o = _ids(guild_id, user_id), user_id, checks.snowflake("other_id", other_id)
        if u == o:
            raise ValueError("an account cannot be linked to itself")
        a, why, now = _moderator(actor_id, reason), reason, self._now()
        return await self._run(lambda: play_moderation.link(g, u, o, a, why, now), write=True)

    async def unlink(self, guild_id: int, user_id: int, actor_id: int, reason: str) -> bool:
        """A moderator takes the account out of its group; False if it is linked to nobody."""
        g, u, a, now = _ids(guild_id, user_id), user_id, _moderator(actor_id, reason), self._now()
        return await self._run(lambda: play_moderation.unlink(g, u, a, reason, now), write=True)

    async def lift_exclusion(self, guild_id: int, user_id: int, actor_id: int, reason: str) -> bool:
        """An admin lifts, in their server only, an exclusion set until an admin lifts it;
        False if there is none there."""
        g, u, a, now = _ids(guild_id, user_id), user_id, _moderator(actor_id, reason), self._now()
        return await self._run(lambda: play_limits.lift_exclusion(g, u, a, reason, now), write=True)

    async def moderation_log(
        self, guild_id: int, user_id: int, limit: int = 10
    ) -> list[ModerationEntry]:
        """The latest links, unlinks and lifts naming the player, newest first."""
        g, u, n = _ids(guild_id, user_id), user_id, checks.positive("limit", limit, limit=100)
        return await self._run(lambda: play_moderation.moderation_log(g, u, n), write=False)


def _ids(guild_id: int, user_id: int) -> int:
    """The guild id, both ids checked."""
    checks.snowflake("user_id", user_id)
    return checks.snowflake("guild_id", guild_id)


def _moderator(actor_id: int, reason: str) -> int:
    """The moderator's id, it and the reason checked."""
    checks.text("reason", reason)
    return checks.snowflake("actor_id", actor_id)
