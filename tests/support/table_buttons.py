"""What a table message's buttons say, read by their custom ids: for end-to-end tests that
wait for a round to be dealt or over without reading the embed's words."""

from __future__ import annotations

from cogs.table.buttons import parse_custom_id
from fakediscord.records import FakeMessage


def enabled(message: FakeMessage, action: str) -> str | None:
    """The custom id of the message's enabled ``action`` button (``hit``), if it has one."""
    for button in message.buttons():
        custom = str(button.get("custom_id", ""))
        if custom.endswith(f":{action}") and not button.get("disabled"):
            return custom
    return None


def round_no(message: FakeMessage) -> int | None:
    """The round the table message's buttons belong to (the one being bet on, or played)."""
    for button in message.buttons():
        ref = parse_custom_id(str(button.get("custom_id", "")))
        if ref is not None:
            return ref.round_no
    return None


def over(message: FakeMessage, betting: int | None) -> bool:
    """The round ``betting`` is over: the next one is open."""
    return (round_no(message) or 0) > (betting or 0)
