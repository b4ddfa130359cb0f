"""Suite-wide settings. Each area keeps its own fixtures in its folder's conftest.py."""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.pgserver import PostgresServer, start_for_tests
from tests.processes import SESSION_MARK, Running, gone_within, marked

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


#: How long the processes a session started have, once it ends, to finish ending.
LEFT_BEHIND_S = 10.0


def pytest_configure(config: pytest.Config) -> None:
    """Mark the session's environment, so every process it starts can be found at its end."""
    os.environ[SESSION_MARK] = str(os.getpid())


def _left_behind() -> list[Running]:
    """The session's processes still alive, but Python's resource tracker of this process
    (it ends at this process's end, when its pipe closes)."""
    return [
        process
        for process in marked(str(os.getpid()))
        if not (process.parent == os.getpid() and "resource_tracker" in process.command)
    ]


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """A session that left a process running fails, naming it; the process is then ended."""
    left = gone_within(LEFT_BEHIND_S, _left_behind)
    if not left:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_sep("=", "processes the session left running", red=True)
    for process in left:
        line = f"left running: pid {process.pid} (group {process.group}): {process.command}"
        if reporter is not None:
            reporter.write_line(line, red=True)
        with contextlib.suppress(ProcessLookupError):
            os.kill(process.pid, signal.SIGKILL)
    session.exitstatus = pytest.ExitCode.TESTS_FAILED
