"""The coach: after each settled round, every decision in it graded exactly, off the click.

The round flow tells the coach of each round it settles, once the settlement is committed
(``RoundFlow.on_settled``), with the round's journal as the table kept it in memory: the
rows the store holds, so nothing is read back. The background strategy worker (a process
beside the Hint's, at the lowest priority: ``Advice.run``) replays and grades it
(``bot.coach_grading.grade_round``), and the grades are stored with the round's mark in one
write, which shares its transaction with other tables' writes (the store's group commit).
Nothing of it runs while a click waits: the flow only starts a task.

A round settled before the bot stopped (a SIGKILL between the settlement and the
grades) has no mark: ``catch_up`` grades every such round at start-up, from its journal.
A round whose journal the engine cannot replay is marked graded with no decision, so it
is not tried again at every start.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from concurrent.futures.process import BrokenProcessPool
from typing import Final

import db
from bot.coach_grading import GradedDecision, grade_round
from bot.engine import Rules
from bot.tables.advice import Advice
from bot.tables.errors import Restarting
from bot.tables.journal import SettledRound
from db.ops.coach import PPM

log = logging.getLogger(__name__)

#: Told each round's graded decisions once they are stored: (guild id, decisions).
Listener = Callable[[int, Sequence[GradedDecision]], Awaitable[None]]
#: A teach note is sent for a decision that cost more than this share of its bet.
TEACH_OVER: Final = 0.02


class Coach:
    """Grades settled rounds in the strategy worker and stores the grades."""

    def __init__(self, store: db.Store, advice: Advice) -> None:
        self._store = store
        self._advice = advice
        self._tasks: set[asyncio.Future[None]] = set()
        self._catching_up: asyncio.Future[None] | None = None
        #: Told of each round graded now (the teach notes).
        self.listeners: list[Listener] = []

    def journal_settled(self, settled: SettledRound) -> None:
        """Grade the round in the background from its journal (its settlement is committed)."""
        self._start(self._grade_settled(settled))

    def round_settled(self, round_id: int) -> None:
        """Grade the round in the background, its journal read from the store."""
        self._start(self._grade_one(round_id))

    def catch_up_soon(self) -> None:
        """Grade, in the background, every settled round left ungraded by an earlier run
        (once at a time: each shard's resume asks)."""
        if self._catching_up is None or self._catching_up.done():
            self._catching_up = self._start(self.catch_up())

    def _start(self, work: Awaitable[None]) -> asyncio.Future[None]:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def settle(self) -> None:
        """Until the grading started so far is over (tests, a graceful stop)."""
        while self._tasks:
            await asyncio.wait(list(self._tasks))

    def close(self) -> None:
        """Stop grading: what is under way ends, and is graded at the next start."""
        for task in self._tasks:
            task.cancel()

    async def catch_up(self) -> None:
        """Grade the settled rounds without grades, oldest first, until none is left (or
        the worker or the store cannot go on: the next start tries again)."""
        while True:
            try:
                batch = await self._store.coach.ungraded()
            except db.StoreError as error:
                log.warning("the coach cannot read ungraded rounds: %s", error)
                return
            if not batch:
                return
            for ungraded in batch:
                if not await self._grade(ungraded):
                    return

    async def _grade_one(self, round_id: int) -> None:
        try:
            found = await self._store.coach.ungraded(round_id)
        except db.StoreError as error:
            log.warning("the coach cannot read round %s: %s", round_id, error)
            return
        for ungraded in found:
            await self._grade(ungraded)

    async def _grade_settled(self, settled: SettledRound) -> None:
        rows = [(a.player, a.action, a.detail) for a in settled.journal]
        await self._grade_rows(
            settled.round_id,
            settled.guild_id,
            lambda: settled.rules,
            rows,
            lambda records: self._store.coach.record_settled(settled.round_id, records),
        )

    async def _grade(self, ungraded: db.UngradedRound) -> bool:
        """Grade one round and store its grades; False when the worker or the store failed."""
        rows = [(a.player, a.action, a.detail) for a in ungraded.actions]
        return await self._grade_rows(
            ungraded.round_id,
            ungraded.guild_id,
            lambda: Rules.from_dict(json.loads(ungraded.rules_json)),
            rows,
            lambda records: self._store.coach.record(ungraded, records),
        )

    async def _grade_rows(
        self,
        round_id: int,
        guild_id: int,
        rules: Callable[[], Rules],
        rows: Sequence[tuple[str, str, str | None]],
        record: Callable[[Sequence[db.DecisionRecord]], Awaitable[bool]],
    ) -> bool:
        """Grade the round whose journal is ``rows`` and ``record`` its grades; False when
        the worker or the store failed."""
        decisions: list[GradedDecision] = []
        try:
            if rows:
                decisions = await self._advice.run(grade_round, rules(), rows)
        except Exception as error:
            if isinstance(error, BrokenProcessPool | Restarting) or self._advice.closed:
                log.info("round %s not graded now: %r", round_id, error)
                return False  # the worker stopped or died: graded at the next start
            # A journal the engine cannot replay or grade: marked graded with no decision,
            # so that it neither comes back at every start nor holds up the rounds after it.
            log.exception("round %s cannot be graded", round_id)
        try:
            stored = await record(records_of(decisions))
        except db.StoreError as error:
            log.warning("round %s's grades not stored: %s", round_id, error)
            return False
        if stored and decisions:
            await self._tell(guild_id, round_id, decisions)
        return True

    async def _tell(self, guild_id: int, round_id: int, decisions: list[GradedDecision]) -> None:
        for listener in self.listeners:
            try:
                await listener(guild_id, decisions)
            except Exception:
                log.exception("the coach's listener failed on round %s", round_id)


def records_of(decisions: Iterable[GradedDecision]) -> list[db.DecisionRecord]:
    """Graded decisions as the store keeps them."""
    return [record_of(decision) for decision in decisions]


def record_of(decision: GradedDecision) -> db.DecisionRecord:
    """A graded decision as the store keeps it (its cost in millionths of the stake)."""
    return db.DecisionRecord(
        user_id=decision.user_id,
        detail=decision.detail(),
        chosen=decision.chosen,
        best=decision.best,
        stake=decision.stake,
        cost_ppm=round(decision.cost * PPM),
    )
