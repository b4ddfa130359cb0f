"""CPU of the bot under ``bench/load.py`` beyond its event loop thread: its other threads
(the database's), and the processes it started (the strategy workers: the Hint's, and the
coach's grading worker at niceness 19), read from Linux's /proc (empty elsewhere)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")


def _stat(where: Path) -> list[str]:
    """The fields of a /proc stat file after the command's name (field 3 first)."""
    return (where / "stat").read_text().rsplit(")", 1)[1].split()


def thread_cpu() -> dict[str, float]:
    """CPU seconds of each thread of this process but the main one, by name."""
    names = {thread.native_id: thread.name for thread in threading.enumerate()}
    main = threading.main_thread().native_id
    out: dict[str, float] = {}
    for task in Path("/proc/self/task").glob("*"):
        try:
            fields = _stat(task)
        except OSError:
            continue  # ended meanwhile
        tid = int(task.name)
        if tid == main:
            continue
        name = names.get(tid) or (task / "comm").read_text().strip()
        out[name] = out.get(name, 0.0) + (int(fields[11]) + int(fields[12])) / TICK
    return out


#: A process's label by a word of its command line: what the bot starts.
KINDS = (
    ("resource_tracker", "multiprocessing's resource tracker"),
    ("multiprocessing", "the Hint's strategy worker (or one still starting)"),
)


def children_cpu() -> dict[int, tuple[str, float]]:
    """Each living process descended from this one: pid -> (what it is, CPU seconds), and
    pid 0 -> the CPU of those that ended and were waited for (``os.times``)."""
    parent_of: dict[int, int] = {}
    stats: dict[int, list[str]] = {}
    for where in Path("/proc").glob("[0-9]*"):
        try:
            stats[int(where.name)] = fields = _stat(where)
        except OSError:
            continue
        parent_of[int(where.name)] = int(fields[1])
    ours, found = {os.getpid()}, True
    while found:
        found = False
        for pid, parent in parent_of.items():
            if parent in ours and pid not in ours:
                ours.add(pid)
                found = True
    ours.discard(os.getpid())
    own_nice = os.nice(0)
    ended = os.times()
    out = {0: ("processes that ended", ended.children_user + ended.children_system)}
    for pid in ours:
        fields = stats[pid]
        out[pid] = (
            _kind(pid, int(fields[16]) - own_nice),
            (int(fields[11]) + int(fields[12])) / TICK,
        )
    return out


def _kind(pid: int, nicer: int) -> str:
    if nicer > 0:
        return f"the coach's grading worker (nice +{nicer})"
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        command = ""
    return next((kind for word, kind in KINDS if word in command), f"process {pid}")


def children_spent(
    before: dict[int, tuple[str, float]], after: dict[int, tuple[str, float]]
) -> dict[str, float]:
    """CPU seconds each kind of descendant spent between two :func:`children_cpu` readings
    (a process started meanwhile: all of its CPU)."""
    out: dict[str, float] = {}
    for pid, (kind, seconds) in after.items():
        spent = seconds - before.get(pid, (kind, 0.0))[1]
        if spent > 0:
            out[kind] = out.get(kind, 0.0) + spent
    return out
