"""The store's reads for reports (``Store.reports``): rounds, leaderboards, a player's
record and their ledger (db.ops.reports)."""

from __future__ import annotations

from db import checks
from db.models import LeaderboardPage, LedgerEntry, LedgerPage, PlayerStats, RoundRecord
from db.ops import reports
from db.statements import Run


class ReportStore:
    """Each method checks its arguments (ValueError, nothing touched), then runs one read."""

    def __init__(self, run: Run) -> None:
        #: Runs an operation in a transaction of its own (``Store._run``).
        self._run = run

    async def get_round(self, round_id: int) -> RoundRecord | None:
        """The round, or None."""
        r = checks.whole("round_id", round_id)
        return await self._run(lambda: reports.get_round(r), write=False)

    async def round_history(
        self,
        guild_id: int,
        *,
        channel_id: int | None = None,
        user_id: int | None = None,
        limit: int = 20,
        before_id: int | None = None,
    ) -> list[RoundRecord]:
        """The guild's rounds, newest first; filter by channel or by a player who staked.

        Page backwards with ``before_id`` = the last round id of the previous page.
        """
        g = checks.snowflake("guild_id", guild_id)
        c = None if channel_id is None else checks.snowflake("channel_id", channel_id)
        u = None if user_id is None else checks.snowflake("user_id", user_id)
        n = checks.positive("limit", limit, limit=100)
        b = None if before_id is None else checks.whole("before_id", before_id)
        return await self._run(lambda: reports.round_history(g, c, u, n, b), write=False)

    async def leaderboard(
        self,
        guild_id: int,
        page: int = 1,
        per_page: int = 10,
        caller_id: int | None = None,
        *,
        among: int | None = None,
    ) -> LeaderboardPage:
        """One page of the guild's balances (1-based; past the end shows the last page);
        ``among``: only that player and those who played a round with them."""
        g = checks.snowflake("guild_id", guild_id)
        p = checks.positive("page", page, limit=checks.MAX_ID)
        n = checks.positive("per_page", per_page, limit=100)
        me = None if caller_id is None else checks.snowflake("caller_id", caller_id)
        mates = None if among is None else checks.snowflake("among", among)
        return await self._run(lambda: reports.leaderboard(g, p, n, me, mates), write=False)

    async def stats(self, guild_id: int, user_id: int) -> PlayerStats:
        """The player's record over every hand settled in the guild."""
        g, u = checks.snowflake("guild_id", guild_id), checks.snowflake("user_id", user_id)
        return await self._run(lambda: reports.stats(g, u), write=False)

    async def ledger(self, guild_id: int, user_id: int, limit: int = 20) -> list[LedgerEntry]:
        """The account's latest ledger rows, newest first."""
        g, u = checks.snowflake("guild_id", guild_id), checks.snowflake("user_id", user_id)
        n = checks.positive("limit", limit, limit=1000)
        return await self._run(lambda: reports.ledger_entries(g, u, n), write=False)

    async def ledger_page(
        self,
        guild_id: int,
        user_id: int,
        *,
        per_page: int = 10,
        before_id: int | None = None,
        after_id: int | None = None,
    ) -> LedgerPage:
        """A page of the account's ledger, newest first: the newest page, or the one just
        older than ``before_id`` or just newer than ``after_id`` (ledger row ids)."""
        g, u = checks.snowflake("guild_id", guild_id), checks.snowflake("user_id", user_id)
        n = checks.positive("per_page", per_page, limit=100)
        b = None if before_id is None else checks.whole("before_id", before_id)
        a = None if after_id is None else checks.whole("after_id", after_id)
        return await self._run(lambda: reports.ledger_page(g, u, n, b, a), write=False)
