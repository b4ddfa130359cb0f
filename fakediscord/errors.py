"""Discord's error replies: status, JSON error code, message and the ``errors`` tree."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class DiscordError(Exception):
    """One error reply, as Discord sends it: ``{"code", "message"[, "errors"]}``."""

    status: int
    code: int
    message: str
    errors: dict[str, Any] | None = None
    headers: dict[str, str] = field(default_factory=dict)
    #: Sent through Discord's edge (a ``Via`` header): a 429 without one is not a rate
    #: limit to wait out, so discord.py raises it at once (as it does for 30046).
    via: bool = True

    def __post_init__(self) -> None:
        super().__init__(f"{self.status} {self.code} {self.message}")

    def body(self) -> dict[str, Any]:
        """The JSON body Discord sends for this error."""
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.errors is not None:
            body["errors"] = self.errors
        return body


class FormErrors:
    """Collects field errors into Discord's nested ``errors`` tree.

    The shape is ``{"embeds": {"0": {"title": {"_errors": [{"code", "message"}]}}}}``.
    """

    def __init__(self) -> None:
        self.tree: dict[str, Any] = {}

    def add(self, path: tuple[str | int, ...], code: str, message: str) -> None:
        """Record an error at ``path`` (field names and list indexes)."""
        node = self.tree
        for key in path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def max_length(self, path: tuple[str | int, ...], limit: int) -> None:
        """A string or list longer than ``limit``."""
        self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def bad_length(self, path: tuple[str | int, ...], low: int, high: int) -> None:
        """A string outside ``low``..``high``."""
        self.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")

    def required(self, path: tuple[str | int, ...]) -> None:
        """A missing or empty required field."""
        self.add(path, "BASE_TYPE_REQUIRED", "This field is required")

    def __bool__(self) -> bool:
        return bool(self.tree)

    def raise_if_any(self) -> None:
        """Raise 400 Invalid Form Body (50035) if anything was recorded."""
        if self.tree:
            raise invalid_form_body(self.tree)


def invalid_form_body(errors: dict[str, Any]) -> DiscordError:
    """400, 50035 Invalid Form Body with the given errors tree."""
    return DiscordError(400, 50035, "Invalid Form Body", errors)


def unauthorized() -> DiscordError:
    """401 for a missing or wrong bot token."""
    return DiscordError(401, 0, "401: Unauthorized")


def route_not_found() -> DiscordError:
    """404 for a route Discord does not have."""
    return DiscordError(404, 0, "404: Not Found")


def unknown_channel() -> DiscordError:
    """404, 10003."""
    return DiscordError(404, 10003, "Unknown Channel")


def unknown_message() -> DiscordError:
    """404, 10008."""
    return DiscordError(404, 10008, "Unknown Message")


def unknown_application() -> DiscordError:
    """404, 10002."""
    return DiscordError(404, 10002, "Unknown Application")


def unknown_guild() -> DiscordError:
    """404, 10004."""
    return DiscordError(404, 10004, "Unknown Guild")


def unknown_user() -> DiscordError:
    """404, 10013."""
    return DiscordError(404, 10013, "Unknown User")


def unknown_webhook() -> DiscordError:
    """404, 10015: also what an interaction token gives before the interaction is acknowledged."""
    return DiscordError(404, 10015, "Unknown Webhook")


def unknown_interaction() -> DiscordError:
    """404, 10062: the interaction is unknown or its 3 second window has passed."""
    return DiscordError(404, 10062, "Unknown interaction")


def unknown_command() -> DiscordError:
    """404, 10063."""
    return DiscordError(404, 10063, "Unknown application command")


def already_acknowledged() -> DiscordError:
    """400, 40060."""
    return DiscordError(400, 40060, "Interaction has already been acknowledged.")


def invalid_webhook_token() -> DiscordError:
    """401, 50027: an interaction token older than 15 minutes."""
    return DiscordError(401, 50027, "Invalid Webhook Token")


def max_followups() -> DiscordError:
    """400, 40094: a user-installed app's sixth followup to one interaction."""
    return DiscordError(
        400, 40094, "This interaction has hit the maximum number of follow up messages"
    )


def missing_access() -> DiscordError:
    """403, 50001: the bot cannot see the channel."""
    return DiscordError(403, 50001, "Missing Access")


def missing_permissions() -> DiscordError:
    """403, 50013."""
    return DiscordError(403, 50013, "Missing Permissions")


def cannot_edit_others_message() -> DiscordError:
    """403, 50005."""
    return DiscordError(403, 50005, "Cannot edit a message authored by another user")


def empty_message() -> DiscordError:
    """400, 50006."""
    return DiscordError(400, 50006, "Cannot send an empty message")


def old_message_edit_limit() -> DiscordError:
    """429, 30046: too many edits of a message older than an hour (no Retry-After to wait)."""
    return DiscordError(
        429,
        30046,
        "Maximum number of edits to messages older than 1 hour reached. Try again later",
        via=False,
    )


def server_error() -> DiscordError:
    """An injected 500."""
    return DiscordError(500, 0, "500: Internal Server Error")
