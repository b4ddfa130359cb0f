"""``python -m bot`` runs on uvloop when it is installed (the speed extra), else asyncio."""

from __future__ import annotations

import asyncio
import sys

import pytest
import uvloop

from bot.cli.run import event_loop_runner


def test_the_bot_runs_on_uvloop_when_it_is_installed() -> None:
    runner = event_loop_runner()
    assert runner is uvloop.run

    async def loop_class() -> type:
        return type(asyncio.get_running_loop())

    assert runner(loop_class()) is uvloop.Loop


def test_without_uvloop_the_bot_runs_on_asyncio(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "uvloop", None)  # import uvloop now fails
    assert event_loop_runner() is asyncio.run
