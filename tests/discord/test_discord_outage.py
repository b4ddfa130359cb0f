"""The chip store goes away in the middle of a round, through the fake Discord.

On PostgreSQL the server is stopped (``pg_ctl stop -m fast``) while Alice's hand is
in play and started again; on SQLite the bot's connection refuses every write while
the outage lasts (SQLite's own read-only error, tests/outage.py). Either way: her
click is answered "paused" and changes nothing, /blackjack start points at the
paused table instead of opening another, and once the store is back the round goes
on and settles once, every balance equal to its ledger.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.i18n import Text, _
from bot.tables.errors import PAUSED
from bot.tables.opening import NO_STORE, PAUSED_THERE
from bot.tables.resume import BACK
from fakediscord.harness import running_bot
from fakediscord.records import FakeMessage
from tests.db.invariants import check_invariants
from tests.outage import PostgresOutage, SQLiteOutage
from tests.pgserver import start_for_tests
from tests.support.discord_world import World, embed_text
from tests.support.outages import Store, bot_on
from tests.support.shoes import SPARE, START_CHIPS, ShoeQueue
from tests.support.speech import said

#: Alice 10 9 (19) against the dealer's T 7 (17): she stands and wins.
ROUND = "Ts Td 9s 7d " + SPARE


@pytest.fixture(params=["sqlite", "postgres"])
def store(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Store]:
    """A database on its own, and the outage that takes it away."""
    if request.param == "sqlite":
        outage = SQLiteOutage(tmp_path / "store-fails")
        for name, value in outage.env.items():
            monkeypatch.setenv(name, value)  # read by the bot when it opens the store
        yield Store(f"sqlite:///{tmp_path / 'chips.sqlite3'}", outage)
        return
    server = start_for_tests()  # its own server: this test stops it
    try:
        yield Store(server.create_database("outage"), PostgresOutage(server))
    finally:
        server.stop()


@pytest.fixture
async def world_on(world: World, store: Store) -> AsyncIterator[World]:
    """The bot on ``store``, with ROUND stacked for the first table."""
    shoes = ShoeQueue()
    shoes.add(ROUND)
    async with running_bot(world.fake, bot_on(world, store, shoes)) as bot:
        world.bot = bot
        yield world


async def test_a_click_during_an_outage_is_paused_and_the_round_settles_once_after(
    world_on: World, store: Store
) -> None:
    world = world_on
    table = await world.start(world.alice)
    await world.bet(world.alice, "100")
    assert "Stand" in embed_text(table)

    store.outage.begin()
    try:
        assert await world.refused(world.alice, table, "Stand") == PAUSED
        answer = await world.say(world.bob, "blackjack start")
        assert answer == said(world.bob, open_here(world, table, PAUSED_THERE))
        assert await world.bet(world.bob, "50") == PAUSED
        await world.tick(20)  # retries while the store is still away change nothing
        assert await world.refused(world.alice, table, "Stand") == PAUSED
    finally:
        store.outage.end()
    await world.tick(30)  # the next retry finds the store back

    await world.click(world.alice, table, "Stand")
    await settled_once(world, table, store)


async def test_a_table_paused_at_a_graceful_stop_resumes_at_the_next_start(
    world: World, store: Store
) -> None:
    shoes = ShoeQueue()
    shoes.add(ROUND)
    async with running_bot(world.fake, bot_on(world, store, shoes)) as bot:
        world.bot = bot
        table = await world.start(world.alice)
        await world.bet(world.alice, "100")
        store.outage.begin()
        try:
            assert await world.refused(world.alice, table, "Stand") == PAUSED
        except BaseException:
            store.outage.end()
            raise
    store.outage.end()  # SIGTERM came while the store was away; it is back for the start
    async with running_bot(world.fake, bot_on(world, store)) as bot:
        world.bot = bot
        await world.settle()
        assert BACK in embed_text(table)
        open_already = _("A table is already open in this channel.")
        assert await world.say(world.bob, "blackjack start") == said(
            world.bob, open_here(world, table, open_already)
        )
        await world.click(world.alice, table, "Stand")
        await settled_once(world, table, store)


def open_here(world: World, table: FakeMessage, refusal: Text) -> Text:
    """The answer to /blackjack start where ``table`` is open: ``refusal`` and its link."""
    link = f"https://discord.com/channels/{world.guild.id}/{world.channel.id}/{table.id}"
    return _("{refusal} It's here: {link}", refusal=refusal, link=link)


async def settled_once(world: World, table: FakeMessage, store: Store) -> None:
    """Alice's round settled once, the table takes bets again, no second table opened."""
    assert said(world.alice, _("**Place your bets**")) in embed_text(table)
    assert await world.ledger(world.alice) == [
        ("grant", START_CHIPS),
        ("bet", -100),
        ("payout", 200),
    ]
    assert world.fake.messages_in(world.channel) == [table]  # no second table
    rounds = await world.store.reports.round_history(world.guild.id, channel_id=world.channel.id)
    assert [r.status for r in rounds] == ["open", "settled"]  # the next round takes bets
    await check_invariants(store.url)


def options_for(command: app_commands.Command[Any, ..., Any], world: World) -> dict[str, Any]:
    """Values for a command's required options, by the option's name and type (a new
    command with an option not named here fails this test until it is)."""
    members = {"member": world.bob, "other": world.carol}
    words = {"amount": "100", "reason": "outage drill", "period": "24h"}
    options: dict[str, Any] = {}
    for parameter in command.parameters:
        if not parameter.required:
            continue
        if parameter.type is discord.AppCommandOptionType.user:
            options[parameter.name] = members[parameter.name]
        elif parameter.type is discord.AppCommandOptionType.integer:
            options[parameter.name] = 100
        else:
            options[parameter.name] = words[parameter.name]
    return options


async def test_every_command_and_the_page_buttons_answer_an_outage_as_the_table_does(
    world_on: World, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    world = world_on
    for user_id in range(10**17, 10**17 + 11):  # two leaderboard pages: Next works
        await world.store.balance(world.guild.id, user_id)
    board = await world.slash(world.alice, "leaderboard")
    assert board.original is not None
    await world.start(world.alice)
    commands = [
        command
        for command in world.running.tree.walk_commands()
        if isinstance(command, app_commands.Command)
    ]
    assert len(commands) > 25  # the tree as the bot syncs it, every command in it
    answers: dict[str, str] = {}
    store.outage.begin()
    try:
        with caplog.at_level(logging.WARNING):
            for command in commands:
                name = command.qualified_name
                reply = await world.slash(world.admin, name, **options_for(command, world))
                message = reply.original
                answers[name] = message.content if message is not None else ""
            page = await world.click(world.alice, board.original, "Next ▶")
    finally:
        store.outage.end()
    assert not [name for name, text in answers.items() if text.startswith("Something went")]
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    # A balance opens a write transaction, which neither store takes during an outage.
    outage = {NO_STORE, PAUSED}  # the table's own words: the store, or this table, waits
    for name in ("balance", "daily", "blackjack-admin grant", "bet", "limits break"):
        assert answers[name] in outage, name
    if isinstance(store.outage, PostgresOutage):  # reads fail too
        for name in ("leaderboard", "stats", "blackjack-admin ledger", "limits show"):
            assert answers[name] in outage, name
        assert page.content == NO_STORE
    warned = [r for r in caplog.records if ": the chip store is unavailable (" in r.getMessage()]
    assert any(r.getMessage().startswith("command balance: the chip") for r in warned)
    assert all(r.levelno == logging.WARNING and r.exc_info is None for r in warned)  # one line


async def test_stopping_all_play_goes_past_a_paused_table_and_says_what_it_could_not_close(
    world_on: World, store: Store
) -> None:
    world = world_on
    paused = await world.start(world.alice)
    await world.bet(world.alice, "100")
    other = await world.start(world.bob, world.other_channel)
    await world.bet(world.bob, "50", channel=world.other_channel)
    store.outage.begin()
    try:
        assert await world.refused(world.alice, paused, "Stand") == PAUSED
    finally:
        store.outage.end()
    # The store is back, and Alice's table has not reloaded yet (its retry is not due).
    answer = await world.say(world.admin, "blackjack-admin config", stop_all=True)
    assert "All play stopped: tables closed now: 1;" in answer
    assert "Tables that could not close now: 1. Run this again in a moment." in answer
    assert "**Table closed**" in embed_text(other)
    assert world.running.tables.table_in(world.other_channel.id) is None
    assert world.running.tables.table_in(world.channel.id) is not None
    await world.tick(30)  # the paused table reloads; the admin's second stop closes it
    again = await world.say(world.admin, "blackjack-admin config", stop_all=True)
    assert "All play stopped: tables closed now: 1;" in again
    assert world.running.tables.table_in(world.channel.id) is None
    await check_invariants(store.url)
