"""fake.message_listeners: every message the bot creates, edits or deletes, ephemeral ones too."""

from __future__ import annotations

from fakediscord.demo_bot import DemoBot
from fakediscord.records import FakeMessage
from tests.support.fakediscord_world import Table


async def test_listeners_hear_every_message_change_in_order(
    table: Table, demo_bot: DemoBot
) -> None:
    heard: list[tuple[str, str, bool]] = []

    def listen(kind: str, message: FakeMessage) -> None:
        heard.append((kind, message.content, message.ephemeral))

    table.fake.message_listeners.append(listen)
    await table.fake.slash(table.alice, "demo post", table.channel)
    await table.fake.wait_for(lambda: len(heard) == 5)
    assert heard == [
        ("create", "Posting.", True),
        ("create", "Table message", False),
        ("update", "Table message (edited)", False),
        ("delete", "Table message (edited)", False),
        ("delete", "Posting.", True),
    ]
