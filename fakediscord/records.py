"""Messages and synced commands: what the bot creates on the fake."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .components_v2 import text_of, walk
from .limits import EPHEMERAL, IS_COMPONENTS_V2, LOADING
from .models import FakeMember, FakeUser, Place, iso


@dataclass(eq=False)
class FakeMessage:
    """A message as Discord stores it and as a client shows it."""

    id: int
    channel: Place
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    timestamp: float = 0.0
    edited_timestamp: float | None = None
    deleted: bool = False
    #: The user who alone sees an ephemeral message.
    visible_to: FakeUser | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_metadata: dict[str, Any] | None = None
    edits: int = 0
    #: Edits made after the message was an hour old (Discord caps them: 30046).
    old_edits: int = 0

    @property
    def ephemeral(self) -> bool:
        """Only ``visible_to`` sees it."""
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred response still "thinking"."""
        return bool(self.flags & LOADING)

    @property
    def embed(self) -> dict[str, Any] | None:
        """The first embed, if any."""
        return self.embeds[0] if self.embeds else None

    def is_visible_to(self, user: FakeUser | FakeMember) -> bool:
        """Whether ``user`` would see this message in their client."""
        uid = user.id
        return not self.deleted and (self.visible_to is None or self.visible_to.id == uid)

    @property
    def components_v2(self) -> bool:
        """A Components V2 message: components only, text in its text displays."""
        return bool(self.flags & IS_COMPONENTS_V2)

    def buttons(self) -> list[dict[str, Any]]:
        """Every button on the message, in order (in a V2 message: nested ones too)."""
        if not self.components_v2:  # action rows of buttons: no walk through the tree
            return [
                child
                for row in self.components
                for child in row.get("components") or ()
                if child.get("type") == 2
            ]
        return [child for child in walk(self.components) if child.get("type") == 2]

    def text_displays(self) -> str:
        """A V2 message's text, its text displays in order, a line between each."""
        return text_of(self.components)

    def button(self, label: str) -> dict[str, Any]:
        """The button with this label (KeyError if none)."""
        for btn in self.buttons():
            if btn.get("label") == label:
                return btn
        raise KeyError(
            f"no button labelled {label!r}; labels: {[b.get('label') for b in self.buttons()]}"
        )

    def to_dict(self) -> dict[str, Any]:
        """The message object."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "author": self.author.to_dict(),
            "content": self.content,
            "timestamp": iso(self.timestamp),
            "edited_timestamp": iso(self.edited_timestamp) if self.edited_timestamp else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": self.embeds,
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
            "components": self.components,
        }
        if self.channel.guild is not None:
            data["guild_id"] = str(self.channel.guild.id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = self.interaction_metadata
        return data


@dataclass(eq=False)
class FakeCommand:
    """A synced application command (global when ``guild_id`` is None)."""

    id: int
    application_id: int
    data: dict[str, Any]
    guild_id: int | None = None
    version: int = 1

    @property
    def name(self) -> str:
        """The command's name."""
        return str(self.data["name"])

    @property
    def type(self) -> int:
        """1 chat input, 2 user, 3 message."""
        return int(self.data.get("type", 1))

    def to_dict(self) -> dict[str, Any]:
        """The application command object Discord returns."""
        data = dict(self.data)
        data.setdefault("type", 1)
        data.setdefault("options", [])
        data.setdefault("default_member_permissions", None)
        data.setdefault("nsfw", False)
        data.update(
            id=str(self.id),
            application_id=str(self.application_id),
            version=str(self.version),
        )
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        return data
