"""Secrets never printed: a database URL's password (issue 27)."""

from __future__ import annotations

import pytest

import db
from bot.config import ConfigError, load_config


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
