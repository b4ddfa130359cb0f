"""A player's limits hold outside any one process: across a SIGKILL, and across two shard
processes on one PostgreSQL database (a limit reached at a table of one shard refuses a
bet at a table of the other).

The bot runs as ``python -m bot``. A stake counts as lost until the round returns it, so
Alice's bet of 10 against a daily loss limit of 15 leaves room for no second bet of 10
while her round waits for Bob's bet (the bet timer is set long, so it waits for the
whole test).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from table_players import (
    Casino,
    bot_process,
    one_person_on_two_shards,
    stop_all,
    two_shard_processes,
)

import db
from fakediscord import FakeDiscord
from fakediscord.models import FakeChannel, FakeMember
from tests.db.invariants import check_invariants
from tests.pgserver import PostgresServer

#: The check in the stake's transaction: 10 lost (staked, not yet returned) plus 10 passes 15.
REFUSED = "That bet would take you past your daily loss limit of 15 chips (lost today: 10)."
BREAK = "You're taking a break from play until <t:"


async def say(
    fake: FakeDiscord, member: FakeMember, command: str, channel: FakeChannel, **options: Any
) -> str:
    """A slash command answered privately: its text."""
    reply = await fake.slash(member, command, channel, **options)
    if reply.deferred:
        await reply.wait_until_loaded(max_wait=30)
    assert reply.original is not None
    return reply.original.content


async def long_bet_timers(url: str, *casinos: Casino) -> None:
    """Rounds wait for every bet as long as the test runs."""
    async with db.open_store(url) as store:
        for casino in casinos:
            await store.set_guild_settings(casino.guild.id, bet_timer_s=3600)


async def reach_the_limit(fake: FakeDiscord, casino: Casino) -> None:
    """Alice sets a daily loss limit of 15 and stakes 10 in a round that waits for Bob."""
    alice, bob = casino.players
    shown = await say(fake, alice, "limits set", casino.channel, daily_loss=15)
    assert "Daily loss limit: 15 chips" in shown
    start = await fake.slash(alice, "blackjack start", casino.channel)
    assert start.original is not None
    await fake.click(bob, start.original, label="Join")
    assert (await say(fake, alice, "bet", casino.channel, amount="10")).startswith("Bet 10.")


async def test_a_limit_reached_before_a_sigkill_holds_after_it(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'chips.sqlite3'}"
    async with FakeDiscord() as fake:
        casino = Casino.build(fake, "Casino", players=2)
        other = fake.add_text_channel(casino.guild, "blackjack-2")
        await long_bet_timers(url, casino)
        process = bot_process(fake, url)
        await process.start()
        try:
            await reach_the_limit(fake, casino)
            await process.kill()
            await process.start()
            alice, bob = casino.players
            await fake.slash(bob, "blackjack start", other)
            assert (await say(fake, alice, "bet", other, amount="10")).startswith(REFUSED)
            await say(fake, alice, "limits break", other, period="24h")
            await process.kill()
            await process.start()
            assert (await say(fake, alice, "daily", other)).startswith(BREAK)
        finally:
            await stop_all(process)
    await check_invariants(url)


async def test_a_limit_reached_on_one_shard_refuses_a_bet_on_the_other(
    pg_server: PostgresServer,
) -> None:
    url = pg_server.create_database("limits_two_shards")
    async with FakeDiscord(recommended_shards=2, max_concurrency=2) as fake:
        # One person, a member of both servers: the same user id at both tables.
        casinos = one_person_on_two_shards(fake, players=2)
        await long_bet_timers(url, *casinos)
        first, second = await two_shard_processes(fake, url)
        try:
            await reach_the_limit(fake, casinos[0])
            there = casinos[1]
            await fake.slash(there.players[1], "blackjack start", there.channel)
            refused = await say(fake, there.players[0], "bet", there.channel, amount="10")
            assert refused.startswith(REFUSED)
            # A break taken on one shard holds on the other at once.
            await say(fake, there.players[0], "limits break", there.channel, period="24h")
            here = casinos[0]
            assert (await say(fake, here.players[0], "daily", here.channel)).startswith(BREAK)
        finally:
            await stop_all(first, second)
    await check_invariants(url)
