"""The strategy worker's computing, in a child process: it never holds the bot's GIL.

A thread working out a chart holds the interpreter lock in 5 ms turns. On a busy
machine the OS preempts it while it holds the lock, and the event loop then waits
for the lock, not for a core: ``bench/exact_speed.py --loop-stall`` measured the
loop's 5 ms ticks up to 27 to 43 ms late while a thread worked out a 1- or 2-deck
chart, where the idle loop's were 4 to 19 ms late. A child process competes for a
core only, as any other process does.
"""

from __future__ import annotations

import multiprocessing
import threading
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")


class ChildProcess:
    """One daemon child process running calls in turn, started by the first call.

    ``call`` blocks its caller (the strategy worker's thread) without the GIL until the
    child answers; the function and its arguments travel by pickle, so the function is
    a module's. The child dies with the bot, and ``close`` ends it at once. A child
    that died (killed for its memory, say) fails the call under way, and the next call
    starts another.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        #: Held to close the pipe: a call under way and ``close`` may both close it at once,
        #: and a second close of its descriptor fails (or closes another file's).
        self._closing = threading.Lock()
        self._process: BaseProcess | None = None
        self._pipe: Connection | None = None
        self._closed = False

    def call(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """``fn(*args, **kwargs)`` worked out in the child (its exception raised here)."""
        with self._lock:
            if self._closed:
                raise RuntimeError("the strategy process is closed")
            if self._pipe is None:
                # spawn: a fresh interpreter, nothing of the bot's threads or sockets.
                context = multiprocessing.get_context("spawn")
                self._pipe, theirs = context.Pipe()
                self._process = context.Process(
                    target=_serve, args=(theirs,), name="strategy", daemon=True
                )
                self._process.start()
                theirs.close()
                if self._closed:  # close() came while it started: it could not end it
                    self._process.terminate()
                    self._process.join()
                    raise RuntimeError("the strategy process is closed")
            try:
                self._pipe.send((fn, args, kwargs))
                ok, result = self._pipe.recv()
            except (EOFError, OSError):
                self._close_pipe(self._pipe)
                self._pipe = self._process = None
                raise
        if not ok:
            raise result
        return result  # type: ignore[no-any-return]

    def close(self) -> None:
        """End the child, whatever it is working out; later calls are refused."""
        self._closed = True
        # (A call under way sees the end of the pipe and lets go of both.)
        process, pipe = self._process, self._pipe
        if process is not None and process.pid is not None:  # else call() ends it, started
            process.terminate()
            process.join()
        if pipe is not None:
            self._close_pipe(pipe)

    def _close_pipe(self, pipe: Connection) -> None:
        with self._closing:
            if not pipe.closed:
                pipe.close()


def _serve(pipe: Connection) -> None:
    """The child: answer calls until the bot's end of the pipe closes."""
    while True:
        try:
            fn, args, kwargs = pipe.recv()
        except EOFError:
            return
        answer: tuple[bool, Any]
        try:
            answer = (True, fn(*args, **kwargs))
        except Exception as exc:
            answer = (False, exc)
        pipe.send(answer)
