"""The store's seasons and achievements: ``Store.competition`` (see db.ops.seasons and
db.ops.achievements)."""

from __future__ import annotations

from collections.abc import Callable

from db import checks
from db.ops import achievements, seasons
from db.ops.achievements import AwardRecord
from db.ops.seasons import Season, SeasonStandings
from db.statements import Run

#: Longest achievement key and award source the store takes.
KEY_LIMIT = 64
SOURCE_LIMIT = 200


class Competition:
    """Season standings (rolling seasons over as they end) and achievements.

    Each method checks its arguments (ValueError, nothing touched), then runs one
    operation through ``run``, the store's transaction runner. The season operations
    are write transactions: the season that ended is archived first, once.
    """

    def __init__(self, run: Run, now: Callable[[], int]) -> None:
        self._run = run
        self._now = now

    async def current_season(self, guild_id: int) -> Season:
        """The server's season now (archiving the ones that ended before)."""
        g, now = checks.snowflake("guild_id", guild_id), self._now()
        return await self._run(lambda: seasons.current_season(g, now), write=True)

    async def season_standings(
        self, guild_id: int, name: str | None = None
    ) -> SeasonStandings | None:
        """The current season's standings (``name`` None or its name) or an archived
        season's final ones; None if the server had no season of that name."""
        g, now = checks.snowflake("guild_id", guild_id), self._now()
        n = None if name is None else checks.text("season", name, limit=KEY_LIMIT)
        return await self._run(lambda: seasons.season_standings(g, n, now), write=True)

    async def season_names(self, guild_id: int, limit: int = 25) -> list[str]:
        """The current season's name, then the archived seasons', newest first."""
        g, now = checks.snowflake("guild_id", guild_id), self._now()
        n = checks.positive("limit", limit, limit=1000)
        return await self._run(lambda: seasons.season_names(g, now, n), write=True)

    async def award(
        self, guild_id: int, user_id: int, key: str, source: str, *, round_id: int | None = None
    ) -> bool:
        """Give the player an achievement unless they hold it; True when this call gave it.

        ``source`` says in words what earned it ("tournament 12"). Idempotent: calling
        it again (a retry, a resumed tournament) changes nothing and returns False.
        """
        g, u = checks.snowflake("guild_id", guild_id), checks.snowflake("user_id", user_id)
        k = checks.text("key", key, limit=KEY_LIMIT)
        s, now = checks.text("source", source, limit=SOURCE_LIMIT), self._now()
        r = None if round_id is None else checks.whole("round_id", round_id)
        return await self._run(lambda: achievements.award(g, u, k, r, s, now), write=True)

    async def achievements(self, guild_id: int, user_id: int) -> list[AwardRecord]:
        """The player's achievements in the server, oldest first."""
        g, u = checks.snowflake("guild_id", guild_id), checks.snowflake("user_id", user_id)
        return await self._run(lambda: achievements.achievements_of(g, u), write=False)
