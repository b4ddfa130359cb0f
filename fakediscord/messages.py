"""Channel and message routes, and the message edits shared with interaction webhooks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import errors
from .components_v2 import check_v2_message
from .emojis import check_message_emojis
from .limits import IS_COMPONENTS_V2, SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS, validate_message
from .models import DM, FakeChannel, FakePrivateChannel, FakeUser, Place
from .permissions import PERMISSIONS
from .records import FakeMessage
from .rest import Call, Reply, route, snowflake

if TYPE_CHECKING:
    from .server import FakeDiscord
    from .world import World

VIEW = PERMISSIONS["view_channel"]
SEND = PERMISSIONS["send_messages"]
SEND_IN_THREADS = PERMISSIONS["send_messages_in_threads"]
EMBED_LINKS = PERMISSIONS["embed_links"]
HISTORY = PERMISSIONS["read_message_history"]
MANAGE_MESSAGES = PERMISSIONS["manage_messages"]
CHANNEL_MESSAGE_FLAGS = SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2
EDIT_FLAGS = SUPPRESS_EMBEDS | IS_COMPONENTS_V2


def is_empty(content: str | None, embeds: Any, components: Any) -> bool:
    """Discord refuses a message with no content, embeds or components (50006)."""
    return not (content or "").strip() and not embeds and not components


def bot_sees(fake: World, channel: Place) -> bool:
    """Whether the app's bot is where ``channel`` is (a server that added it): only there does
    it get the channel's events and may use its channel routes. A user-installed app in a DM,
    a group DM or another server has only its interactions."""
    return channel.guild is not None and channel.guild.has_bot(fake.bot_user.id)


def event_ids(message: FakeMessage) -> dict[str, str]:
    """The ids a message event names: the message, its channel and (in a server) its guild."""
    ids = {"id": str(message.id), "channel_id": str(message.channel.id)}
    if message.channel.guild is not None:
        ids["guild_id"] = str(message.channel.guild.id)
    return ids


def visible_channel(fake: FakeDiscord, raw_id: str) -> tuple[FakeChannel, int]:
    """The channel, if it exists and the bot can see it; with the bot's permissions there."""
    channel = fake.channels.get(snowflake(raw_id, "channel_id"))
    if channel is None or channel.gone:
        raise errors.unknown_channel()
    if not bot_sees(fake, channel):
        raise errors.missing_access()
    perms = channel.permissions_for(fake.bot_member(channel.guild))
    if not perms & VIEW:
        raise errors.missing_access()
    return channel, perms


def channel_message(fake: FakeDiscord, channel: FakeChannel, raw_id: str) -> FakeMessage:
    """A live, non-ephemeral message of this channel (ephemeral ones are not in the channel)."""
    message = fake.messages.get(snowflake(raw_id, "message_id"))
    if message is None or message.channel is not channel or message.deleted or message.ephemeral:
        raise errors.unknown_message()
    return message


def new_message(
    fake: FakeDiscord,
    channel: Place,
    payload: dict[str, Any],
    *,
    author: FakeUser,
    flags: int = 0,
    visible_to: FakeUser | None = None,
    **extra: Any,
) -> FakeMessage:
    """Store a new message built from a validated payload."""
    message = FakeMessage(
        id=fake.snowflake(),
        channel=channel,
        author=author,
        content=payload.get("content") or "",
        embeds=[_rich(e) for e in payload.get("embeds") or []],
        components=list(payload.get("components") or []),
        flags=flags,
        timestamp=fake.clock.now(),
        visible_to=visible_to,
        **extra,
    )
    fake.messages[message.id] = message
    check_message_emojis(fake, message)
    return message


#: Discord caps edits to a message older than an hour (its age on the fake's clock).
OLD_MESSAGE_AGE_S = 3600.0


def check_edit_age(fake: FakeDiscord, message: FakeMessage) -> None:
    """Past an hour, a message takes ``fake.old_message_edits`` more edits, then 30046."""
    if fake.clock.now() - message.timestamp <= OLD_MESSAGE_AGE_S:
        return
    if message.old_edits >= fake.old_message_edits:
        raise errors.old_message_edit_limit()
    message.old_edits += 1


def apply_edit(fake: FakeDiscord, message: FakeMessage, payload: dict[str, Any]) -> None:
    """Apply the fields present in an edit payload; refuse an edit that empties the message
    or one past the old-message cap (checked first: a refused edit changes nothing)."""
    check_edit_age(fake, message)
    content = payload.get("content", message.content)
    embeds = payload.get("embeds", message.embeds)
    components = payload.get("components", message.components)
    if is_empty(content, embeds, components):
        raise errors.empty_message()
    flags = message.flags
    if "flags" in payload and payload["flags"] is not None:
        # IS_COMPONENTS_V2 can only be set: kept with the others but SUPPRESS_EMBEDS.
        flags = (message.flags & ~SUPPRESS_EMBEDS) | (payload["flags"] & EDIT_FLAGS)
    if flags & IS_COMPONENTS_V2:  # the content and embeds it had must be reset too
        check_v2_message({"content": content, "embeds": embeds})
    message.content = content or ""
    message.embeds = [_rich(e) for e in embeds or []]
    message.components = list(components or [])
    message.flags = flags
    message.edited_timestamp = fake.clock.now()
    message.edits += 1
    check_message_emojis(fake, message)


def _rich(embed: dict[str, Any]) -> dict[str, Any]:
    """Discord stores every bot embed as type "rich"."""
    return {**embed, "type": "rich"}


def _event_payload(message: FakeMessage) -> dict[str, Any]:
    data = message.to_dict()
    data["member"] = {"roles": [], "joined_at": data["timestamp"], "deaf": False, "mute": False}
    return data


def _tell_listeners(fake: FakeDiscord, kind: str, message: FakeMessage) -> None:
    for listener in fake.message_listeners:
        listener(kind, message)


def announce_create(fake: FakeDiscord, message: FakeMessage) -> None:
    """MESSAGE_CREATE for channel-visible messages (ephemeral ones are never dispatched)."""
    _tell_listeners(fake, "create", message)
    if not message.ephemeral and bot_sees(fake, message.channel):
        fake.dispatch("MESSAGE_CREATE", _event_payload(message))


def announce_update(fake: FakeDiscord, message: FakeMessage) -> None:
    """MESSAGE_UPDATE for channel-visible messages."""
    _tell_listeners(fake, "update", message)
    if not message.ephemeral and bot_sees(fake, message.channel):
        fake.dispatch("MESSAGE_UPDATE", _event_payload(message))


def announce_delete(fake: FakeDiscord, message: FakeMessage) -> None:
    """MESSAGE_DELETE for channel-visible messages."""
    _tell_listeners(fake, "delete", message)
    if not message.ephemeral and bot_sees(fake, message.channel):
        fake.dispatch("MESSAGE_DELETE", event_ids(message))


@route("GET", "/channels/{channel_id}")
async def get_channel(fake: FakeDiscord, call: Call) -> Reply:
    """A channel or thread."""
    channel, _ = visible_channel(fake, call.params["channel_id"])
    return Reply(channel.to_dict())


@route("GET", "/channels/{channel_id}/messages")
async def list_messages(fake: FakeDiscord, call: Call) -> Reply:
    """Newest first, up to ``limit`` (1-100, default 50)."""
    channel, perms = visible_channel(fake, call.params["channel_id"])
    if not perms & HISTORY:
        return Reply([])
    limit = int(call.query.get("limit", "50"))
    if not 1 <= limit <= 100:
        raise errors.invalid_form_body(
            {
                "limit": {
                    "_errors": [
                        {
                            "code": "NUMBER_TYPE_MAX",
                            "message": "int value should be <= 100 and >= 1.",
                        }
                    ]
                }
            }
        )
    found = [m for m in fake.messages_in(channel)][::-1][:limit]
    return Reply([m.to_dict() for m in found])


@route("POST", "/users/@me/channels")
async def open_dm(fake: FakeDiscord, call: Call) -> Reply:
    """The bot's DM with ``recipient_id``: the one it has, or a new one (Discord's Create DM)."""
    body = call.body if isinstance(call.body, dict) else {}
    user = fake.users.get(snowflake(str(body.get("recipient_id")), "recipient_id"))
    if user is None or user is fake.bot_user:
        raise errors.unknown_user()
    for channel in fake.private_channels.values():
        if channel.type == DM and channel.recipients == [user, fake.bot_user]:
            return Reply(channel.to_dict())
    return Reply(fake.add_dm(user).to_dict())


def bot_dm(fake: FakeDiscord, raw_id: str) -> FakePrivateChannel | None:
    """The bot's own DM with this id (where it may post as in any channel), or None."""
    channel = fake.private_channels.get(snowflake(raw_id, "channel_id"))
    if channel is None or channel.type != DM or fake.bot_user not in channel.recipients:
        return None
    return channel


@route("POST", "/channels/{channel_id}/messages")
async def create_message(fake: FakeDiscord, call: Call) -> Reply:
    """Post a message: needs Send Messages (Send Messages in Threads), embeds need Embed Links.
    In the bot's own DM with a user, nothing is needed."""
    dm = bot_dm(fake, call.params["channel_id"])
    if dm is not None:
        payload = validate_message(call.body, allowed_flags=CHANNEL_MESSAGE_FLAGS)
        if is_empty(payload.get("content"), payload.get("embeds"), payload.get("components")):
            raise errors.empty_message()
        sent = new_message(fake, dm, payload, author=fake.bot_user, flags=payload.get("flags") or 0)
        _tell_listeners(fake, "create", sent)
        return Reply(sent.to_dict())
    channel, perms = visible_channel(fake, call.params["channel_id"])
    payload = validate_message(call.body, allowed_flags=CHANNEL_MESSAGE_FLAGS)
    if not perms & (SEND_IN_THREADS if channel.is_thread else SEND):
        raise errors.missing_permissions()
    if payload.get("embeds") and not perms & EMBED_LINKS:
        raise errors.missing_permissions()
    if is_empty(payload.get("content"), payload.get("embeds"), payload.get("components")):
        raise errors.empty_message()
    message = new_message(
        fake, channel, payload, author=fake.bot_user, flags=payload.get("flags") or 0
    )
    announce_create(fake, message)
    return Reply(message.to_dict())


@route("GET", "/channels/{channel_id}/messages/{message_id}")
async def get_message(fake: FakeDiscord, call: Call) -> Reply:
    """One message; needs Read Message History."""
    channel, perms = visible_channel(fake, call.params["channel_id"])
    if not perms & HISTORY:
        raise errors.missing_access()
    return Reply(channel_message(fake, channel, call.params["message_id"]).to_dict())


@route("PATCH", "/channels/{channel_id}/messages/{message_id}")
async def edit_message(fake: FakeDiscord, call: Call) -> Reply:
    """Edit the bot's own message."""
    channel, perms = visible_channel(fake, call.params["channel_id"])
    message = channel_message(fake, channel, call.params["message_id"])
    if message.author is not fake.bot_user:
        raise errors.cannot_edit_others_message()
    payload = validate_message(call.body, allowed_flags=EDIT_FLAGS)
    if payload.get("embeds") and not perms & EMBED_LINKS:
        raise errors.missing_permissions()
    apply_edit(fake, message, payload)
    announce_update(fake, message)
    return Reply(message.to_dict())


@route("DELETE", "/channels/{channel_id}/messages/{message_id}")
async def delete_message(fake: FakeDiscord, call: Call) -> Reply:
    """Delete a message; someone else's needs Manage Messages."""
    channel, perms = visible_channel(fake, call.params["channel_id"])
    message = channel_message(fake, channel, call.params["message_id"])
    if message.author is not fake.bot_user and not perms & MANAGE_MESSAGES:
        raise errors.missing_permissions()
    message.deleted = True
    announce_delete(fake, message)
    return Reply(None)
