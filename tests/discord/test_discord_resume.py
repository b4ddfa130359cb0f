"""A table resumes on its message after a stop, or, when it cannot, is refunded and says why.

Each test runs the bot twice on one SQLite file (the fake's ManualClock, so every
deadline is exact): a first run opens a table with Alice's 100 on it and stops;
something happens while the bot is down; a second run starts.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.app import build_bot
from bot.config import Config
from bot.tables.resume import BACK, ShardCountChanged
from db import sqlite_path
from db.migrate import load_migrations
from fakediscord.harness import running_bot
from fakediscord.records import FakeMessage
from tests.db.invariants import check_invariants
from tests.support.discord_world import World, embed_text
from tests.support.shoes import ShoeQueue

START_CHIPS = 1000
BET_S = 30


async def first_run(world: World, config: Config) -> FakeMessage:
    """Alice hosts, Bob sits down, Alice bets 100; then a graceful stop.

    The shoe is seeded (the same cards every run): with a random one, a blackjack
    would settle the resumed table's first round the moment it is dealt, and the
    tests that look for the round in play would fail one run in twenty.
    """
    seeded = build_bot(config, clock=world.fake.clock, shoe_factory=ShoeQueue())
    async with running_bot(world.fake, seeded) as bot:
        world.bot = bot
        table = await world.start(world.alice)
        await world.click(world.bob, table, "Join")
        await world.bet(world.alice, "100")
        await world.settle()
    return table


def run_sql(config: Config, sql: str) -> None:
    conn = sqlite3.connect(sqlite_path(config.database_url))
    try:
        conn.execute(sql)
        conn.commit()
    finally:
        conn.close()


@pytest.fixture
def config(world: World, tmp_path: Path) -> Config:
    return Config(
        card_pictures=False,
        token=world.fake.token,
        database_url=f"sqlite:///{tmp_path / 'chips.sqlite3'}",
    )


async def test_a_deadline_still_ahead_keeps_its_time_left(world: World, config: Config) -> None:
    table = await first_run(world, config)
    deadline = world.fake.clock.now() + BET_S
    world.fake.clock.advance(10)  # down for 10 s of the 30 s bet timer
    async with running_bot(world.fake, build_bot(config, clock=world.fake.clock)) as bot:
        world.bot = bot
        await world.settle()
        assert BACK in embed_text(table)
        assert world.table().deadline == deadline
        await world.tick(19)
        assert "Place your bets" in embed_text(table)
        await world.tick(1)  # the bet timer ends: Alice's bet is dealt
        assert world.table().phase != "betting"
    await check_invariants(config.database_url)


async def test_a_deadline_that_passed_while_down_gets_a_fresh_full_period(
    world: World, config: Config
) -> None:
    table = await first_run(world, config)
    world.fake.clock.advance(600)  # down far longer than the bet timer
    async with running_bot(world.fake, build_bot(config, clock=world.fake.clock)) as bot:
        world.bot = bot
        await world.settle()
        assert world.table().deadline == world.fake.clock.now() + BET_S
        assert "## Alice\nBet 100" in embed_text(table)  # not dealt at once, not voided
        assert await world.ledger(world.alice) == [("grant", START_CHIPS), ("bet", -100)]
    await check_invariants(config.database_url)


def refunded_because(table: FakeMessage, why: str) -> Callable[[], bool]:
    return lambda: (table.embed or {}).get("title") == "Round voided" and why in embed_text(table)


@pytest.mark.parametrize(
    ("state", "why"),
    [
        ("not json at all", "its saved state could not be read"),
        ('{"format": 99}', "its saved state is from an incompatible version of the bot"),
        ('{"format": 1, "host": 1}', "its saved state could not be read"),
    ],
)
async def test_a_table_whose_state_cannot_be_used_is_refunded_and_its_message_says_why(
    world: World, config: Config, state: str, why: str
) -> None:
    table = await first_run(world, config)
    run_sql(config, f"UPDATE live_tables SET state_json = '{state}'")
    async with running_bot(world.fake, build_bot(config, clock=world.fake.clock)) as bot:
        world.bot = bot
        await world.fake.wait_for(refunded_because(table, f"the table could not resume: {why}"))
        assert f"<@{world.alice.id}> 100 back" in embed_text(table)
        assert table.buttons() == []
        assert bot.tables.table_in(world.channel.id) is None
        assert await world.ledger(world.alice) == [
            ("grant", START_CHIPS),
            ("bet", -100),
            ("refund", 100),
        ]
        # The channel is free again: a new table can open.
        assert await world.start(world.carol) is not None
    async with running_bot(world.fake, build_bot(config, clock=world.fake.clock)) as bot:
        world.bot = bot
        await world.settle()
        assert (await world.ledger(world.alice))[-1] == ("refund", 100)  # refunded once
    await check_invariants(config.database_url)


@pytest.mark.parametrize(
    ("while_down", "code", "reason"),
    [
        ("delete channel", 10003, "the table's channel was deleted"),
        ("deny view_channel", 50001, "the bot lost a permission it needs in this channel"),
    ],
)
async def test_a_table_whose_channel_is_gone_or_out_of_reach_is_refunded(
    world: World, config: Config, while_down: str, code: int, reason: str
) -> None:
    fake = world.fake
    fake.expect_errors(code)
    await first_run(world, config)
    if while_down == "delete channel":
        fake.delete_channel(world.channel)
    else:
        fake.deny_bot(world.channel, "view_channel")
    async with running_bot(fake, build_bot(config, clock=fake.clock)) as bot:
        world.bot = bot
        await world.settle()
        assert bot.tables.table_in(world.channel.id) is None
        assert await world.balance(world.alice) == START_CHIPS
        (voided,) = await world.store.reports.round_history(world.guild.id, limit=1)
        assert (voided.status, voided.void_reason) == ("void", reason)
    await check_invariants(config.database_url)


async def test_a_table_whose_message_was_deleted_while_down_is_posted_again_and_plays_on(
    world: World, config: Config
) -> None:
    fake = world.fake
    fake.expect_errors(10008)
    table = await first_run(world, config)
    fake.delete_message(table)
    async with running_bot(fake, build_bot(config, clock=fake.clock)) as bot:
        world.bot = bot
        await world.settle()
        assert bot.tables.table_in(world.channel.id) is not None  # resumed, not refunded
        again = fake.last_message(world.channel)
        assert again is not table
        assert BACK in embed_text(again)
        assert "## Alice\nBet 100" in embed_text(again)
        assert await world.balance(world.alice) == START_CHIPS - 100
    await check_invariants(config.database_url)


async def test_a_round_from_before_durable_tables_is_refunded_once(
    world: World, config: Config
) -> None:
    table = await first_run(world, config)
    # The database as the previous version left it: no durable tables, the round open.
    # (Only the migrations of durable tables are undone: later ones stay applied.)
    for sql in (
        "DROP TABLE table_actions",
        "DROP TABLE live_tables",
        "DELETE FROM schema_version WHERE name IN ('table_state', 'one_table_per_channel')",
    ):
        run_sql(config, sql)
    async with running_bot(world.fake, build_bot(config, clock=world.fake.clock)) as bot:
        world.bot = bot
        await world.fake.wait_for(refunded_because(table, "the bot restarted"))
        assert await world.ledger(world.alice) == [
            ("grant", START_CHIPS),
            ("bet", -100),
            ("refund", 100),
        ]
        assert await bot.store.schema_version() == load_migrations()[-1].version
    async with running_bot(world.fake, build_bot(config, clock=world.fake.clock)) as bot:
        world.bot = bot
        await world.settle()
        assert len(await world.ledger(world.alice)) == 3  # once
    await check_invariants(config.database_url)


async def test_a_changed_shard_count_with_tables_open_is_refused_at_start_up(
    world: World, config: Config
) -> None:
    await first_run(world, config)
    resharded = Config(
        card_pictures=False, token=config.token, database_url=config.database_url, shard_count=2
    )
    bot = build_bot(resharded, clock=world.fake.clock)
    with pytest.raises(ShardCountChanged, match="SHARD_COUNT=1, but this one runs SHARD_COUNT=2"):
        async with running_bot(world.fake, bot):
            pass
    await check_invariants(config.database_url)
