"""Discord caps edits to messages older than an hour (30046): a table moves to fresh messages.

At a round boundary, a table message older than TABLE_MESSAGE_MAX_AGE_S (50 min by
default) is replaced by a new one and the old one points to it; a 30046 answer moves
the table at once, mid-round too. The fake answers 30046 as Discord does (after a
small allowance of edits past the hour), on its ManualClock.
"""

from __future__ import annotations

import copy
import itertools
from pathlib import Path

from bot.app import build_bot
from bot.config import Config
from bot.tables.resume import BACK
from cogs.table.commands import table_cog
from cogs.table.restart_text import jump_link, moved_text
from fakediscord import FakeDiscord
from fakediscord.harness import running_bot
from fakediscord.records import FakeMessage
from tests.db.invariants import check_invariants
from tests.support.discord_world import World, embed_text, labels_enabled
from tests.support.shoes import SPARE, ShoeQueue

HOUR = 3600.0


def table_messages(world: World) -> list[FakeMessage]:
    """The bot's public messages in the table channel, oldest first."""
    return [m for m in world.fake.messages_in(world.channel) if m.author is world.fake.bot_user]


def points_to(old: FakeMessage, new: FakeMessage, world: World) -> bool:
    link = jump_link(world.guild.id, world.channel.id, new.id)
    return old.content == moved_text(link) and old.embeds == [] and old.buttons() == []


async def test_a_table_played_for_three_hours_moves_to_a_fresh_message_before_each_hour(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    world = World.build(fake)
    config = Config(
        card_pictures=False,
        token=fake.token,
        database_url=f"sqlite:///{tmp_path / 'chips.sqlite3'}",
    )
    bot = build_bot(config, clock=fake.clock, shoe_factory=ShoeQueue())
    async with running_bot(fake, bot):
        world.bot = bot
        first = await world.start(world.alice)
        table_id = world.table().table_id
        end = fake.clock.now() + 3 * HOUR
        old_buttons = copy.deepcopy(first.components)
        rounds = 0
        while fake.clock.now() < end:
            await world.bet(world.alice, "10")
            current = table_messages(world)[-1]
            for label in ("No insurance", "Stand"):
                if label in labels_enabled(current):
                    await world.click(world.alice, current, label)
            rounds += 1
            await world.tick(240)  # a quiet spell, inside the table's idle limit
        messages = table_messages(world)
        # Moved at the first round boundary past 50 minutes, each time: 4 messages in 3 hours.
        assert len(messages) == 4, [m.content for m in messages]
        for old, new in itertools.pairwise(messages):
            assert points_to(old, new, world)
        assert messages[-1].embed is not None
        assert world.table().table_id == table_id  # one table throughout
        assert [r for r in fake.requests if r.error_code == 30046] == []
        assert all(m.old_edits == 0 for m in messages)  # never edited past its hour
        # A client still showing the first message's buttons is sent to the table's message.
        first.components = old_buttons
        click = await fake.click(world.bob, first, label="Join")
        assert (click.response_type, click.ephemeral) == (4, True)
        assert click.content == moved_text(
            jump_link(world.guild.id, world.channel.id, messages[-1].id)
        )
        assert rounds > 30
    await check_invariants(config.database_url)


async def test_a_30046_mid_round_moves_the_table_at_once_and_the_round_goes_on(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    fake.expect_errors(30046)
    world = World.build(fake)
    shoes = ShoeQueue()
    shoes.add("Ts 9h 6c 8d 2c 3c " + SPARE)  # Alice 10 6 against the dealer's 9: her move
    config = Config(
        card_pictures=False,
        token=fake.token,
        database_url=f"sqlite:///{tmp_path / 'chips.sqlite3'}",
        table_message_max_age_s=4 * 3600,  # never moved at a boundary: only 30046 moves it
    )
    async with running_bot(fake, build_bot(config, clock=fake.clock, shoe_factory=shoes)) as bot:
        world.bot = bot
        old = await world.start(world.alice)
        await world.bet(world.alice, "100")
        assert "Hit" in labels_enabled(old)
        # The message is over an hour old and its allowance of late edits is spent.
        old.timestamp -= HOUR + 1
        fake.old_message_edits = 0
        hit = await world.click(world.alice, old, "Hit")
        await hit.wait_until(lambda: hit.responded)  # after the refused update: the link
        new = table_messages(world)[-1]
        assert new is not old
        assert (hit.response_type, hit.ephemeral) == (4, True), hit.describe()
        assert hit.content == moved_text(jump_link(world.guild.id, world.channel.id, new.id))
        # The hit counted: the new message shows Alice's third card, and she plays on there.
        assert "2♣" in embed_text(new)
        assert "Stand" in labels_enabled(new)
        stand = await world.click(world.alice, new, "Stand")
        assert stand.response_type == 7
        assert "Last round" in embed_text(new)
        # The old message could not be edited into a pointer; its buttons answer with the link.
        refused = await fake.click(world.bob, old, label="Join")
        assert refused.content == hit.content
        # 18 against the dealer's 17: paid as the cards dictate.
        assert await world.ledger(world.alice) == [("grant", 1000), ("bet", -100), ("payout", 200)]
        # A restart resumes the table on its new message.
        assert table_cog(bot).messages.message_of(world.table().table_id) == (
            world.channel.id,
            new.id,
        )
    async with running_bot(fake, build_bot(config, clock=fake.clock, shoe_factory=shoes)) as bot:
        world.bot = bot
        await world.settle()
        assert BACK in embed_text(new)
    await check_invariants(config.database_url)
