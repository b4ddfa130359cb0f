"""A strict fake Discord for end-to-end tests: REST v10 and gateway v10 on 127.0.0.1."""

from __future__ import annotations

from .clock import ManualClock
from .errors import DiscordError
from .interactions import FakeInteraction, InteractionRejected, NoResponse
from .models import FakeChannel, FakeGuild, FakeMember, FakeRole, FakeUser
from .records import FakeMessage
from .rest import RecordedRequest
from .server import FakeDiscord
from .shards import shard_for

__all__ = [
    "DiscordError",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeInteraction",
    "FakeMember",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "InteractionRejected",
    "ManualClock",
    "NoResponse",
    "RecordedRequest",
    "shard_for",
]
