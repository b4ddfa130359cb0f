"""What the fake Discord knows: users, guilds, roles, channels, members, messages, commands."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .permissions import ALL_PERMISSIONS, PERMISSIONS

DISCORD_EPOCH_MS = 1_420_070_400_000


class Snowflakes:
    """Real-looking snowflake ids, increasing, dated by ``now_ms`` as Discord's are: an id's
    timestamp (``id >> 22``) is when it was minted, by the fake's clock. Without a clock they
    start at ``start_ms`` and move a millisecond every 4,096 ids."""

    def __init__(
        self, now_ms: Callable[[], float] | None = None, start_ms: int = 1_750_000_000_000
    ) -> None:
        self._now_ms = now_ms
        self._ms = start_ms if now_ms is None else int(now_ms())
        self._increment = 0

    def __call__(self) -> int:
        now = self._ms if self._now_ms is None else int(self._now_ms())
        if now > self._ms:
            self._ms, self._increment = now, 0
        self._increment += 1
        if self._increment >= 1 << 12:  # the 12-bit increment is spent: the next millisecond
            self._ms, self._increment = self._ms + 1, 0
        return ((self._ms - DISCORD_EPOCH_MS) << 22) | self._increment

    def _next_millisecond(self) -> None:
        self._ms, self._increment = self._ms + 1, 0

    def on_shard(self, shard_id: int, num_shards: int) -> int:
        """The next id whose guild lands on ``shard_id`` of ``num_shards`` (ids stay increasing)."""
        if not 0 <= shard_id < num_shards:
            raise ValueError(f"shard {shard_id} is not in 0..{num_shards - 1}")
        while True:
            # The shard follows the timestamp bits (id >> 22): step ahead of the clock to the
            # next millisecond that lands on the shard.
            candidate = self()
            if (candidate >> 22) % num_shards == shard_id:
                return candidate
            self._next_millisecond()


def iso(ts: float) -> str:
    """Discord's ISO 8601 timestamp."""
    return datetime.datetime.fromtimestamp(ts, datetime.UTC).isoformat()


@dataclass(eq=False)
class FakeUser:
    """A Discord user (a player or the bot)."""

    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    #: The language of the user's client (``interaction.locale``).
    locale: str = "en-US"

    def to_dict(self) -> dict[str, Any]:
        """The user object."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
            "primary_guild": None,
            "collectibles": None,
        }
        if self.bot:
            data["bot"] = True
        return data

    @property
    def mention(self) -> str:
        """``<@id>``."""
        return f"<@{self.id}>"


@dataclass(eq=False)
class FakeRole:
    """A guild role; the @everyone role has the guild's id."""

    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The role object."""
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }


@dataclass(eq=False)
class FakeMember:
    """A user's membership in a guild."""

    user: FakeUser
    guild: FakeGuild
    roles: list[FakeRole] = field(default_factory=list)
    nick: str | None = None
    joined_at: float = 0.0

    @property
    def id(self) -> int:
        """The user's id."""
        return self.user.id

    @property
    def mention(self) -> str:
        """``<@id>``."""
        return self.user.mention

    def to_dict(self, *, with_user: bool = True) -> dict[str, Any]:
        """The guild member object."""
        data: dict[str, Any] = {
            "roles": [str(r.id) for r in self.roles],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "premium_since": None,
            "joined_at": iso(self.joined_at),
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.to_dict()
        return data

    def base_permissions(self) -> int:
        """Guild-level permissions: @everyone plus every role; owner and admin get all."""
        if self.guild.owner_id == self.user.id:
            return ALL_PERMISSIONS
        bits = self.guild.everyone.permissions
        for role in self.roles:
            bits |= role.permissions
        return ALL_PERMISSIONS if bits & PERMISSIONS["administrator"] else bits


@dataclass(eq=False)
class Overwrite:
    """A channel permission overwrite (type 0 role, 1 member)."""

    id: int
    type: int
    allow: int = 0
    deny: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The overwrite object."""
        return {
            "id": str(self.id),
            "type": self.type,
            "allow": str(self.allow),
            "deny": str(self.deny),
        }


TEXT_CHANNEL, PUBLIC_THREAD, PRIVATE_THREAD = 0, 11, 12


@dataclass(eq=False)
class FakeChannel:
    """A guild text channel or a thread (``parent`` set)."""

    id: int
    guild: FakeGuild
    name: str
    type: int = TEXT_CHANNEL
    parent: FakeChannel | None = None
    position: int = 0
    overwrites: list[Overwrite] = field(default_factory=list)
    deleted: bool = False
    owner_id: int | None = None
    created_at: float = 0.0

    @property
    def is_thread(self) -> bool:
        """Threads are channels with a parent."""
        return self.type in (PUBLIC_THREAD, PRIVATE_THREAD)

    @property
    def gone(self) -> bool:
        """Deleted, or a thread whose parent channel was deleted."""
        return self.deleted or (self.parent is not None and self.parent.deleted)

    @property
    def mention(self) -> str:
        """``<#id>``."""
        return f"<#{self.id}>"

    def to_dict(self) -> dict[str, Any]:
        """The channel object (a thread includes its metadata)."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild.id),
            "name": self.name,
            "position": self.position,
            "flags": 0,
            "nsfw": False,
            "rate_limit_per_user": 0,
            "last_message_id": None,
        }
        if self.is_thread:
            assert self.parent is not None
            data.update(
                parent_id=str(self.parent.id),
                owner_id=str(self.owner_id or self.guild.owner_id),
                member_count=1,
                message_count=0,
                total_message_sent=0,
                thread_metadata={
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": iso(self.created_at),
                    "locked": False,
                    "create_timestamp": iso(self.created_at),
                },
            )
            del data["position"]
        else:
            data.update(
                parent_id=None,
                topic=None,
                permission_overwrites=[o.to_dict() for o in self.overwrites],
                default_thread_rate_limit_per_user=0,
            )
        return data

    def permissions_for(self, member: FakeMember) -> int:
        """Discord's permission computation: base, then @everyone, role and member overwrites."""
        if self.is_thread:
            assert self.parent is not None
            return self.parent.permissions_for(member)
        bits = member.base_permissions()
        if bits & PERMISSIONS["administrator"]:
            return ALL_PERMISSIONS
        by_id = {o.id: o for o in self.overwrites}
        everyone = by_id.get(self.guild.id)
        if everyone:
            bits = (bits & ~everyone.deny) | everyone.allow
        allow = deny = 0
        for role in member.roles:
            if role.id in by_id:
                allow |= by_id[role.id].allow
                deny |= by_id[role.id].deny
        bits = (bits & ~deny) | allow
        mine = by_id.get(member.id)
        if mine:
            bits = (bits & ~mine.deny) | mine.allow
        return bits


@dataclass(eq=False)
class FakeGuild:
    """A guild with its roles, members and channels."""

    id: int
    name: str
    owner_id: int
    roles: list[FakeRole] = field(default_factory=list)
    members: dict[int, FakeMember] = field(default_factory=dict)
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    created_at: float = 0.0
    #: The guild's custom emojis: id to name.
    emojis: dict[int, str] = field(default_factory=dict)
    #: The server's primary language (``preferred_locale``, ``interaction.guild_locale``).
    preferred_locale: str = "en-US"

    @property
    def everyone(self) -> FakeRole:
        """The @everyone role."""
        return self.roles[0]

    def text_channels(self) -> list[FakeChannel]:
        """Live non-thread channels."""
        return [c for c in self.channels.values() if not c.is_thread and not c.deleted]

    def threads(self) -> list[FakeChannel]:
        """Live threads."""
        return [c for c in self.channels.values() if c.is_thread and not c.deleted]

    def has_bot(self, bot_id: int) -> bool:
        """Whether the server added the app (its bot is a member), not just its members."""
        return bot_id in self.members


DM, GROUP_DM = 1, 3


@dataclass(eq=False)
class FakePrivateChannel:
    """A DM (type 1: two people, or a person and the app's bot) or a group DM (type 3).

    No guild: a user-installed app reaches it only through interactions.
    """

    id: int
    type: int
    recipients: list[FakeUser]
    name: str | None = None
    deleted: bool = False
    #: Never a guild's or a thread: lets code that takes either kind of channel ask.
    guild: None = None
    parent: None = None
    is_thread: bool = False

    @property
    def gone(self) -> bool:
        """Deleted (a group DM everyone left)."""
        return self.deleted

    def to_dict(self) -> dict[str, Any]:
        """The channel object of a DM or group DM."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "flags": 0,
            "last_message_id": None,
            "recipients": [u.to_dict() for u in self.recipients],
        }
        if self.type == GROUP_DM:
            data.update(name=self.name, icon=None, owner_id=str(self.recipients[0].id))
        return data


#: Where a message or an interaction happens: a server's channel, a DM or a group DM.
Place = FakeChannel | FakePrivateChannel
