"""Fixtures for the fake Discord's own tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from fakediscord import FakeDiscord
from fakediscord.demo_bot import DemoBot, build_bot
from fakediscord.harness import running_bot
from fakediscord.plugin import fake_discord
from tests.support.fakediscord_world import Table

__all__ = ["fake_discord"]


@pytest.fixture
def table(fake_discord: FakeDiscord) -> Table:
    """The usual world for these tests."""
    fake = fake_discord
    guild = fake.add_guild("Casino")
    channel = fake.add_text_channel(guild, "blackjack")
    thread = fake.add_thread(channel, "high-rollers")
    alice = fake.add_member(guild, "alice")
    bob = fake.add_member(guild, "bob")
    admin = fake.add_member(guild, "croupier", permissions=["manage_guild"])
    return Table(fake, guild, channel, thread, alice, bob, admin)


@pytest.fixture
async def demo_bot(table: Table) -> AsyncIterator[DemoBot]:
    """The demo bot, in this event loop, on the fake's clock."""
    bot = build_bot(table.fake.clock, guild_ids=[table.guild.id])
    async with running_bot(table.fake, bot) as running:
        yield running
