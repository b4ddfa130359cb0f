"""The store's coach records: ``Store.coach`` (see db.ops.coach)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from db import checks
from db.group_commit import GroupCommit
from db.ops import coach
from db.ops.coach import CoachFigures, DecisionRecord, QuizFigures, SharpEntry, UngradedRound
from db.statements import Run

#: Rounds graded in one catch-up read at most.
CATCH_UP_BATCH = 100


class CoachStore:
    """Graded rounds, their decisions, the figures, the players' teach mode, and the count
    quiz answers of practice tables.

    Each method checks its arguments (ValueError, nothing touched), then runs one
    operation of ``db.ops.coach`` through ``run``, the store's transaction runner; the
    grades go through ``group``, which commits them with other tables' writes.
    """

    def __init__(self, run: Run, group: GroupCommit, now: Callable[[], int]) -> None:
        self._run = run
        self._group = group
        self._now = now

    async def ungraded(self, round_id: int | None = None) -> list[UngradedRound]:
        """Settled rounds not graded yet, oldest first (at most ``CATCH_UP_BATCH``; or the
        round ``round_id`` alone, when it is ungraded)."""
        r = None if round_id is None else checks.whole("round_id", round_id)
        return await self._run(lambda: coach.ungraded_rounds(r, CATCH_UP_BATCH), write=False)

    async def record(self, ungraded: UngradedRound, decisions: Sequence[DecisionRecord]) -> bool:
        """Store the round's graded decisions and mark it graded; False when it was already."""
        _check_decisions(decisions)
        now = self._now()
        stored: bool = await self._group.submit(
            lambda: coach.record_grades(ungraded, decisions, now), refuses=False
        )
        return stored

    async def record_settled(self, round_id: int, decisions: Sequence[DecisionRecord]) -> bool:
        """``record`` for a settled round known by its id (its server and settlement time
        read in the same transaction); False when it was graded already, or is not settled."""
        r = checks.whole("round_id", round_id)
        _check_decisions(decisions)
        now = self._now()
        stored: bool = await self._group.submit(
            lambda: coach.record_settled(r, decisions, now), refuses=False
        )
        return stored

    async def last_round(self, guild_id: int, user_id: int) -> list[DecisionRecord]:
        """The player's decisions in their last graded round, in order."""
        g, u = checks.snowflake("guild_id", guild_id), checks.snowflake("user_id", user_id)
        return await self._run(lambda: coach.last_round(g, u), write=False)

    async def figures(
        self, guild_id: int, user_id: int, since: int = 0, until: int = 2**62
    ) -> CoachFigures:
        """The player's figures over rounds settled in ``[since, until)`` (microseconds)."""
        g, u = checks.snowflake("guild_id", guild_id), checks.snowflake("user_id", user_id)
        return await self._run(lambda: coach.figures(g, u, since, until), write=False)

    async def sharpest(self, guild_id: int, minimum: int, limit: int = 10) -> list[SharpEntry]:
        """The sharpest board: players with ``minimum`` decisions, least given away first."""
        g = checks.snowflake("guild_id", guild_id)
        m = checks.positive("minimum", minimum, limit=1_000_000)
        n = checks.positive("limit", limit, limit=100)
        return await self._run(lambda: coach.sharpest(g, m, n), write=False)

    async def teaching(self, guild_id: int, user_ids: Sequence[int]) -> set[int]:
        """Which of the players asked the coach to teach them."""
        g = checks.snowflake("guild_id", guild_id)
        users = [checks.snowflake("user_id", user) for user in user_ids]
        return await self._run(lambda: coach.teaching(g, users), write=False)

    async def set_teaching(self, guild_id: int, user_id: int, teach: bool) -> None:
        """Turn the player's teach mode on or off."""
        g, u = checks.snowflake("guild_id", guild_id), checks.snowflake("user_id", user_id)
        await self._run(lambda: coach.set_teaching(g, u, teach), write=True)

    async def record_quiz(
        self, guild_id: int, user_id: int, shoe: str, answer: int, running: int
    ) -> bool:
        """Keep the player's count quiz answer for the finished ``shoe`` (its commitment);
        False, nothing kept, when they answered that quiz before."""
        g, u = checks.snowflake("guild_id", guild_id), checks.snowflake("user_id", user_id)
        s, now = checks.text("shoe", shoe, limit=128), self._now()
        a, r = int(answer), int(running)
        return await self._run(lambda: coach.record_quiz(g, u, s, a, r, now), write=True)

    async def quiz_figures(self, guild_id: int, user_id: int) -> QuizFigures:
        """The player's count quiz answers in the server: answered, right."""
        g, u = checks.snowflake("guild_id", guild_id), checks.snowflake("user_id", user_id)
        return await self._run(lambda: coach.quiz_figures(g, u), write=False)


def _check_decisions(decisions: Sequence[DecisionRecord]) -> None:
    for d in decisions:
        checks.snowflake("user_id", d.user_id)
        checks.amount("stake", d.stake)
        checks.json_text("detail", d.detail)
