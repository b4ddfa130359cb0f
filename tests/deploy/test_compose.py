"""docker-compose.yml: ``--profile postgres`` puts the bot on the postgres service by itself.

No Docker engine runs here, so this reads the compose file as Compose would
(profiles, ``${VAR:-default}`` interpolation, ``$$`` escapes) and runs the bot
service's real entrypoint script with the real ``sh``; only name resolution of
the ``postgres`` service is stood in for, by a ``getent`` on PATH that answers
as Docker's DNS would with and without the profile.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

import db
from bot.config import load_config
from tests.bot_command import ROOT
from tests.pgserver import PostgresServer
from tests.support.compose import (
    SQLITE_IN_VOLUME,
    compose,
    container_env,
    enabled,
    entrypoint,
    interpolate,
)


def test_the_postgres_profile_adds_the_server_and_keeps_one_bot() -> None:
    assert enabled(set()) == {"bot"}
    assert enabled({"postgres"}) == {"bot", "postgres"}
    waits = compose()["services"]["bot"]["depends_on"]["postgres"]
    assert waits == {"condition": "service_healthy", "required": False}


def test_with_the_profile_the_bot_uses_the_postgres_service_without_editing_env(
    tmp_path: Path,
) -> None:
    url = entrypoint(tmp_path, postgres_up=True, dotenv={})
    server = compose()["services"]["postgres"]["environment"]
    user, password, name = (
        server["POSTGRES_USER"],
        interpolate(server["POSTGRES_PASSWORD"], {}),
        server["POSTGRES_DB"],
    )
    assert url == f"postgresql://{user}:{password}@postgres:5432/{name}"
    assert load_config({"DISCORD_TOKEN": "t", "DATABASE_URL": url}).database_url == url
    secret = {"POSTGRES_PASSWORD": "s3cret"}
    assert entrypoint(tmp_path, postgres_up=True, dotenv=secret).startswith(
        "postgresql://blackjack:s3cret@postgres:5432/"
    )


def test_without_the_profile_the_bot_keeps_its_sqlite_file(tmp_path: Path) -> None:
    assert entrypoint(tmp_path, postgres_up=False, dotenv={}) == SQLITE_IN_VOLUME


@pytest.mark.parametrize("postgres_up", [True, False])
def test_a_database_url_in_env_always_wins(tmp_path: Path, postgres_up: bool) -> None:
    mine = {"DATABASE_URL": "postgresql://me:pw@db.example:5432/chips"}
    url = entrypoint(tmp_path, postgres_up=postgres_up, dotenv=mine)
    assert url == mine["DATABASE_URL"]


def test_the_health_check_checks_the_database_the_bot_uses(
    tmp_path: Path, pg_server: PostgresServer
) -> None:
    check = compose()["services"]["bot"]["healthcheck"]["test"]
    assert check[0] == "CMD"
    argv = [interpolate(part, {}) for part in check[1:]]
    assert argv[-5:] == ["python", "-m", "bot", "check", "--gateway"]
    argv[-5] = sys.executable
    env = container_env(tmp_path, postgres_up=True, dotenv={"DISCORD_TOKEN": "x"})
    # The test's server stands in for the postgres service's address.
    url = env["COMPOSE_POSTGRES_URL"] = pg_server.create_database("compose")
    asyncio.run(migrated(url))  # as the bot's first start leaves it (check creates nothing)
    env["PYTHONPATH"] = str(ROOT)
    env["METRICS_PORT"] = ""  # no bot runs here (test_discord_metrics_hosts checks --gateway)
    checked = subprocess.run(
        argv, env=env, cwd=tmp_path, capture_output=True, text=True, check=False, timeout=60
    )
    assert checked.returncode == 0, checked.stderr
    assert "migrations: ok" in checked.stdout
    assert not list(tmp_path.glob("**/*.sqlite3"))  # it checked PostgreSQL, not a new file


async def migrated(url: str) -> None:
    """Open (and so migrate) the database at ``url``, then close it."""
    async with db.open_store(url):
        pass
