"""The guilds, channels, members and messages of the fake, and the factories tests use."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final

from .command_limits import GUILD_INSTALL, USER_INSTALL
from .messages import bot_sees, event_ids
from .models import (
    DM,
    GROUP_DM,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakePrivateChannel,
    FakeRole,
    FakeUser,
    Overwrite,
    Snowflakes,
)
from .permissions import EVERYONE_DEFAULT, permission_bits
from .records import FakeMessage

if TYPE_CHECKING:
    from bot.clock import Clock

#: What the bot's own role grants by default: everything a table bot uses.
BOT_DEFAULT = permission_bits(
    "view_channel",
    "send_messages",
    "send_messages_in_threads",
    "embed_links",
    "attach_files",
    "read_message_history",
    "add_reactions",
    "use_external_emojis",
    "create_public_threads",
    "manage_threads",
)


def _bits(value: int | Iterable[str]) -> int:
    return value if isinstance(value, int) else permission_bits(*value)


#: How old a user's account is unless a test says otherwise: a year, past any age gate.
USER_AGE_DAYS: Final = 365.0


class World:
    """State plus factories; mixed into :class:`FakeDiscord`."""

    clock: Clock
    snowflake: Snowflakes
    recommended_shards: int

    def __init__(self) -> None:
        self.application_id = self.snowflake()
        self.application_flags = (1 << 19) | (
            1 << 23
        )  # GATEWAY_GUILD_MEMBERS_LIMITED, ..._MESSAGE_CONTENT_LIMITED
        self.bot_user = FakeUser(self.application_id, "Blackjack Dealer", bot=True)
        #: Installation contexts turned on in the developer portal (0 server, 1 user).
        self.installs: frozenset[int] = frozenset({GUILD_INSTALL, USER_INSTALL})
        self.owner_user = FakeUser(self.snowflake(), "owner")
        self.users: dict[int, FakeUser] = {u.id: u for u in (self.bot_user, self.owner_user)}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        #: DMs and group DMs, which the bot reaches only through interactions.
        self.private_channels: dict[int, FakePrivateChannel] = {}
        #: Servers that never added the app (see ``add_guild(with_bot=False)``).
        self.other_guilds: dict[int, FakeGuild] = {}
        #: Users who installed the app to their own account.
        self.user_installs: set[int] = set()
        self.messages: dict[int, FakeMessage] = {}
        #: Id makers for users' accounts, by their age in days.
        self._user_ids: dict[float, Snowflakes] = {}

    def dispatch(self, event: str, data: Any) -> None:  # provided by FakeDiscord
        raise NotImplementedError

    # -- factories ---------------------------------------------------------------------------
    def add_user(
        self,
        username: str,
        *,
        bot: bool = False,
        age_days: float = USER_AGE_DAYS,
        user_id: int | None = None,
    ) -> FakeUser:
        """A Discord user (not yet in any guild), whose account is ``age_days`` old: its id's
        timestamp is that long before the clock, as a real account's id tells when it was made.
        ``user_id`` brings back an account an earlier run of a world made.
        """
        minted = self._user_ids.get(age_days)
        if minted is None:
            age_ms = age_days * 86_400_000
            minted = Snowflakes(lambda: self.clock.now() * 1000 - age_ms)
            self._user_ids[age_days] = minted
        new_id = minted() if user_id is None else user_id
        user = FakeUser(new_id, username, global_name=username.title(), bot=bot)
        self.users[user.id] = user
        return user

    def add_guild(
        self,
        name: str = "Casino",
        *,
        everyone: int | Iterable[str] = EVERYONE_DEFAULT,
        bot_permissions: int | Iterable[str] = BOT_DEFAULT,
        shard: int | None = None,
        of: int | None = None,
        with_bot: bool = True,
        guild_id: int | None = None,
    ) -> FakeGuild:
        """A guild the bot is in, with @everyone and the bot's own role.

        ``shard=1, of=2`` picks an id whose ``(id >> 22) % 2 == 1``; ``of`` defaults
        to the fake's ``recommended_shards``. ``with_bot=False``: a server that never added
        the app (its members may still use the app they installed to their account); the
        bot hears nothing of it. ``guild_id`` brings back a server an earlier run made.
        """
        if guild_id is None and shard is None:
            guild_id = self.snowflake()
        elif guild_id is None:
            guild_id = self.snowflake.on_shard(shard or 0, of or self.recommended_shards)
        guild = FakeGuild(guild_id, name, self.owner_user.id, created_at=self.clock.now())
        guild.roles.append(FakeRole(guild_id, "@everyone", _bits(everyone)))
        guild.members[self.owner_user.id] = FakeMember(
            self.owner_user, guild, joined_at=self.clock.now()
        )
        if not with_bot:
            self.other_guilds[guild.id] = guild
            return guild
        bot_role = FakeRole(
            self.snowflake(), self.bot_user.username, _bits(bot_permissions), 1, True
        )
        guild.roles.append(bot_role)
        guild.members[self.bot_user.id] = FakeMember(
            self.bot_user, guild, [bot_role], joined_at=self.clock.now()
        )
        self.guilds[guild.id] = guild
        self._announce_guild(guild)
        return guild

    def add_dm(self, user: FakeUser, other: FakeUser | None = None) -> FakePrivateChannel:
        """The DM of ``user`` and ``other`` (default: the app's bot, a DM with the app)."""
        recipients = [user, other or self.bot_user]
        channel = FakePrivateChannel(self.snowflake(), DM, recipients)
        self.private_channels[channel.id] = channel
        return channel

    def add_group_dm(self, *users: FakeUser, name: str = "friends") -> FakePrivateChannel:
        """A group DM of ``users`` (the first one owns it); the app's bot is never in one."""
        channel = FakePrivateChannel(self.snowflake(), GROUP_DM, list(users), name)
        self.private_channels[channel.id] = channel
        return channel

    def install_app(self, user: FakeUser) -> None:
        """``user`` adds the app to their account (the user install)."""
        self.user_installs.add(user.id)

    def add_role(
        self, guild: FakeGuild, name: str, permissions: int | Iterable[str] = 0
    ) -> FakeRole:
        """A role in ``guild``."""
        role = FakeRole(self.snowflake(), name, _bits(permissions), position=len(guild.roles))
        guild.roles.append(role)
        if guild.has_bot(self.bot_user.id):
            self.dispatch("GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.to_dict()})
        return role

    def add_member(
        self,
        guild: FakeGuild,
        name: str,
        *,
        roles: Iterable[FakeRole] = (),
        permissions: int | Iterable[str] | None = None,
        nick: str | None = None,
        user: FakeUser | None = None,
        user_id: int | None = None,
    ) -> FakeMember:
        """A new member of ``guild``; ``permissions`` gives them a role of their own.

        ``user`` makes an existing user (a member of another guild) join this one too;
        ``user_id`` brings back an account an earlier run made.
        """
        user = user or self.add_user(name, user_id=user_id)
        member_roles = list(roles)
        if permissions is not None:
            member_roles.append(self.add_role(guild, f"{name}-role", permissions))
        member = FakeMember(user, guild, member_roles, nick, joined_at=self.clock.now())
        guild.members[user.id] = member
        if guild.has_bot(self.bot_user.id):
            self.dispatch("GUILD_MEMBER_ADD", {**member.to_dict(), "guild_id": str(guild.id)})
        return member

    def add_text_channel(
        self, guild: FakeGuild, name: str = "blackjack", *, channel_id: int | None = None
    ) -> FakeChannel:
        """A text channel in ``guild`` (``channel_id``: one an earlier run made)."""
        channel = FakeChannel(
            self.snowflake() if channel_id is None else channel_id,
            guild,
            name,
            position=len(guild.text_channels()),
            created_at=self.clock.now(),
        )
        guild.channels[channel.id] = self.channels[channel.id] = channel
        if bot_sees(self, channel):
            self.dispatch("CHANNEL_CREATE", channel.to_dict())
        return channel

    def add_thread(
        self, parent: FakeChannel, name: str = "table", *, private: bool = False
    ) -> FakeChannel:
        """A thread under ``parent`` (threads are channels too)."""
        thread = FakeChannel(
            self.snowflake(),
            parent.guild,
            name,
            type=PRIVATE_THREAD if private else PUBLIC_THREAD,
            parent=parent,
            owner_id=self.owner_user.id,
            created_at=self.clock.now(),
        )
        parent.guild.channels[thread.id] = self.channels[thread.id] = thread
        self.dispatch("THREAD_CREATE", {**thread.to_dict(), "newly_created": True})
        return thread

    def add_guild_emoji(self, guild: FakeGuild, name: str) -> int:
        """A custom emoji of ``guild`` (the bot may use it while it is a member); its id."""
        emoji_id = self.snowflake()
        guild.emojis[emoji_id] = name
        return emoji_id

    def bot_member(self, guild: FakeGuild) -> FakeMember:
        """The bot's own membership in ``guild``."""
        return guild.members[self.bot_user.id]

    # -- changing the world from the test side -------------------------------------------------
    def set_bot_permissions(
        self,
        channel: FakeChannel,
        *,
        allow: int | Iterable[str] = 0,
        deny: int | Iterable[str] = 0,
    ) -> None:
        """Set the bot's member overwrite on ``channel`` (a thread: on its parent)."""
        target = channel.parent or channel
        target.overwrites = [o for o in target.overwrites if o.id != self.bot_user.id]
        target.overwrites.append(Overwrite(self.bot_user.id, 1, _bits(allow), _bits(deny)))
        self.dispatch("CHANNEL_UPDATE", target.to_dict())

    def deny_bot(self, channel: FakeChannel, *permissions: str) -> None:
        """Take permissions (``"send_messages"``, ``"embed_links"``) from the bot in ``channel``."""
        self.set_bot_permissions(channel, deny=permissions)

    def delete_message(self, message: FakeMessage) -> None:
        """Delete a message as a moderator would (the bot's next edit gets 10008)."""
        message.deleted = True
        if not message.ephemeral and bot_sees(self, message.channel):
            self.dispatch("MESSAGE_DELETE", event_ids(message))

    def delete_channel(self, channel: FakeChannel) -> None:
        """Delete a channel or thread (the bot's next request there gets 10003)."""
        channel.deleted = True
        if channel.is_thread:
            assert channel.parent is not None
            self.dispatch(
                "THREAD_DELETE",
                {
                    "id": str(channel.id),
                    "guild_id": str(channel.guild.id),
                    "parent_id": str(channel.parent.id),
                    "type": channel.type,
                },
            )
        else:
            self.dispatch("CHANNEL_DELETE", channel.to_dict())

    # -- what a client shows ---------------------------------------------------------------------
    def messages_in(
        self, channel: FakeChannel, *, viewer: FakeMember | FakeUser | None = None
    ) -> list[FakeMessage]:
        """Live messages of ``channel``, oldest first; ephemeral ones only for their ``viewer``."""
        return [
            m
            for m in self.messages.values()
            if m.channel is channel
            and not m.deleted
            and (not m.ephemeral or (viewer is not None and m.is_visible_to(viewer)))
        ]

    def last_message(
        self, channel: FakeChannel, *, viewer: FakeMember | None = None
    ) -> FakeMessage:
        """The newest live message in ``channel`` that ``viewer`` sees."""
        found = self.messages_in(channel, viewer=viewer)
        if not found:
            raise LookupError(f"no messages in #{channel.name}")
        return found[-1]

    def _announce_guild(self, guild: FakeGuild) -> None:
        # A connected bot learns about a guild added later from GUILD_CREATE.
        if hasattr(self, "gateway"):
            self.dispatch("GUILD_CREATE", self.guild_create_payload(guild, 0))  # type: ignore[attr-defined]
