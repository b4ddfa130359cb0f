"""How ``simulate`` shows a long run's progress on stderr: a bar redrawn in place on a
terminal; elsewhere (a file, a pipe, a CI log) a line every ``LINE_EVERY`` seconds, so a
run redirected to a file is not silent for minutes, nor fills it with redraws."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol, TextIO

#: Seconds a run goes before the progress bar appears, and between two redraws.
BAR_DELAY = 1.0
BAR_EVERY = 0.1
#: Seconds between two progress lines when stderr is not a terminal.
LINE_EVERY = 10.0


class Progress(Protocol):
    """What a run reports its rounds played to."""

    def update(self, done: int) -> None: ...

    def close(self) -> None: ...


def progress_for(
    total: int, stream: TextIO, clock: Callable[[], float] = time.monotonic
) -> Progress:
    """A bar when ``stream`` is a terminal, else progress lines."""
    if stream.isatty():
        return ProgressBar(total, stream, clock)
    return ProgressLines(total, stream, clock)


class ProgressBar:
    """A one-line bar on a terminal: shown once a run has taken ``BAR_DELAY`` seconds."""

    def __init__(self, total: int, stream: TextIO, clock: Callable[[], float] = time.monotonic):
        self.total = total
        self.stream = stream
        self.clock = clock
        self.start = clock()
        self.last = self.start
        self.shown = False

    def update(self, done: int) -> None:
        """Redraw for ``done`` rounds played, at most every ``BAR_EVERY`` seconds."""
        now = self.clock()
        if now - self.start < BAR_DELAY or now - self.last < BAR_EVERY:
            return
        self.last = now
        self.shown = True
        share = done / self.total
        filled = int(30 * share)
        rate = done / (now - self.start)
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (30 - filled)}] {share:6.1%}  "
            f"{done:,}/{self.total:,} rounds  {rate:,.0f}/s"
        )
        self.stream.flush()

    def close(self) -> None:
        """Clear the bar's line, if it was drawn."""
        if self.shown:
            self.stream.write("\r\x1b[2K")
            self.stream.flush()


class ProgressLines:
    """A line every ``LINE_EVERY`` seconds: rounds played, share, speed."""

    def __init__(self, total: int, stream: TextIO, clock: Callable[[], float] = time.monotonic):
        self.total = total
        self.stream = stream
        self.clock = clock
        self.start = clock()
        self.last = self.start

    def update(self, done: int) -> None:
        """Write a line for ``done`` rounds played if ``LINE_EVERY`` seconds have passed."""
        now = self.clock()
        if now - self.last < LINE_EVERY:
            return
        self.last = now
        rate = done / (now - self.start)
        self.stream.write(
            f"{done:,} of {self.total:,} rounds played ({done / self.total:.1%}), "
            f"{rate:,.0f} a second\n"
        )
        self.stream.flush()

    def close(self) -> None:
        """Nothing to clear: each line stays as written."""
