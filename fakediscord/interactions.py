"""Interactions as a Discord client creates them, and what the bot answered to each."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .command_limits import BOT_DM, GUILD_CONTEXT, GUILD_INSTALL, PRIVATE_CHANNEL, USER_INSTALL
from .errors import DiscordError
from .models import (
    DM,
    FakeChannel,
    FakeMember,
    FakePrivateChannel,
    FakeUser,
    Place,
)
from .permissions import PERMISSIONS, permission_bits
from .records import FakeCommand, FakeMessage

if TYPE_CHECKING:
    from .gateway_session import Session
    from .server import FakeDiscord

APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5
CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, MODAL = 4, 5, 6, 7, 9
AUTOCOMPLETE_RESULT = 8
#: Choices an autocomplete result may offer.
MAX_CHOICES = 25
#: Callback types Discord accepts per interaction type.
ALLOWED_CALLBACKS: dict[int, frozenset[int]] = {
    APPLICATION_COMMAND: frozenset({CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL}),
    MESSAGE_COMPONENT: frozenset(
        {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, MODAL}
    ),
    AUTOCOMPLETE: frozenset({AUTOCOMPLETE_RESULT}),
    MODAL_SUBMIT: frozenset(
        {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE}
    ),
}
RESPONSE_WINDOW = 3.0
TOKEN_LIFETIME = 15 * 60.0
#: Followups per interaction when only a user install authorised it (Discord's cap: 40094).
FOLLOWUP_CAP = 5
#: ``app_permissions`` where the bot is not: DMs and group DMs with other people (Discord
#: adds USE_EXTERNAL_EMOJIS in a DM with the bot), and servers that did not add the app.
PRIVATE_APP_PERMISSIONS = permission_bits("attach_files", "embed_links", "mention_everyone")


class InteractionRejected(Exception):
    """The Discord client would not let the user do this (so no interaction is sent)."""


class NoResponse(AssertionError):
    """The bot did not answer an interaction (the user would see "did not respond")."""


@dataclass(eq=False)
class FakeInteraction:
    """One interaction and everything the bot did with it; also the result of slash/click."""

    fake: FakeDiscord
    id: int
    token: str
    type: int
    #: Who acted.
    user: FakeUser
    #: Their membership, in a server; None in a DM or group DM.
    member: FakeMember | None
    channel: Place
    data: dict[str, Any]
    created_at: float
    #: ``authorizing_integration_owners``: "0" the server (or "0" in the bot's DM), "1" the
    #: user who installed the app.
    owners: dict[str, str]
    #: ``context``: 0 a server, 1 the DM with the bot, 2 a DM or group DM with others.
    context: int
    message: FakeMessage | None = None
    response_type: int | None = None
    responded_at: float | None = None
    #: The message the first response created (4, 5) or, for components, the clicked message.
    original: FakeMessage | None = None
    followups: list[FakeMessage] = field(default_factory=list)
    #: Every error reply the bot got for this interaction (10062, 40060, 50035, ...).
    errors: list[DiscordError] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    #: The choices an autocomplete result offered.
    choices: list[dict[str, Any]] | None = None
    #: A user-installed app in a server whose member may not get public answers from it
    #: (no USE_EXTERNAL_APPS): every message it answers with is ephemeral.
    forced_ephemeral: bool = False
    #: The gateway session INTERACTION_CREATE was sent to (None until it went out).
    session: Session | None = None
    #: Set when the bot's first answer (or an error reply) arrives; made by the first waiter.
    _answer: asyncio.Event | None = field(default=None, repr=False)

    @property
    def user_install_only(self) -> bool:
        """Only a user install authorised it: Discord caps its followups."""
        return set(self.owners) == {str(USER_INSTALL)}

    @property
    def shard(self) -> tuple[int, int] | None:
        """``(shard_id, num_shards)`` of the session that received it (unsharded: ``(0, 1)``)."""
        return None if self.session is None else self.session.routing

    # -- what the bot answered ---------------------------------------------------------
    @property
    def responded(self) -> bool:
        """Whether an initial response was accepted."""
        return self.response_type is not None

    @property
    def error(self) -> DiscordError | None:
        """The first error reply the bot got for this interaction, if any."""
        return self.errors[0] if self.errors else None

    @property
    def content(self) -> str | None:
        """Content of the response message (the updated message for type 6/7)."""
        return None if self.original is None else self.original.content

    @property
    def embeds(self) -> list[dict[str, Any]]:
        """Embeds of the response message."""
        return [] if self.original is None else self.original.embeds

    @property
    def embed(self) -> dict[str, Any] | None:
        """The first embed of the response message."""
        return None if self.original is None else self.original.embed

    @property
    def components(self) -> list[dict[str, Any]]:
        """Components of the response message."""
        return [] if self.original is None else self.original.components

    @property
    def ephemeral(self) -> bool:
        """Whether the response message is ephemeral (only the invoking user sees it)."""
        return self.original is not None and self.original.ephemeral

    @property
    def deferred(self) -> bool:
        """Whether the first response was a deferral (5 or 6)."""
        return self.response_type in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE)

    def all_messages(self) -> list[FakeMessage]:
        """The response message (if any) and the followups."""
        return ([self.original] if self.original else []) + list(self.followups)

    # -- waiting ---------------------------------------------------------------------------
    async def wait_until(self, predicate: Callable[[], bool], max_wait: float = 5.0) -> None:
        """Wait (event-driven) until ``predicate()`` holds; fail after ``max_wait`` real s."""
        await self.fake.wait_for(predicate, max_wait=max_wait)

    async def wait_for_response(self, max_wait: float = 5.0) -> FakeInteraction:
        """Wait for the bot's first answer: a response or an error reply."""
        if self.responded or self.errors:
            return self
        # Its own event, not fake.wait_for: a thousand clicks in flight would otherwise all
        # wake (and re-check) on every request the fake serves.
        self._answer = self._answer or asyncio.Event()
        try:
            await asyncio.wait_for(self._answer.wait(), max_wait)
        except TimeoutError:
            raise NoResponse(
                f"the bot did not answer interaction {self.describe()} within {max_wait}s"
            ) from None
        return self

    async def wait_for_followups(self, count: int = 1, max_wait: float = 5.0) -> list[FakeMessage]:
        """Wait until the bot has sent ``count`` followups; return them."""
        await self.fake.wait_for(lambda: len(self.followups) >= count, max_wait=max_wait)
        return self.followups

    async def wait_until_loaded(self, max_wait: float = 5.0) -> FakeMessage:
        """After a type 5 deferral, wait until the "thinking" message has been filled in."""
        await self.fake.wait_for(
            lambda: self.original is not None and not self.original.loading, max_wait=max_wait
        )
        assert self.original is not None
        return self.original

    def note_answer(self) -> None:
        """The bot answered or got an error reply: wake :meth:`wait_for_response`."""
        if self._answer is not None:
            self._answer.set()

    def describe(self) -> str:
        """A short description for failure messages."""
        if self.type in (APPLICATION_COMMAND, AUTOCOMPLETE):
            return f"/{command_path(self.data)} by {self.user.username}"
        return f"click {self.data.get('custom_id')!r} by {self.user.username}"


def command_path(data: Mapping[str, Any]) -> str:
    """``"blackjack start"`` from an application command data payload."""
    parts = [str(data.get("name"))]
    options = data.get("options") or []
    while options and options[0].get("type") in (1, 2):
        parts.append(options[0]["name"])
        options = options[0].get("options") or []
    return " ".join(parts)


def find_button(
    message: FakeMessage, *, label: str | None, custom_id: str | None
) -> dict[str, Any]:
    """The button a user picks by label or custom_id; reject what a client would not send."""
    if (label is None) == (custom_id is None):
        raise TypeError("give exactly one of label= or custom_id=")
    for button in message.buttons():
        if (label is not None and button.get("label") == label) or (
            custom_id is not None and button.get("custom_id") == custom_id
        ):
            if button.get("disabled"):
                raise InteractionRejected(f"button {label or custom_id!r} is disabled")
            if "custom_id" not in button:
                raise InteractionRejected(
                    f"button {label or custom_id!r} is a link or premium button"
                )
            return button
    on_message = [(b.get("label"), b.get("custom_id")) for b in message.buttons()]
    raise InteractionRejected(
        f"no button {label or custom_id!r} on message {message.id} (buttons: {on_message})"
    )


def interaction_payload(
    interaction: FakeInteraction, *, app_permissions: int, member_permissions: int
) -> dict[str, Any]:
    """INTERACTION_CREATE data, shaped as Discord sends it: with the guild and the member in a
    server, with the user alone in a DM or group DM."""
    channel = interaction.channel.to_dict()
    channel["permissions"] = str(member_permissions)
    payload: dict[str, Any] = {
        "id": str(interaction.id),
        "application_id": str(interaction.fake.application_id),
        "type": interaction.type,
        "data": interaction.data,
        "channel": channel,
        "channel_id": str(interaction.channel.id),
        "token": interaction.token,
        "version": 1,
        "app_permissions": str(app_permissions),
        "locale": interaction.user.locale,
        "entitlements": [],
        "authorizing_integration_owners": interaction.owners,
        "context": interaction.context,
        "attachment_size_limit": 10 * 1024 * 1024,
    }
    guild = interaction.channel.guild
    if guild is not None and interaction.member is not None:
        payload.update(
            guild={"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
            guild_id=str(guild.id),
            guild_locale=guild.preferred_locale,
            member={**interaction.member.to_dict(), "permissions": str(member_permissions)},
        )
    else:
        payload["user"] = interaction.user.to_dict()
    if interaction.message is not None:
        payload["message"] = interaction.message.to_dict()
    return payload


def _listed(values: Any, wanted: int, default: bool) -> bool:
    """Whether a command's ``integration_types`` / ``contexts`` includes ``wanted``."""
    return default if values is None else wanted in values


def authorize(
    fake: FakeDiscord, user: FakeUser, place: Place, command: FakeCommand | None
) -> tuple[dict[str, str], int]:
    """Which installs let ``user`` run ``command`` here, and the interaction context, as the
    Discord client decides them; InteractionRejected where it would not offer the command.

    ``command`` None: a click, authorised by whoever authorised the clicked message.
    """
    guild = place.guild
    context = GUILD_CONTEXT
    if isinstance(place, FakePrivateChannel):
        with_bot = place.type == DM and fake.bot_user in place.recipients
        context = BOT_DM if with_bot else PRIVATE_CHANNEL
    if command is None:
        return {}, context
    data = command.data
    if not _listed(data.get("contexts"), context, True):
        raise InteractionRejected(f"/{command.name} is not offered in context {context}")
    owners: dict[str, str] = {}
    # Discord's default for integration_types is the app's configured installs.
    server_install = _listed(data.get("integration_types"), GUILD_INSTALL, True)
    if guild is not None and guild.has_bot(fake.bot_user.id) and server_install:
        owners[str(GUILD_INSTALL)] = str(guild.id)
    elif context == BOT_DM and server_install:
        owners[str(GUILD_INSTALL)] = "0"
    user_install = _listed(data.get("integration_types"), USER_INSTALL, True)
    if user.id in fake.user_installs and USER_INSTALL in fake.installs and user_install:
        owners[str(USER_INSTALL)] = str(user.id)
    if not owners:
        raise InteractionRejected(
            f"/{command.name} is offered to {user.username} by no install of the app here"
        )
    return owners, context


def answers_forced_ephemeral(
    owners: dict[str, str], member: FakeMember | None, place: Place
) -> bool:
    """A user-installed app (not the server's) whose member lacks USE_EXTERNAL_APPS there:
    Discord makes every message it answers with ephemeral."""
    if member is None or not isinstance(place, FakeChannel) or str(GUILD_INSTALL) in owners:
        return False
    return not place.permissions_for(member) & PERMISSIONS["use_external_apps"]
