"""The strategy worker's computing in a child process (bot/strategy_process.py): the same
figures as in the bot's own process, worked out elsewhere, and ended with the bot."""

from __future__ import annotations

import os
import select
import threading

import pytest

from bot.engine import Action, Card, Rules
from bot.strategy_cache import chart_and_edge
from bot.strategy_process import ChildProcess
from bot.tables.advice import Advice

SIX_DECKS = Rules(decks=6, penetration=0)


def test_a_call_is_worked_out_in_the_child_and_its_exception_comes_back() -> None:
    child = ChildProcess()
    try:
        assert child.call(os.getpid) != os.getpid()
        with pytest.raises(ValueError, match="invalid literal"):
            child.call(int, "ten")
        chart, edge = child.call(chart_and_edge, SIX_DECKS)
        assert (chart, edge) == chart_and_edge(SIX_DECKS)
    finally:
        child.close()


async def test_the_hint_from_the_child_is_the_hint_from_a_thread() -> None:
    in_child = Advice(child=ChildProcess())
    in_thread = Advice()
    try:
        for advice in (in_child, in_thread):
            advice.warm(SIX_DECKS)
            await advice.settle()
        assert in_child.cache.cached(SIX_DECKS) == in_thread.cache.cached(SIX_DECKS)
        cards, up = [Card.parse("Ts"), Card.parse("6d")], Card.parse("Tc")
        legal = {Action.HIT, Action.STAND, Action.DOUBLE, Action.SURRENDER}
        hint = await in_child.hint(SIX_DECKS, cards, up, legal)
        assert hint == await in_thread.hint(SIX_DECKS, cards, up, legal)
        assert hint.endswith("(hard 16 against a 10).")
    finally:
        in_child.close()
        in_thread.close()


def test_closing_ends_the_child() -> None:
    child = ChildProcess()
    child.call(os.getpid)
    process = child._process
    assert process is not None
    assert process.is_alive()
    child.close()
    assert not process.is_alive()


def test_a_child_that_died_fails_its_call_and_the_next_starts_another() -> None:
    child = ChildProcess()
    try:
        first = child.call(os.getpid)
        process = child._process
        assert process is not None
        process.kill()
        process.join()
        with pytest.raises((EOFError, OSError)):
            child.call(os.getpid)
        assert child.call(os.getpid) not in (first, os.getpid())
    finally:
        child.close()
    with pytest.raises(RuntimeError, match="closed"):
        child.call(os.getpid)


def _call_until_closed(child: ChildProcess, failed: list[BaseException]) -> None:
    """A call the child never finishes (it waits on nothing): only ``close`` ends it."""
    try:
        child.call(select.select, [], [], [])
    except BaseException as error:
        failed.append(error)


def test_closing_during_a_call_ends_it_and_closes_the_pipe_once() -> None:
    """``close`` during a call: the call fails, ``close`` raises nothing, the pipe ends
    closed. (Both let go of the pipe; when they did so at the same instant its descriptor
    was closed twice, "Bad file descriptor" at a shutdown: a window this test rarely hits,
    which the pipe's own lock in ``ChildProcess`` closes.)"""
    for _ in range(5):
        child = ChildProcess()
        child.call(os.getpid)
        failed: list[BaseException] = []
        caller = threading.Thread(target=_call_until_closed, args=(child, failed))
        caller.start()
        while not child._lock.locked():  # the call is under way
            pass
        child.close()
        caller.join()
        assert len(failed) == 1
        assert isinstance(failed[0], EOFError | OSError)
        assert child._pipe is None or child._pipe.closed
