"""A process running some of the shards refunds only its own guilds' rounds, once.

The bot runs in the test's event loop here (fake clock, stacked shoes), so the
moments are exact: rounds a previous run left open in a guild of each shard,
then a process for shard 0 of 2 starting, then its session expiring.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

import pytest

import db
from bot.app import STARTING, ShardedBlackjackBot, build_bot
from bot.config import Config, load_config
from bot.shards import owned_shards
from fakediscord import FakeDiscord
from fakediscord.harness import running_bot
from tests.db.invariants import check_invariants
from tests.support.discord_world import embed_text, labels_enabled, shown_net
from tests.support.shoes import SPARE, ShoeQueue


async def test_shard_count_alone_runs_every_shard_in_one_process() -> None:
    config = load_config({"DISCORD_TOKEN": "t", "SHARD_COUNT": "2"})
    bot = build_bot(config)
    assert isinstance(bot, ShardedBlackjackBot)
    assert (bot.shard_count, bot.shard_ids) == (2, None)  # discord.py launches 0 and 1
    # Every shard is this process's: it refunds every open round before it connects.
    assert owned_shards(config) is None
    every = load_config({"DISCORD_TOKEN": "t", "SHARD_COUNT": "2", "SHARD_IDS": "0-1"})
    assert owned_shards(every) is None
    some = load_config({"DISCORD_TOKEN": "t", "SHARD_COUNT": "4", "SHARD_IDS": "1,3"})
    assert owned_shards(some) == (1, 3)


@pytest.mark.slow
async def test_a_shard_process_refunds_only_its_guilds_and_a_new_session_refunds_nothing(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'chips.sqlite3'}"
    async with FakeDiscord(recommended_shards=2) as fake:
        mine, theirs = (fake.add_guild(f"Casino {n}", shard=n, of=2) for n in range(2))
        channels = [fake.add_text_channel(guild, "blackjack") for guild in (mine, theirs)]
        alice = fake.add_member(mine, "alice")
        fake.add_member(theirs, "alice", user=alice.user)
        # A previous run (or the other process) left a 100-chip round open in each guild.
        left_open = {}
        async with db.open_store(url) as store:
            for guild, channel in zip((mine, theirs), channels, strict=True):
                await store.ensure_account(guild.id, alice.id)
                round_id = await store.open_round(
                    guild.id, channel.id, json.dumps({"preset": "vegas-shoe"}), f"shoe-{guild.id}"
                )
                await store.stake(guild.id, alice.id, 100, "bet", round_id)
                left_open[guild.id] = round_id

        shoes = ShoeQueue()
        shoes.add("Ts 9h 6c 8d " + SPARE)  # Alice 10 6 against the dealer's 9 8
        config = Config(
            card_pictures=False, token=fake.token, database_url=url, shard_count=2, shard_ids=(0,)
        )
        bot = build_bot(config, clock=fake.clock, shoe_factory=shoes)
        async with running_bot(fake, bot):
            # A command waits for its shard's recovery: the stake is back.
            balance = await fake.slash(alice, "balance", channels[0])
            assert balance.content == "You have 1,000 chips."
            async with db.open_store(url) as store:
                refunded = await store.reports.get_round(left_open[mine.id])
                untouched = await store.reports.get_round(left_open[theirs.id])
                assert await store.balance(theirs.id, alice.id) == 900
            assert refunded is not None
            assert untouched is not None
            assert (refunded.status, untouched.status) == ("void", "open")

            start = await fake.slash(alice, "blackjack start", channels[0])
            table = start.original
            assert table is not None
            await fake.slash(alice, "bet", channels[0], amount="100")
            await fake.wait_for(lambda: "Stand" in labels_enabled(table))

            # Discord ends the session: a fresh IDENTIFY and READY must not void our own round.
            # (discord.py waits Discord's 5 s identify limit, in real time, before it.)
            identifies = fake.gateway.identifies
            await fake.gateway.expire_sessions()
            await fake.wait_for(lambda: fake.gateway.identifies == identifies + 1, max_wait=15)
            await fake.sync()
            stand = await fake.click(alice, table, label="Stand")
            assert stand.response_type == 7
            assert shown_net(embed_text(table), "Alice") == "-100"
        async with db.open_store(url) as store:
            assert await store.balance(mine.id, alice.id) == 900
            # Newest first: the next round, open for bets (the graceful stop keeps it for
            # the next start); the round played to the end; the round the previous run
            # left open without a table (voided once, as before durable tables).
            history = await store.reports.round_history(mine.id, limit=10)
            assert [r.status for r in history] == ["open", "settled", "void"]
            assert history[2].round_id == left_open[mine.id]
            still = await store.reports.get_round(left_open[theirs.id])
            assert still is not None
            assert still.status == "open"  # the other process's to refund
            await store.void_round(left_open[theirs.id], "the other process restarted")
    fake.assert_clean()
    await check_invariants(url)


async def test_a_command_before_its_shard_has_refunded_is_asked_to_wait(tmp_path: Path) -> None:
    path = tmp_path / "chips.sqlite3"
    url = f"sqlite:///{path}"
    async with FakeDiscord(recommended_shards=2) as fake:
        guild = fake.add_guild("Casino", shard=0, of=2)
        channel = fake.add_text_channel(guild, "blackjack")
        alice = fake.add_member(guild, "alice")
        async with db.open_store(url) as store:
            await store.ensure_account(guild.id, alice.id)
            round_id = await store.open_round(guild.id, channel.id, "{}", "shoe-1")
            await store.stake(guild.id, alice.id, 100, "bet", round_id)
        # Once the bot has opened the store (it syncs commands next), another writer takes
        # the database, so the refund at READY has to wait its turn.
        syncing = fake.faults.hold("PUT /applications/{application_id}/commands")
        writer = sqlite3.connect(path, isolation_level=None)

        async def take_the_database() -> None:
            await fake.wait_for(lambda: syncing.arrived == 1)
            writer.execute("BEGIN IMMEDIATE")
            syncing.release()

        taking = asyncio.ensure_future(take_the_database())
        try:
            config = Config(
                card_pictures=False,
                token=fake.token,
                database_url=url,
                shard_count=2,
                shard_ids=(0,),
            )
            async with running_bot(fake, build_bot(config, clock=fake.clock)):
                await taking
                early = await fake.slash(alice, "balance", channel)
                assert (early.ephemeral, early.content) == (True, STARTING)
                writer.execute("COMMIT")
                later = await fake.slash(alice, "balance", channel)
                assert later.content == "You have 1,000 chips."
        finally:
            taking.cancel()
            writer.close()
    await check_invariants(url)
