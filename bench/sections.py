"""Where the blackjack bot's CPU goes, by section, for ``bench/load.py``.

    BENCH_SECTIONS=FILE .venv/bin/python bench/load.py ...   # record, and show at the end
    .venv/bin/python bench/sections.py FILE                  # show a file again

With ``BENCH_SECTIONS`` set, ``bench/load_bot.py`` wraps the functions in :data:`SECTIONS`
in the blackjack bot's process and appends to FILE one JSON line per measured phase:
the interactions answered, the event loop thread's CPU, and each section's CPU and calls.
``bench/load.py`` prints its own run's phases at the end, beside the table-sized floor's
CPU an interaction. ``tests/bench_tests/test_sections.py`` finds every section's function,
so a rename fails a test; a phase's table names any section the bot never went through.

A section is inclusive (what it calls counts in it). A coroutine's section counts the
thread CPU of its own steps only, not what runs while it waits, so sections of concurrent
clicks never count one another (nor aiosqlite's thread, where the statements run). Unlike
py-spy's samples, which cost the bot a quarter of its rate, a section costs 1.5 us a call
(a coroutine's, 4 us with a step in between), some 40 us an interaction in all; unlike
cProfile, it does not weigh Python calls more than C ones.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import json
import sys
import time
from collections.abc import Callable, Generator
from typing import Any

#: (module, attribute path, label): what is timed. Sync or async is read from the function.
SECTIONS: tuple[tuple[str, str, str], ...] = (
    # discord.py: the gateway frame, its JSON, the interaction and the clicked message
    ("discord.gateway", "DiscordWebSocket.poll_event", "gateway: a frame, read and handled"),
    ("discord.utils", "_ActiveDecompressionContext.decompress", "gateway: decompress"),
    ("discord.utils", "_from_json", "gateway: JSON"),
    ("discord.interactions", "Interaction.__init__", "discord.py: Interaction()"),
    ("discord.message", "Message.__init__", "discord.py: Message()"),
    ("discord.app_commands.tree", "CommandTree._call", "/bet: the command tree, all of it"),
    # answers and edits
    ("discord.webhook.async_", "AsyncWebhookAdapter.request", "discord.py's webhook adapter"),
    ("aiohttp", "ClientSession._request", "aiohttp: a request"),
    ("cogs.table.response_window", "TimelyResponse.table", "click: the answer (type 7)"),
    ("cogs.table.messages", "TableMessages._edit", "edit: a coalesced table edit"),
    ("cogs.table.renderer", "TableRenderer.payload", "render: a table payload, either layout"),
    # the table
    ("cogs.table.commands", "TableCog.on_interaction", "click: the listener, all of it"),
    ("bot.tables.service", "TableService.act", "click: service.act"),
    ("bot.tables.staking", "Betting.bet", "/bet: service.bet"),
    ("bot.tables.changes", "TableChanges.mutate", "table: a change under its lock"),
    ("bot.tables.changes", "TableChanges.changed", "table: snapshot and timer"),
    ("bot.tables.flow", "RoundFlow.settle", "table: settle a round"),
    ("bot.tables.flow", "apply_decision", "table: apply a decision"),
    ("bot.tables.flow", "table_write", "table: its document"),
    ("db.group_commit", "GroupCommit._write_group", "db: a group's writer (loop side)"),
    ("db.sqlite", "SQLiteStore._transaction", "db: a SQLite transaction (loop side)"),
    # the coach: grading after each round (the worker's CPU is its own process's), and its
    # command (the name the cog calls it by)
    ("bot.tables.coach", "Coach._grade", "coach: a round graded (loop side)"),
    ("cogs.table.commands", "coach_answer", "/blackjack coach: its answer"),
)
#: Sections a phase may not go through, not missed when never called: the coach's command
#: (``--coach``), and its grading, which runs behind the rounds at niceness 19 (a short
#: phase may end before the first is graded).
WHEN_ASKED = frozenset({"/blackjack coach: its answer", "coach: a round graded (loop side)"})

_SPENT: dict[str, list[int]] = {}


def _add(label: str, nanoseconds: int) -> None:
    entry = _SPENT.setdefault(label, [0, 0])
    entry[0] += nanoseconds
    entry[1] += 1


class _Steps:
    """Awaits a coroutine, adding the thread CPU of each of its steps to ``label``."""

    __slots__ = ("coro", "label")

    def __init__(self, coro: Any, label: str) -> None:
        self.coro, self.label = coro, label

    def __await__(self) -> Generator[Any, Any, Any]:
        coro, value, error, spent = self.coro, None, None, 0
        try:
            while True:
                began = time.thread_time_ns()
                try:
                    future = coro.throw(error) if error is not None else coro.send(value)
                except StopIteration as stop:
                    return stop.value
                finally:
                    spent += time.thread_time_ns() - began
                try:
                    value, error = (yield future), None
                except BaseException as raised:  # handed to the coroutine
                    value, error = None, raised
        finally:
            _add(self.label, spent)


def _timed(function: Callable[..., Any], label: str) -> Callable[..., Any]:
    if inspect.iscoroutinefunction(function):

        @functools.wraps(function)
        async def steps(*args: Any, **kwargs: Any) -> Any:
            return await _Steps(function(*args, **kwargs), label)

        return steps

    @functools.wraps(function)
    def timed(*args: Any, **kwargs: Any) -> Any:
        began = time.thread_time_ns()
        try:
            return function(*args, **kwargs)
        finally:
            _add(label, time.thread_time_ns() - began)

    return timed


def target(module_name: str, path: str) -> tuple[Any, str, Callable[..., Any]]:
    """Where a section's function lives: (its owner, its name, the function); ImportError or
    AttributeError when it has moved (``tests/bench_tests/test_sections.py`` tries each)."""
    owner: Any = importlib.import_module(module_name)
    *parents, name = path.split(".")
    for parent in parents:
        owner = getattr(owner, parent)
    return owner, name, getattr(owner, name)


def install() -> None:
    """Wrap every section (before the bot is built: its listeners are read at add_cog)."""
    for module_name, path, label in SECTIONS:
        owner, name, function = target(module_name, path)
        setattr(owner, name, _timed(function, label))


def reset() -> None:
    """A measured phase begins."""
    _SPENT.clear()


def write(path: str, interactions: int, loop_cpu_s: float) -> None:
    """A measured phase ended: append its line to ``path``."""
    line = {
        "interactions": interactions,
        "loop_cpu_ms": loop_cpu_s * 1000,
        "sections": {label: [ns / 1e6, calls] for label, (ns, calls) in _SPENT.items()},
    }
    with open(path, "a", encoding="utf-8") as out:
        out.write(json.dumps(line) + "\n")


def read(path: str, offset: int = 0) -> list[dict[str, Any]]:
    """The phases recorded in ``path`` from byte ``offset`` on (a file appended to by each run)."""
    with open(path, encoding="utf-8") as lines:
        lines.seek(offset)
        return [json.loads(line) for line in lines if line.strip()]


def phase_lines(phase: dict[str, Any], title: str, floor_us: float | None = None) -> list[str]:
    """One phase: every section's CPU per interaction and per call, the slowest first; with
    ``floor_us`` (the table-sized floor's CPU an interaction), each also as a share of it.
    A section never called in the phase is named: it has moved, or the bot no longer goes
    through it, and its time shows up nowhere."""
    count = max(1, phase["interactions"])
    loop = phase["loop_cpu_ms"] * 1000 / count
    head = f"{title}: {phase['interactions']} interactions, loop {loop:.0f} us each"
    if floor_us:
        head += (
            f" (the loop alone: {loop / floor_us:.2f}x the table-sized floor's {floor_us:.0f} us)"
        )
    out = [head]
    sections = sorted(phase["sections"].items(), key=lambda item: -item[1][0])
    for label, (ms, calls) in sections:
        each = ms * 1000 / count
        share = f"  {100 * each / floor_us:5.1f}% of the floor" if floor_us else ""
        out.append(
            f"  {label:40} {each:7.1f} us/interaction, {calls:6} x "
            f"{ms * 1000 / max(1, calls):7.1f} us{share}"
        )
    idle = [
        label
        for _, _, label in SECTIONS
        if label not in phase["sections"] and label not in WHEN_ASKED
    ]
    if idle:
        out.append(f"  never called in this phase: {', '.join(idle)}")
    return out


def show(path: str) -> None:
    """Each phase of ``path``: every section's CPU per interaction and per call."""
    for number, phase in enumerate(read(path), 1):
        print("\n".join(phase_lines(phase, f"phase {number}")))


if __name__ == "__main__":
    show(sys.argv[1])
