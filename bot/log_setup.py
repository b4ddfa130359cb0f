"""Logging: readable text by default, or (``LOG_FORMAT=json``) one JSON object a line.

A JSON line carries time, level, logger and message, the exception if any,
every ``extra=`` field, and the guild, channel, table and round the log line
is about when known (``bot.log_context.bind``, called where an interaction
or a table change is handled).

Every line, at every level and in either format, is written with its secrets
replaced by ``***``: interaction tokens (in discord.py's DEBUG gateway events and
in webhook and interaction URLs, which act as that interaction's credentials for
15 minutes), the bot's own token, and an UnbelievaBoat token (as typed into its modal,
and in the SQL that stores it).
"""

from __future__ import annotations

import json
import logging
import re
import sys
from collections.abc import Iterable
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


#: An interaction's token in a URL path or as a ``token`` field: a dict's repr, JSON, or
#: JSON inside a JSON line (its quotes escaped).
_TOKENS: Final = re.compile(
    r"(?P<path>/(?:webhooks|interactions)/\d+/)[^/\s?#'\"\\]+"
    r"|(?P<field>\\?['\"]token\\?['\"]\s*:\s*\\?['\"])[^'\"\\]+"
)


#: The field an UnbelievaBoat token is typed into (cogs.economy_bridge), as a modal's
#: submission shows it in a DEBUG gateway event: the object holding it, whatever its order.
UNB_TOKEN_FIELD: Final = "unbelievaboat-token"
_UNB_FIELD: Final = re.compile(r"\{[^{}]*" + UNB_TOKEN_FIELD + r"[^{}]*\}")
_FIELD_VALUE: Final = re.compile(r"(\\?['\"]value\\?['\"]\s*:\s*\\?['\"])[^'\"\\]*")
#: A bridge's token in the SQL a database driver logs at DEBUG: the statement that stores it
#: (its parameters, in order, are the guild id and then the token).
_UNB_SQL: Final = re.compile(r"(INSERT INTO economy_bridges.*?\(\d+, )'[^']*'")


def redact(line: str, secrets: Iterable[str] = ()) -> str:
    """``line`` with every interaction token, UnbelievaBoat token and each of ``secrets``
    replaced by ``***``."""
    line = _TOKENS.sub(lambda m: f"{m['path'] or m['field']}***", line)
    line = _UNB_FIELD.sub(lambda m: _FIELD_VALUE.sub(r"\1***", m[0]), line)
    line = _UNB_SQL.sub(r"\1'***'", line)
    for secret in secrets:
        if secret:
            line = line.replace(secret, "***")
    return line


class RedactingFormatter(logging.Formatter):
    """Another formatter's lines, tracebacks included, with their secrets replaced."""

    def __init__(self, inner: logging.Formatter, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self.inner = inner
        self.secrets = tuple(secrets)

    def format(self, record: logging.LogRecord) -> str:
        return redact(self.inner.format(record), self.secrets)


def setup_logging(level: int, log_format: str, *, secrets: Iterable[str] = ()) -> None:
    """Log to stderr at ``level`` in ``log_format`` (``text`` or ``json``), process-wide,
    without interaction tokens or any of ``secrets`` (the bot's token)."""
    root = logging.getLogger()
    if log_format != "json":
        if sys.stderr.isatty():
            discord.utils.setup_logging(level=level, root=True)  # its colours, on a terminal
        else:
            # Not discord.py's choice, which colours inside any container (docker logs, files).
            discord.utils.setup_logging(level=level, root=True, formatter=PLAIN)
    else:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(JsonFormatter())
        for old in list(root.handlers):
            root.removeHandler(old)
        root.addHandler(handler)
        root.setLevel(level)
    for each in root.handlers:
        each.setFormatter(RedactingFormatter(each.formatter or logging.Formatter(), secrets))
