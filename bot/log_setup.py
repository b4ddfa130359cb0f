"""Logging: readable text by default, or (``LOG_FORMAT=json``) one JSON object a line.

A JSON line carries time, level, logger and message, the exception if any,
every ``extra=`` field, and the guild, channel, table and round the log line
is about when known (``bot.log_context.bind``, called where an interaction
or a table change is handled).
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any, Final

import discord

from bot.log_context import current

#: Attributes every LogRecord has; anything else on a record came from ``extra=``.
_STANDARD: Final = frozenset(
    {*logging.LogRecord("", 0, "", 0, "", None, None).__dict__, "message", "asctime", "taskName"}
)


#: Text lines without colour, laid out as discord.py's coloured ones.
PLAIN: Final = logging.Formatter(
    "[{asctime}] [{levelname:<8}] {name}: {message}", "%Y-%m-%d %H:%M:%S", style="{"
)


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message, the ids known, extras."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        line.update(current())
        for key, value in record.__dict__.items():
            if key not in _STANDARD and not key.startswith("_"):
                line[key] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, default=str, ensure_ascii=False)


def setup_logging(level: int, log_format: str) -> None:
    """Log to stderr at ``level`` in ``log_format`` (``text`` or ``json``), process-wide."""
    if log_format != "json":
        if sys.stderr.isatty():
            discord.utils.setup_logging(level=level, root=True)  # its colours, on a terminal
        else:
            # Not discord.py's choice, which colours inside any container (docker logs, files).
            discord.utils.setup_logging(level=level, root=True, formatter=PLAIN)
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
