"""Settings for ``python -m bot``, from the environment and an optional ``.env`` file."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import dotenv
import dotenv.main

from db import redacted_url

#: Relative to the folder the bot starts in, as is ``.env``.
DEFAULT_DATABASE_URL = "sqlite:///data/blackjack.sqlite3"
DEFAULT_UNBELIEVABOAT_API_URL = "https://unbelievaboat.com/api"
#: Metrics are for the host's Prometheus, not the internet: loopback unless told otherwise.
DEFAULT_METRICS_HOST = "127.0.0.1"
LOG_FORMATS = ("text", "json")
DOTENV = Path(".env")

TOKEN_HELP = (
    "Create an application at https://discord.com/developers/applications, open "
    "its Bot page, press 'Reset Token', and put the token in DISCORD_TOKEN (in the "
    "environment or in a .env file in the folder you start the bot from; see .env.example)."
)


class ConfigError(Exception):
    """A setting is missing or malformed; the message names the setting and the fix."""


#: A table message older than this (seconds) is posted anew at a round boundary: Discord
#: refuses edits to a message older than an hour (error 30046), so 50 minutes leaves room.
TABLE_MESSAGE_MAX_AGE_S: Final = 3000


@dataclass(frozen=True, slots=True)
class Config:
    token: str
    database_url: str = DEFAULT_DATABASE_URL
    log_level: int = logging.INFO
    dev_guild_id: int | None = None
    api_base: str | None = None
    gateway_url: str | None = None
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    #: A table message older than this is posted anew at a round boundary (see the default).
    table_message_max_age_s: int = TABLE_MESSAGE_MAX_AGE_S
    #: Upload the card pictures as application emojis and deal with them (``CARD_PICTURES``,
    #: on unless ``off``).
    card_pictures: bool = True
    #: ``text`` (readable) or ``json`` (one object a line, for log collectors).
    log_format: str = "text"
    #: Serve Prometheus metrics on this port (None: no endpoint).
    metrics_port: int | None = None
    metrics_host: str = DEFAULT_METRICS_HOST
    #: UnbelievaBoat's API, for servers bridged to its economy (``UNBELIEVABOAT_API_URL``;
    #: the tests and the playground point it at their fake).
    unbelievaboat_api_url: str = DEFAULT_UNBELIEVABOAT_API_URL


def read_dotenv(path: Path) -> dict[str, str]:
    """The settings of a ``.env`` file, read by python-dotenv (``#`` comments, quotes,
    ``export``; no ``${VAR}`` expansion): {} when there is none; a line that is not
    KEY=VALUE is a ConfigError naming it, where python-dotenv would skip it."""
    if not path.is_file():
        return {}
    unparsed = _UnparsedLines()
    logger = logging.getLogger(dotenv.main.__name__)
    logger.addFilter(unparsed)
    try:
        values = dotenv.dotenv_values(path, interpolate=False)
    finally:
        logger.removeFilter(unparsed)
    if unparsed.lines:
        raise ConfigError(f"{path}:{unparsed.lines[0]}: expected KEY=VALUE")
    for key, value in values.items():
        if value is None:
            raise ConfigError(f"{path}: expected KEY=VALUE, got {key!r}")
    return {key: value for key, value in values.items() if value is not None}


class _UnparsedLines(logging.Filter):
    """python-dotenv's warning about a line it could not parse, kept (with its line
    number) to be raised instead of logged."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[object] = []

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.WARNING and isinstance(record.args, tuple) and record.args:
            self.lines.append(record.args[-1])
            return False
        return True


def environment(dotenv: Path | None = DOTENV) -> dict[str, str]:
    """The process environment over the ``.env`` file: a real variable always wins."""
    merged = read_dotenv(dotenv) if dotenv is not None else {}
    merged.update(os.environ)
    return merged


def _int_setting(env: Mapping[str, str], name: str) -> int | None:
    text = env.get(name, "").strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, not {text!r}") from None


def load_config(env: Mapping[str, str], *, require_token: bool = True) -> Config:
    """Build a Config from settings; raises ConfigError with the fix for a bad one."""
    token = env.get("DISCORD_TOKEN", "").strip()
    if require_token and not token:
        raise ConfigError(
            f"DISCORD_TOKEN is not set (looked in the environment and in {DOTENV.resolve()}). "
            f"{TOKEN_HELP}"
        )

    level = _log_level(env)
    database_url = _database_url(env)
    _check_endpoints(env)
    shard_count, shard_ids = _shards(env)
    max_age = _int_setting(env, "TABLE_MESSAGE_MAX_AGE_S")
    if max_age is not None and not 60 <= max_age <= 3540:
        raise ConfigError("TABLE_MESSAGE_MAX_AGE_S must be 60 to 3540 (under Discord's hour)")

    log_format = env.get("LOG_FORMAT", "").strip().lower() or "text"
    if log_format not in LOG_FORMATS:
        raise ConfigError(f"LOG_FORMAT must be text or json, not {log_format!r}")
    metrics_port = _metrics_port(env)
    metrics_host = env.get("METRICS_HOST", "").strip() or DEFAULT_METRICS_HOST

    return Config(
        token=token,
        database_url=database_url,
        log_level=level,
        dev_guild_id=_int_setting(env, "DEV_GUILD_ID"),
        api_base=env.get("DISCORD_API_BASE", "").strip() or None,
        gateway_url=env.get("DISCORD_GATEWAY_URL", "").strip() or None,
        shard_count=shard_count,
        shard_ids=shard_ids,
        table_message_max_age_s=TABLE_MESSAGE_MAX_AGE_S if max_age is None else max_age,
        card_pictures=_switch(env, "CARD_PICTURES", default=True),
        log_format=log_format,
        metrics_port=metrics_port,
        metrics_host=metrics_host,
        unbelievaboat_api_url=env.get("UNBELIEVABOAT_API_URL", "").strip()
        or DEFAULT_UNBELIEVABOAT_API_URL,
    )


def _log_level(env: Mapping[str, str]) -> int:
    """LOG_LEVEL's logging level (INFO if unset)."""
    level_name = env.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
    level = logging.getLevelName(level_name)
    if not isinstance(level, int):
        raise ConfigError(
            f"LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL; not {level_name!r}"
        )
    return level


def _database_url(env: Mapping[str, str]) -> str:
    """DATABASE_URL (the SQLite file by default), checked to name a backend."""
    database_url = env.get("DATABASE_URL", "").strip() or DEFAULT_DATABASE_URL
    if not database_url.startswith(("sqlite:///", "postgresql://", "postgres://")):
        raise ConfigError(
            "DATABASE_URL must start with sqlite:/// (a file) or postgresql:// (a server), "
            f"not {redacted_url(database_url)!r}"
        )
    return database_url


def _check_endpoints(env: Mapping[str, str]) -> None:
    """DISCORD_API_BASE and DISCORD_GATEWAY_URL, when set, are http(s) and ws(s) URLs."""
    for name in ("DISCORD_API_BASE", "DISCORD_GATEWAY_URL"):
        value = env.get(name, "").strip()
        schemes = ("http://", "https://") if name == "DISCORD_API_BASE" else ("ws://", "wss://")
        if value and not value.startswith(schemes):
            raise ConfigError(f"{name} must start with {' or '.join(schemes)}, not {value!r}")


def _shards(env: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT and SHARD_IDS, checked together."""
    shard_count = _int_setting(env, "SHARD_COUNT")
    shard_ids: tuple[int, ...] | None = None
    ids_text = env.get("SHARD_IDS", "").strip()
    if ids_text:
        shard_ids = _parse_shard_ids(ids_text)
        if shard_count is None:
            raise ConfigError("SHARD_IDS needs SHARD_COUNT, the total number of shards")
        if any(i >= shard_count for i in shard_ids):
            raise ConfigError(f"SHARD_IDS must be below SHARD_COUNT ({shard_count})")
    if shard_count is not None and shard_count < 1:
        raise ConfigError("SHARD_COUNT must be 1 or more")
    return shard_count, shard_ids


def _metrics_port(env: Mapping[str, str]) -> int | None:
    """METRICS_PORT, a port number, or None (no metrics endpoint)."""
    metrics_port = _int_setting(env, "METRICS_PORT")
    if metrics_port is not None and not 0 <= metrics_port <= 65_535:
        raise ConfigError(f"METRICS_PORT must be a port number (0 to 65535), not {metrics_port}")
    return metrics_port


def _switch(env: Mapping[str, str], name: str, *, default: bool) -> bool:
    text = env.get(name, "").strip().lower()
    if not text:
        return default
    if text in ("1", "on", "yes", "true"):
        return True
    if text in ("0", "off", "no", "false"):
        return False
    raise ConfigError(f"{name} must be on or off, not {text!r}")


def _parse_shard_ids(text: str) -> tuple[int, ...]:
    """``0,2,5`` or ``0-3`` (inclusive) or a mix."""
    ids: list[int] = []
    try:
        for part in text.split(","):
            first, dash, last = part.strip().partition("-")
            if dash:
                ids.extend(range(int(first), int(last) + 1))
            else:
                ids.append(int(first))
    except ValueError:
        raise ConfigError(f"SHARD_IDS must look like 0,1,2 or 0-3, not {text!r}") from None
    if not ids or min(ids) < 0 or len(set(ids)) != len(ids):
        raise ConfigError(f"SHARD_IDS must list distinct shard numbers, not {text!r}")
    return tuple(ids)
