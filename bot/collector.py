"""The cyclic garbage collector, tuned for a process that serves interactions.

Each interaction discord.py hands the bot is a reference cycle (the response object it
caches points back at it), and a click allocates a few hundred container objects more
that die by reference counting soon after. With CPython's
default thresholds, (700, 10, 10), a busy bot ran a young collection every few
interactions and promoted the cycles of interactions still being answered; the
full collections that followed walked every object the bot holds (guilds, members,
open tables) several times a second under load. A young generation of
:data:`YOUNG` objects lets most of a click's objects die before any collection sees
them, so collections are fewer and promote less; :func:`release_when_done` breaks the
cycle of each handled interaction, so it is freed without a collection at all.
"""

from __future__ import annotations

import asyncio
import gc
from typing import Any, Final

#: Allocations (net of frees) of container objects between two young collections.
YOUNG: Final = 20_000
#: Young collections between two of the middle generation, middle between two full ones
#: (CPython's defaults; a full collection also waits for the long-lived to grow by 25%).
MIDDLE: Final = 10
OLD: Final = 10


def tune() -> None:
    """Set the collector's thresholds for serving (the process's entry point calls this)."""
    gc.set_threshold(YOUNG, MIDDLE, OLD)


def release_when_done(interaction: Any, task: asyncio.Task[Any] | None) -> None:
    """Once ``task`` (which handles ``interaction``, error handlers included) has ended,
    break the interaction's reference cycle, so it is freed at once, with the payload and
    message it holds, instead of by the next collections.

    The cycle is discord.py's: ``interaction.response`` (cached on the interaction) points
    back to it as ``_parent``. The response object stays (its ``type`` still reads); it
    can answer nothing more, and nothing answers a handled interaction afterwards.
    Call after anything else that reads the interaction when the task ends (the metrics).
    """
    if task is None:
        return

    def release(_: asyncio.Task[Any]) -> None:
        response = getattr(interaction, "_cs_response", None)
        if response is not None and hasattr(response, "_parent"):
            response._parent = None

    task.add_done_callback(release)
