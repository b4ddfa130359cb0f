"""How the bot is built: intents, shards, where commands are synced."""

from __future__ import annotations

from pathlib import Path

from bot.app import BlackjackBot, ShardedBlackjackBot, build_bot, intents
from bot.config import Config, load_config
from bot.i18n import _
from bot.table_display import TableDisplay
from bot.tables import Player
from cogs.table.commands import table_cog
from fakediscord import FakeDiscord
from fakediscord.harness import running_bot
from tests.support.discord_world import World, embed_text, quiet
from tests.support.speech import receipt, said


def test_the_bot_asks_only_for_guild_events_and_never_message_content() -> None:
    wanted = intents()
    assert wanted.guilds
    assert not wanted.message_content
    assert not wanted.members
    assert not wanted.presences
    assert not wanted.guild_messages
    assert wanted.value == 1  # GUILDS alone


async def test_one_shard_id_runs_one_shard_and_several_run_in_one_process() -> None:
    one = build_bot(load_config({"DISCORD_TOKEN": "t", "SHARD_COUNT": "4", "SHARD_IDS": "2"}))
    assert type(one) is BlackjackBot
    assert (one.shard_id, one.shard_count) == (2, 4)
    several = build_bot(load_config({"DISCORD_TOKEN": "t", "SHARD_COUNT": "4", "SHARD_IDS": "0-1"}))
    assert isinstance(several, ShardedBlackjackBot)
    assert (several.shard_ids, several.shard_count) == ([0, 1], 4)


async def test_dev_guild_gets_the_commands_at_once_and_nothing_is_synced_globally(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    world = World.build(fake_discord)
    config = Config(
        card_pictures=False,
        token=fake_discord.token,
        database_url=f"sqlite:///{tmp_path / 'chips.sqlite3'}",
        dev_guild_id=world.guild.id,
    )
    async with running_bot(fake_discord, build_bot(config, clock=fake_discord.clock)):
        names = sorted(command.name for command in fake_discord.commands[world.guild.id])
        assert "blackjack" in names
        assert "bet" in names
        assert not fake_discord.commands.get(None)
        reply = await fake_discord.slash(world.alice, "balance", world.channel)
        assert reply.content == said(world.alice, _("You have {amount} chips.", amount=1_000))


async def test_one_process_runs_two_shards_and_deals_on_each(tmp_path: Path) -> None:
    # Both shards may identify at once, so discord.py does not wait 5 s between them.
    async with FakeDiscord(max_concurrency=2) as fake:
        casinos = [fake.add_guild(f"Casino {n}", shard=n, of=2) for n in range(2)]
        tables = [fake.add_text_channel(guild, "blackjack") for guild in casinos]
        players = [fake.add_member(guild, "alice") for guild in casinos]
        config = Config(
            card_pictures=False,
            token=fake.token,
            database_url=f"sqlite:///{tmp_path / 'chips.sqlite3'}",
            shard_count=2,
            shard_ids=(0, 1),
        )
        async with running_bot(fake, build_bot(config, clock=fake.clock)) as bot:
            assert isinstance(bot, ShardedBlackjackBot)
            for channel, player in zip(tables, players, strict=True):
                start = await fake.slash(player, "blackjack start", channel)
                assert start.response_type == 4
                assert start.shard is not None
                assert start.shard[0] == fake.shard_of(channel.guild, 2)
                answer = await fake.slash(player, "bet", channel, amount="100")
                assert answer.content == said(player, receipt(100, 900))
            routed = {s.shard[0] for s in fake.gateway.sessions.values() if s.shard}
            assert routed == {0, 1}
    fake.assert_clean()


async def test_the_table_extension_shows_the_tables_only_while_it_is_loaded(
    bot: BlackjackBot, world: World
) -> None:
    first = await world.start(world.alice)
    loaded = table_cog(bot)
    assert loaded is not None
    await bot.unload_extension("cogs.table")
    assert table_cog(bot) is None
    assert type(bot.display) is TableDisplay
    # The table goes on unseen: its change reaches no message.
    edits = first.edits
    await bot.tables.join(world.channel.id, Player(world.bob.id, "bob"))
    await quiet(world.fake.clock)
    await loaded.messages.idle()
    assert first.edits == edits
    assert "bob" not in embed_text(first)

    await bot.load_extension("cogs.table")
    second = await world.start(world.carol, world.other_channel)
    await bot.tables.join(world.other_channel.id, Player(world.bob.id, "bob"))
    await world.settle()
    assert "bob" in embed_text(second)
