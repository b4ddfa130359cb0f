"""Suite-wide settings. Each area keeps its own fixtures in its folder's conftest.py."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.pgserver import PostgresServer, start_for_tests

# The fake Discord's fixtures (fake_discord), for every test folder that runs a bot.
pytest_plugins = ["fakediscord.plugin"]

# No deadline in either profile: a test's speed is the benchmarks' business (bench/), and a
# per-example deadline fails on a busy machine however correct the code is.
settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile(
    "ci", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(autouse=True)
def _in_a_scratch_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test runs in its own temporary folder: what a bot keeps under the folder it
    starts in (./data/strategy beside a PostgreSQL database) never lands in the checkout."""
    monkeypatch.chdir(tmp_path)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PostgresServer]:
    """One PostgreSQL server for the whole session, started on first use, stopped at the end."""
    server = start_for_tests()
    yield server
    server.stop()
