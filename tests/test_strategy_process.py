"""The strategy worker's process (bot/strategy_process.py): the same figures as in the
bot's own process, worked out elsewhere, answered at once while it is cold, and ended
with the bot."""

from __future__ import annotations

import os
import select
import signal
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from bot.engine import Action, Card, Rules
from bot.strategy_cache import StrategyCache, chart_and_edge
from bot.strategy_process import BACKGROUND_NICE, StrategyPool
from bot.tables.advice import Advice
from bot.tables.errors import RESTARTING, Restarting
from fakediscord.clock import ManualClock

SIX_DECKS = Rules(decks=6, penetration=0)
HARD_16 = [Card.parse("Ts"), Card.parse("6d")]
TEN = Card.parse("Tc")
LEGAL = {Action.HIT, Action.STAND, Action.DOUBLE, Action.SURRENDER}


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_a_job_is_worked_out_in_the_worker_and_its_exception_comes_back() -> None:
    pool = StrategyPool()
    try:
        assert pool.submit(os.getpid).result() != os.getpid()
        with pytest.raises(ValueError, match="invalid literal"):
            pool.submit(int, "ten").result()
        chart, edge = pool.submit(chart_and_edge, SIX_DECKS).result()
        assert (chart, edge) == chart_and_edge(SIX_DECKS)
    finally:
        pool.shutdown()


def test_a_background_worker_runs_at_the_lowest_priority_and_the_hints_worker_does_not() -> None:
    background, hints = StrategyPool(nice=BACKGROUND_NICE), StrategyPool()
    try:
        mine = os.nice(0)
        assert background.submit(os.nice, 0).result() == min(mine + BACKGROUND_NICE, 19)
        assert hints.submit(os.nice, 0).result() == mine
    finally:
        background.shutdown()
        hints.shutdown()


async def test_the_hint_from_the_worker_process_is_the_hint_from_a_thread() -> None:
    in_process = Advice(worker=StrategyPool(), clock=ManualClock())
    in_thread = Advice(clock=ManualClock())
    try:
        for advice in (in_process, in_thread):
            advice.warm(SIX_DECKS)
            await advice.settle()
        assert in_process.cache.cached(SIX_DECKS) == in_thread.cache.cached(SIX_DECKS)
        hint = await in_process.hint(SIX_DECKS, HARD_16, TEN, LEGAL)
        assert hint == await in_thread.hint(SIX_DECKS, HARD_16, TEN, LEGAL)
        assert hint.startswith("Basic strategy: surrender (hard 16 against a 10).\n")
        assert NOT_READY not in hint
    finally:
        in_process.close()
        in_thread.close()


async def test_a_cold_worker_answers_from_the_infinite_chart_then_with_the_exact_figures(
    tmp_path: Path,
) -> None:
    """After a restart the chart is read back from its file, but the new worker has
    worked nothing out: the first Hint does not wait for it."""
    StrategyCache(tmp_path).compute(SIX_DECKS)
    advice = Advice(tmp_path, worker=StrategyPool(), clock=ManualClock())
    try:
        assert advice.cache.cached(SIX_DECKS) is not None
        first = await advice.hint(SIX_DECKS, HARD_16, TEN, LEGAL)
        assert first == f"Basic strategy: surrender (hard 16 against a 10) {NOT_READY}."
        await advice.settle()  # the worker worked out the dealer's odds meanwhile
        later = await advice.hint(SIX_DECKS, HARD_16, TEN, LEGAL)
        assert ": surrender \u221250.0%, " in later
        assert later.startswith("Basic strategy: surrender (hard 16 against a 10).\n")
    finally:
        advice.close()


#: The Hint's words (bot/tables/advice.py) while its exact figures are being worked out.
NOT_READY = "(infinite-deck chart: this table's exact figures are still being worked out)"


def test_shutting_down_ends_the_worker_and_the_job_under_way_at_once() -> None:
    pool = StrategyPool()
    pid = pool.submit(os.getpid).result()
    endless = pool.submit(select.select, [], [], [])  # waits on nothing: only an end ends it
    pool.shutdown()
    with pytest.raises(BrokenProcessPool):
        endless.result()
    assert _gone(pid)
    with pytest.raises(RuntimeError, match="shut down"):
        pool.submit(os.getpid)


def test_a_worker_that_died_fails_its_job_and_the_next_job_starts_another() -> None:
    pool = StrategyPool()
    try:
        first = pool.submit(os.getpid).result()
        endless = pool.submit(select.select, [], [], [])
        os.kill(first, signal.SIGKILL)
        with pytest.raises(BrokenProcessPool):
            endless.result()
        assert pool.submit(os.getpid).result() not in (first, os.getpid())
    finally:
        pool.shutdown()


async def test_a_hint_after_the_worker_stopped_says_the_bot_is_restarting() -> None:
    advice = Advice(worker=StrategyPool(), clock=ManualClock())
    advice.warm(SIX_DECKS)
    await advice.settle()
    advice.close()
    with pytest.raises(Restarting, match=RESTARTING):
        await advice.hint(SIX_DECKS, HARD_16, TEN, LEGAL)
