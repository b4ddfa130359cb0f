"""The strategy worker's process (a ``ProcessPoolExecutor`` of one, so computing never
holds the bot's GIL), and the jobs of a Hint it runs.

A thread working out a chart holds the interpreter lock in 5 ms turns. On a busy
machine the OS preempts it while it holds the lock, and the event loop then waits
for the lock, not for a core: ``bench/exact_speed.py --loop-stall`` measured the
loop's 5 ms ticks up to 27 to 43 ms late while a thread worked out a 1- or 2-deck
chart, where the idle loop's were 4 to 19 ms late. A worker process competes for a
core only, as any other process does.

The pool adds what the bot needs around ``ProcessPoolExecutor``: the worker is
started by ``spawn`` (a fresh interpreter: nothing of the bot's threads, sockets or
event loop, which a fork would copy mid-use) and ignores Ctrl-C (the bot's own
stop ends it); a worker that died (killed for its memory, say) fails the jobs under
way, and the next job starts another; ``shutdown`` ends a job under way at once, so
a chart still being worked out never holds up the bot's exit; and the worker ends by
itself when the bot has gone, whatever ended it (a SIGKILL, an OOM kill), instead of
living on under PID 1 with Python's resource tracker. The jobs live here, a light
module to import in the worker, not in ``bot.tables``.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import os
import signal
import threading
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.sharedctypes import Synchronized
from typing import Final, ParamSpec, TypeVar

from bot.engine import Action, Card, Rules
from bot.engine.analysis import decision_values

#: The niceness the coach's grading worker adds to its own: the lowest priority, so the
#: grading of every round takes only CPU that no click, Hint or table edit wants.
BACKGROUND_NICE: Final = 19

P = ParamSpec("P")
T = TypeVar("T")


class StrategyPool(Executor):
    """One worker process running jobs in turn, started by the first job.

    Jobs travel by pickle, so a job is a module's function with picklable arguments.
    """

    def __init__(self, *, nice: int = 0) -> None:
        #: Added to the worker's niceness as it starts: a background worker (the coach's
        #: grading) gets a core only when nothing else wants it.
        self.nice = nice
        self._context = multiprocessing.get_context("spawn")
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None
        #: The worker's process id, written by the worker as it starts (0 until then).
        self._pid: Synchronized[int] | None = None
        self._closed = False

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        """Queue ``fn(*args, **kwargs)`` for the worker; RuntimeError once shut down."""
        with self._lock:
            if self._closed:
                raise RuntimeError("the strategy worker is shut down")
            if self._pool is not None:
                try:
                    return self._pool.submit(fn, *args, **kwargs)
                except BrokenProcessPool:  # its worker died: its jobs failed, start another
                    self._pool.shutdown(wait=False)
            self._pid = self._context.Value("i", 0)
            self._pool = ProcessPoolExecutor(
                max_workers=1,
                mp_context=self._context,
                initializer=_started,
                initargs=(self._pid, self.nice),
            )
            return self._pool.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Refuse new jobs and end the worker at once: the job under way and those queued
        fail with ``BrokenProcessPool`` (or, with ``cancel_futures``, are cancelled)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            pool, pid = self._pool, self._pid
        if pool is None:
            return
        # Ended first: the pool then fails what the worker held, and ``wait`` has only the
        # pool's own threads and the ended process to join.
        if pid is not None and pid.value:
            with contextlib.suppress(ProcessLookupError):  # it had ended already
                os.kill(pid.value, signal.SIGTERM)
        pool.shutdown(wait=wait, cancel_futures=cancel_futures)


def _started(pid: Synchronized[int], nice: int) -> None:
    """In the worker as it starts: Ctrl-C in a terminal reaches the whole process group,
    and the bot's graceful stop, not the worker, answers it; watch for the bot's end;
    lower its priority by ``nice``; then say who it is."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if nice:
        os.nice(nice)
    threading.Thread(target=_end_with_parent, name="parent-watch", daemon=True).start()
    pid.value = os.getpid()


#: The worker's exit status when the bot has gone without ending it.
ORPHANED: Final = 3


def _end_with_parent() -> None:
    """Wait for the bot's end, then end this worker at once, whatever job is under way.

    A spawned process's parent sentinel is a pipe that only the parent holds open, so it
    turns readable when the parent has exited for any reason, a SIGKILL included. The
    worker's end closes its copy of the resource tracker's pipe, the last one open, and
    the tracker then ends too.
    """
    parent = multiprocessing.parent_process()
    if parent is None:  # not a spawned worker: nothing to watch
        return
    multiprocessing.connection.wait([parent.sentinel])
    os._exit(ORPHANED)


def legal_values(
    rules: Rules, cards: Sequence[Card], up: Card, legal: Collection[Action]
) -> dict[Action, float]:
    """A Hint's figures: what each legal action is worth for these cards (a job)."""
    values = decision_values(
        rules,
        [card.value for card in cards],
        up.value,
        pair=Action.SPLIT in legal,
    )
    return {action: value for action, value in values.items() if action in legal}


#: The hand whose values ``warm_values`` works out against every up card.
_WARMING_HAND: Final = (10, 6)


def warm_values(rules: Rules) -> None:
    """Work out the dealer's odds against every up card that the exact figures of
    ``rules`` start from, so that a Hint's figures then take milliseconds (a job)."""
    for up in range(1, 11):
        decision_values(rules, _WARMING_HAND, up)
