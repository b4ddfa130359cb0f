"""What a user's Discord client sends: the interaction a slash command, an autocomplete, a
click or a modal submission creates, checked first as the client checks it."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from .command_data import build_command_data, find_command
from .interactions import (
    PRIVATE_APP_PERMISSIONS,
    FakeInteraction,
    answers_forced_ephemeral,
    authorize,
    find_button,
    interaction_payload,
)
from .models import FakeChannel, FakeGuild, FakeMember, FakePrivateChannel, FakeUser, Place
from .records import FakeMessage
from .shards import shard_for

if TYPE_CHECKING:
    from .server import FakeDiscord

#: The user acting and their membership where they act (None in a DM or group DM).
Who = tuple[FakeUser, FakeMember | None]
#: The installs that authorise an interaction (``authorizing_integration_owners``) and its
#: context (0 a server, 1 the bot's DM, 2 another private channel).
Authorised = tuple[dict[str, str], int]


def command_data(
    fake: FakeDiscord,
    member: FakeMember | FakeUser,
    command: str,
    channel: Place,
    options: dict[str, Any],
    typed: tuple[str, str] | None = None,
) -> tuple[Who, dict[str, Any], Authorised]:
    """Who sends ``/command`` in ``channel``, its data, and the installs and context that
    authorise it (checked as the Discord client checks them)."""
    who = actor(fake, member, channel)
    if channel.deleted:
        raise ValueError("the channel was deleted")
    guild = channel.guild
    commands = list(fake.commands.get(None, []))
    if guild is not None and guild.has_bot(fake.bot_user.id):
        commands = fake.commands.get(guild.id, []) + commands
    found, subpath = find_command(commands, command)
    owners, context = authorize(fake, who[0], channel, found)
    data = build_command_data(found, subpath, options, typed)
    return who, data, (owners, context)


def click_data(
    fake: FakeDiscord,
    member: FakeMember | FakeUser,
    message: FakeMessage,
    label: str | None,
    custom_id: str | None,
) -> tuple[Who, dict[str, Any], Authorised]:
    """Who presses the button found by ``label`` or ``custom_id`` on ``message``, the press's
    data, and the installs that authorised the command behind the message."""
    who = actor(fake, member, message.channel)
    if not message.is_visible_to(who[0]):
        raise ValueError(f"{who[0].username} cannot see message {message.id}")
    button = find_button(message, label=label, custom_id=custom_id)
    data = {"custom_id": button["custom_id"], "component_type": 2}
    _, context = authorize(fake, who[0], message.channel, None)
    metadata = message.interaction_metadata or {}
    guild = message.channel.guild
    owners: dict[str, str] = dict(
        metadata.get("authorizing_integration_owners") or {"0": str(guild.id if guild else 0)}
    )
    return who, data, (owners, context)


def actor(fake: FakeDiscord, who: FakeMember | FakeUser, place: Place) -> Who:
    """The user acting and their membership where they act; checks they are there."""
    if isinstance(place, FakePrivateChannel):
        user = who if isinstance(who, FakeUser) else who.user
        if user not in place.recipients:
            raise ValueError(f"{user.username} is not in this DM or group DM")
        require_gateway(fake, None)
        return user, None
    member = who if isinstance(who, FakeMember) else place.guild.members.get(who.id)
    if member is None or member.guild is not place.guild:
        raise ValueError("the member is not in the channel's guild")
    require_gateway(fake, place.guild)
    return member.user, member


def require_gateway(fake: FakeDiscord, guild: FakeGuild | None) -> None:
    """A session to receive an interaction in ``guild`` (None: a DM, shard 0)."""
    open_sessions = fake.gateway.open_sessions()
    if not open_sessions:
        raise AssertionError("no bot has connected to the fake gateway yet")
    if fake.gateway.owner_of(None if guild is None else guild.id) is None:
        # A client would send it, but no gateway session would receive it: say why.
        open_shards = sorted({s.routing for s in open_sessions})
        where = "DMs are" if guild is None else f"guild {guild.name!r} is"
        wanted = sorted(
            {(0 if guild is None else shard_for(guild.id, n), n) for _, n in open_shards}
        )
        raise AssertionError(f"{where} on shard {wanted}, but the open sessions are {open_shards}")


async def send(
    fake: FakeDiscord,
    kind: int,
    who: Who,
    channel: Place,
    data: dict[str, Any],
    message: FakeMessage | None,
    authorised: Authorised,
    max_wait: float,
    wait: bool,
) -> FakeInteraction:
    """Create the interaction, send INTERACTION_CREATE, and (``wait``) await its answer."""
    interaction = _interaction(fake, kind, who, channel, data, message, authorised)
    fake.interactions[interaction.id] = interaction
    fake.interactions_by_token[interaction.token] = interaction
    app_permissions = member_permissions = PRIVATE_APP_PERMISSIONS
    member = who[1]
    if isinstance(channel, FakeChannel) and member is not None:
        member_permissions = channel.permissions_for(member)
        if channel.guild.has_bot(fake.bot_user.id):
            app_permissions = channel.permissions_for(fake.bot_member(channel.guild))
    payload = interaction_payload(
        interaction, app_permissions=app_permissions, member_permissions=member_permissions
    )
    fake.dispatch("INTERACTION_CREATE", payload)
    if wait:
        await interaction.wait_for_response(max_wait)
    return interaction


def _interaction(
    fake: FakeDiscord,
    kind: int,
    who: Who,
    channel: Place,
    data: dict[str, Any],
    message: FakeMessage | None,
    authorised: Authorised,
) -> FakeInteraction:
    user, member = who
    owners, context = authorised
    return FakeInteraction(
        fake=fake,
        id=fake.snowflake(),
        token=f"aW50ZXJhY3Rpb246{secrets.token_urlsafe(48)}",
        type=kind,
        user=user,
        member=member,
        channel=channel,
        data=data,
        created_at=fake.clock.now(),
        owners=owners,
        context=context,
        message=message,
        forced_ephemeral=answers_forced_ephemeral(owners, member, channel),
    )
