"""Fixtures for the bot end to end: the fake Discord, the real bot in this event loop on the
fake's ManualClock, a real SQLite file, stacked shoes. The economy's invariants are checked
in the database after every test."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import BlackjackBot, build_bot
from bot.config import Config
from fakediscord import FakeDiscord
from fakediscord.harness import running_bot
from tests.db.invariants import check_invariants
from tests.support.discord_world import World
from tests.support.shoes import ShoeQueue


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    """A fresh SQLite file for the test."""
    return f"sqlite:///{tmp_path / 'chips.sqlite3'}"


@pytest.fixture
def shoes() -> ShoeQueue:
    """Stacked shoes for the tables a test opens (then seeded real shoes)."""
    return ShoeQueue()


@pytest.fixture
def world(fake_discord: FakeDiscord) -> World:
    """A server with two table channels, three players, an admin and a moderator."""
    return World.build(fake_discord)


@pytest.fixture
def bot_settings() -> dict[str, object]:
    """Settings of ``Config`` a test module gives its bot (a module overrides this fixture)."""
    return {}


@pytest.fixture
async def bot(
    fake_discord: FakeDiscord,
    world: World,
    database_url: str,
    shoes: ShoeQueue,
    bot_settings: dict[str, object],
) -> AsyncIterator[BlackjackBot]:
    """The real bot, connected to the fake; closed (open rounds refunded) after the test."""
    config = Config(
        card_pictures=False, token=fake_discord.token, database_url=database_url, **bot_settings
    )
    running = build_bot(config, clock=fake_discord.clock, shoe_factory=shoes)
    async with running_bot(fake_discord, running) as connected:
        world.bot = connected
        yield connected
    await check_invariants(database_url)
