"""The cyclic garbage collector, tuned for a process that serves interactions.

Each interaction discord.py hands the bot is a reference cycle (the response object it
caches points back at it), and a click allocates a few hundred container objects more
that die by reference counting soon after. With CPython's default thresholds,
(700, 10, 10), a busy bot ran a young collection every few interactions and promoted
the cycles of interactions still being answered; the full collections that followed
walked every object the bot holds (guilds, members, open tables) several times a
second under load. A young generation of :data:`YOUNG` objects lets most of a click's
objects die before any collection sees them, so collections are fewer and promote less.
"""

from __future__ import annotations

import gc
from typing import Final

#: Allocations (net of frees) of container objects between two young collections.
YOUNG: Final = 20_000
#: Young collections between two of the middle generation, middle between two full ones
#: (CPython's defaults; a full collection also waits for the long-lived to grow by 25%).
MIDDLE: Final = 10
OLD: Final = 10


def tune() -> None:
    """Set the collector's thresholds for serving (the process's entry point calls this)."""
    gc.set_threshold(YOUNG, MIDDLE, OLD)
