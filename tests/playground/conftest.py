"""Each test of the page's routes serves a fresh playground with its own SQLite file."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.playground.served import Served, serve_playground


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[Served]:
    async with serve_playground(tmp_path) as playground:
        yield playground
