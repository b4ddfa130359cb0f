"""The world most of the fake Discord's own tests play in."""

from __future__ import annotations

from dataclasses import dataclass

from fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeMember


@dataclass
class Table:
    """A guild with a #blackjack channel, a thread, and two players."""

    fake: FakeDiscord
    guild: FakeGuild
    channel: FakeChannel
    thread: FakeChannel
    alice: FakeMember
    bob: FakeMember
    admin: FakeMember
