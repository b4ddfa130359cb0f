"""pytest fixtures for tests that run a bot against the fake Discord.

Register from the root conftest with ``pytest_plugins = ["fakediscord.plugin"]``,
or import the fixtures into a folder's conftest.py.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from .server import FakeDiscord


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A running fake; the test fails if the bot hit an unknown route or an undeclared error.

    Declare provoked errors with ``fake_discord.expect_errors(10062, ...)``.
    """
    async with FakeDiscord() as fake:
        yield fake
    fake.assert_clean()
