"""The guild, channel, table and round a task is working on, for its log lines.

:func:`bind` is called where an interaction or a table change is handled; every
line logged from that task (and from the tasks it starts) then carries the ids
(the JSON log format writes them). Pure stdlib, so ``bot.tables`` may use it.
"""

from __future__ import annotations

import contextvars
from typing import Any

_context: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar(
    "blackjack_log_context", default=None
)


def bind(**ids: Any) -> None:
    """Attach ids (``guild_id=..``, ``table_id=..``) to the log lines of this task from now on.

    Ids given as None are left out (unknown); others replace earlier values.
    """
    known = {key: value for key, value in ids.items() if value is not None}
    if known:
        _context.set({**(_context.get() or {}), **known})


def current() -> dict[str, Any]:
    """The ids bound in this task."""
    return dict(_context.get() or {})
