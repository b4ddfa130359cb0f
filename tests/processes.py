"""The processes a test leaves behind, read from /proc (Linux, as the tests run).

A test session marks its environment (``SESSION_MARK``) as it starts, so every process
it starts with this environment carries the mark, even one re-parented to PID 1 after
its parent died. A zombie has ended: only its exit status waits to be collected.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

#: The environment variable that names the test session a process belongs to.
SESSION_MARK: Final = "BLACKJACK_TEST_SESSION"
PROC: Final = Path("/proc")


@dataclass(frozen=True)
class Running:
    """A live process: its id, process group, parent and command line."""

    pid: int
    group: int
    parent: int
    command: str


def _read(pid: int) -> Running | None:
    """The process ``pid`` if it is alive (not a zombie), else None."""
    try:
        stat = (PROC / str(pid) / "stat").read_text()
        argv = (PROC / str(pid) / "cmdline").read_bytes()
    except (FileNotFoundError, ProcessLookupError):
        return None
    # "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses.
    state, parent, group = stat[stat.rindex(")") + 2 :].split()[:3]
    if state in ("Z", "X"):
        return None
    command = argv.replace(b"\0", b" ").decode(errors="replace").strip()
    return Running(pid, int(group), int(parent), command)


def alive(where: Callable[[Running], bool] = lambda _: True) -> list[Running]:
    """Every live process that ``where`` accepts."""
    found = []
    for entry in PROC.iterdir():
        if entry.name.isdigit() and (process := _read(int(entry.name))) and where(process):
            found.append(process)
    return found


def in_group(group: int) -> list[Running]:
    """The live processes of process group ``group``."""
    return alive(lambda p: p.group == group)


def marked(session: str) -> list[Running]:
    """The live processes, other than this one, whose environment carries ``session``."""
    wanted = f"{SESSION_MARK}={session}".encode()

    def carries(process: Running) -> bool:
        if process.pid == os.getpid():
            return False
        try:
            return wanted in (PROC / str(process.pid) / "environ").read_bytes().split(b"\0")
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            return False

    return alive(carries)


def gone_within(
    seconds: float, survivors: Callable[[], list[Running]], poll: float = 0.05
) -> list[Running]:
    """Poll ``survivors`` until it is empty or ``seconds`` have passed; what is left."""
    deadline = time.monotonic() + seconds
    while (left := survivors()) and time.monotonic() < deadline:
        time.sleep(poll)
    return left


def found_within(
    seconds: float, find: Callable[[], list[Running]], poll: float = 0.05
) -> list[Running]:
    """Poll ``find`` until it finds a process or ``seconds`` have passed; what it found."""
    deadline = time.monotonic() + seconds
    while not (found := find()) and time.monotonic() < deadline:
        time.sleep(poll)
    return found


def within(seconds: float, condition: Callable[[], bool], poll: float = 0.05) -> bool:
    """Poll ``condition`` until it holds or ``seconds`` have passed; whether it held."""
    deadline = time.monotonic() + seconds
    while not (held := condition()) and time.monotonic() < deadline:
        time.sleep(poll)
    return held
