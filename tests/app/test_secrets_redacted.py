"""Secrets never printed: a database URL's password, interaction tokens in logs (issue 27)."""

from __future__ import annotations

import io
import json
import logging

import pytest

import db
from bot.config import ConfigError, load_config
from bot.log_setup import JsonFormatter, RedactingFormatter


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://bot:pw@db:5432/chips", "postgresql://bot:***@db:5432/chips"),
        (
            "postgresql://bot:p/w@x@db/chips?sslmode=require",
            "postgresql://bot:***@db/chips?sslmode=require",
        ),
        ("postgresql://bot:pw@[::1/x", "postgresql://bot:***@[::1/x"),
        ("postgresql://bot@db/chips?password=pw", "postgresql://bot@db/chips?password=***"),
        (
            "postgres://db/chips?sslmode=require&PASSWORD=pw&x=1",
            "postgres://db/chips?sslmode=require&PASSWORD=***&x=1",
        ),
        ("postgresql://bot@db/chips", "postgresql://bot@db/chips"),
        ("sqlite:///data/a:b@c.db", "sqlite:///data/a:b@c.db"),
    ],
)
def test_a_database_url_is_shown_without_its_password(url: str, shown: str) -> None:
    assert db.redacted_url(url) == shown


def test_a_rejected_database_url_is_quoted_without_its_password() -> None:
    with pytest.raises(ConfigError) as refused:
        load_config({"DISCORD_TOKEN": "t", "DATABASE_URL": "postgresq://bot:pw@db/chips"})
    assert str(refused.value).endswith("not 'postgresq://bot:***@db/chips'")


TOKEN = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5OnNlY3JldA-_x"


@pytest.mark.parametrize("inner", [logging.Formatter("%(message)s"), JsonFormatter()])
def test_every_form_of_an_interaction_token_is_starred_in_a_log_line(
    inner: logging.Formatter,
) -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(RedactingFormatter(inner, secrets=("bot.token.x",)))
    log = logging.getLogger("tests.secrets")
    log.addHandler(handler)
    log.propagate = False
    log.setLevel(logging.DEBUG)
    try:
        log.debug("event %s", {"t": "INTERACTION_CREATE", "d": {"token": TOKEN}})
        log.warning('raw {"id": "1", "token": "%s", "type": 3}', TOKEN)
        log.info("POST https://discord.com/api/v10/interactions/123/%s/callback", TOKEN)
        try:
            raise RuntimeError(f"404 for url='https://d/api/v10/webhooks/9/{TOKEN}?wait=1'")
        except RuntimeError:
            log.exception("the follow-up failed (auth bot.token.x)")
    finally:
        log.removeHandler(handler)
    text = stream.getvalue()
    assert TOKEN not in text
    assert "bot.token.x" not in text
    assert "'token': '***'" in text
    assert "/interactions/123/***/callback" in text
    assert "(auth ***)" in text
    assert "webhooks/9/***?wait=1" in text
    if isinstance(inner, JsonFormatter):
        lines = [json.loads(line) for line in text.splitlines()]
        assert lines[1]["message"] == 'raw {"id": "1", "token": "***", "type": 3}'
        assert "webhooks/9/***?wait=1" in lines[3]["exception"]
    else:
        assert 'raw {"id": "1", "token": "***", "type": 3}' in text
