"""The complete test shown in fakediscord/README.md, kept here so it stays true."""

from __future__ import annotations

from fakediscord import FakeDiscord
from fakediscord.demo_bot import build_bot
from fakediscord.harness import running_bot


async def test_hit_edits_the_table_message_in_place(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    guild = fake.add_guild("Casino")
    channel = fake.add_text_channel(guild, "blackjack")
    alice = fake.add_member(guild, "alice")
    async with running_bot(fake, build_bot(clock=fake.clock)):
        start = await fake.slash(alice, "blackjack start", channel, stake=25)
        assert (start.response_type, start.ephemeral) == (4, False)
        table = start.original
        assert table is not None
        assert table.embed is not None
        assert table.embed["title"] == "Blackjack table"

        hit = await fake.click(alice, table, label="Hit")
        assert hit.response_type == 7  # UPDATE_MESSAGE: the same message, edited
        assert hit.original is table
        assert table.content == "Hits: 1"
        assert fake.messages_in(channel) == [table]
