"""``python -m bot copy-db``: an economy built by a real bot run moves to PostgreSQL whole."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import asyncpg

import db
from bot.app import build_bot
from bot.config import Config
from db.copy import tables_in_order
from fakediscord.harness import running_bot
from tests.bot_command import bot_command
from tests.db.invariants import check_invariants
from tests.pgserver import PostgresServer
from tests.support.discord_world import World, embed_text
from tests.support.shoes import SPARE, ShoeQueue


async def play_two_rounds(world: World, url: str, shoes: ShoeQueue) -> None:
    """A settled round, an admin grant, then a round voided by the bot's graceful stop."""
    shoes.add("Ts 9h 8c 6d 9s 9d Kh " + SPARE)  # Alice 10 6 hits a K: bust; Bob 18 beats 17
    fake = world.fake
    config = Config(card_pictures=False, token=fake.token, database_url=url)
    async with running_bot(fake, build_bot(config, clock=fake.clock, shoe_factory=shoes)) as bot:
        world.bot = bot
        table = await world.start(world.alice)
        await world.click(world.bob, table, "Join")
        await world.bet(world.alice, "100")
        await world.bet(world.bob, "40")
        await world.click(world.alice, table, "Hit")
        await world.click(world.bob, table, "Stand")
        assert "Place your bets" in embed_text(table)
        await world.say(world.admin, "blackjack-admin grant", member=world.carol, amount=500)
        await world.bet(world.alice, "30")  # open when the bot stops: it resumes at the next start


def sqlite_rows(path: Path) -> dict[str, list[tuple[object, ...]]]:
    with sqlite3.connect(path) as conn:
        return {
            table: sorted(conn.execute(f'SELECT * FROM "{table}"').fetchall())
            for table in tables_in_order(conn)
        }


async def postgres_rows(url: str, tables: list[str]) -> dict[str, list[tuple[object, ...]]]:
    conn = await asyncpg.connect(url)
    try:
        return {t: sorted(map(tuple, await conn.fetch(f'SELECT * FROM "{t}"'))) for t in tables}
    finally:
        await conn.close()


async def test_copy_db_moves_every_row_and_the_next_ledger_row_gets_a_new_id(
    world: World, shoes: ShoeQueue, pg_server: PostgresServer, tmp_path: Path
) -> None:
    source_path = tmp_path / "chips.sqlite3"
    source = f"sqlite:///{source_path}"
    await play_two_rounds(world, source, shoes)
    target = pg_server.create_database("copy")

    copied = bot_command(tmp_path, "copy-db", "--to", target, DATABASE_URL=source)

    assert copied.returncode == 0, copied.stderr
    assert "copy-db: ok" in copied.stdout
    before = sqlite_rows(source_path)
    assert {"accounts", "ledger", "rounds", "shoes", "hand_results"} <= before.keys()
    assert [r[2] for r in before["rounds"]] == [world.channel.id, world.channel.id]
    assert sorted(r[5] for r in before["rounds"]) == ["open", "settled"]
    assert {"live_tables", "table_actions"} <= before.keys()  # the table moves with its chips
    assert await postgres_rows(target, list(before)) == before
    await check_invariants(target)
    async with db.open_store(target) as store:
        await store.adjust(world.guild.id, world.alice.id, 7, world.admin.id, "after the move")
        newest = (await store.reports.ledger(world.guild.id, world.alice.id, 1))[0]
    assert newest.entry_id == max(row[0] for row in before["ledger"]) + 1
    await check_invariants(target)


async def test_copy_db_refuses_a_target_with_data_and_changes_nothing(
    world: World, shoes: ShoeQueue, pg_server: PostgresServer, tmp_path: Path
) -> None:
    source = f"sqlite:///{tmp_path / 'chips.sqlite3'}"
    await play_two_rounds(world, source, shoes)
    target = pg_server.create_database("busy")
    async with db.open_store(target) as store:
        await store.balance(1, 2)  # someone already plays there
    before = await postgres_rows(target, ["accounts", "ledger", "rounds"])

    refused = bot_command(tmp_path, "copy-db", "--to", target, DATABASE_URL=source)

    assert refused.returncode == 1
    assert "already has rows in accounts" in refused.stderr
    assert "Traceback" not in refused.stderr
    assert await postgres_rows(target, ["accounts", "ledger", "rounds"]) == before


async def test_copy_db_copies_a_table_a_later_migration_adds_in_foreign_key_order(
    world: World, shoes: ShoeQueue, pg_server: PostgresServer, tmp_path: Path
) -> None:
    source_path = tmp_path / "chips.sqlite3"
    await play_two_rounds(world, f"sqlite:///{source_path}", shoes)
    # A table copy-db was never told about, as issue 11's table state will be; its name
    # sorts before "rounds", so only the foreign-key order copies it after the round.
    columns = "round_id BIGINT REFERENCES rounds (id), live BOOLEAN NOT NULL, state TEXT"
    with sqlite3.connect(source_path) as conn:
        conn.execute(f"CREATE TABLE aa_table_state (id INTEGER PRIMARY KEY, {columns})")
        conn.execute(
            "INSERT INTO aa_table_state VALUES (1, 2, 1, '{\"seats\": 2}'), (5, NULL, 0, NULL)"
        )
    target = pg_server.create_database("later")
    async with db.open_store(target):
        pass  # migrated: the tables the bot knows
    conn = await asyncpg.connect(target)
    try:
        await conn.execute(
            "CREATE TABLE aa_table_state"
            f" (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, {columns})"
        )
    finally:
        await conn.close()

    copied = bot_command(
        tmp_path, "copy-db", "--to", target, DATABASE_URL=f"sqlite:///{source_path}"
    )

    assert copied.returncode == 0, copied.stderr
    assert "aa_table_state: 2 rows" in copied.stdout
    conn = await asyncpg.connect(target)
    try:
        rows = [tuple(r) for r in await conn.fetch("SELECT * FROM aa_table_state ORDER BY id")]
        next_id = await conn.fetchval(
            "INSERT INTO aa_table_state (live) VALUES (true) RETURNING id"
        )
    finally:
        await conn.close()
    assert rows == [(1, 2, True, '{"seats": 2}'), (5, None, False, None)]
    assert next_id == 6
