"""The strategy worker's computing in a child process (bot/strategy_process.py): the same
figures as in the bot's own process, worked out elsewhere, and ended with the bot."""

from __future__ import annotations

import os

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
