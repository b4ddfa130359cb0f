"""Scale out: two bot processes, one shard each, one PostgreSQL database.

Balances are per guild, so one person playing in a guild of each shard has two
accounts, each written by one process only. What can go wrong across processes
is the shared database: both write rounds and ledger rows at once, and a
process that restarts must resume only the tables of its own guilds, never touch
a table the other process is still dealing.
"""

from __future__ import annotations

import asyncio
import random

from table_players import (
    Casino,
    Table,
    one_person_on_two_shards,
    read_economy,
    stop_all,
    two_shard_processes,
)

import db
from bot.tables.resume import BACK
from fakediscord import FakeDiscord
from fakediscord.models import FakeMember
from tests.db.invariants import check_invariants
from tests.pgserver import PostgresServer
from tests.support.discord_world import embed_text


async def open_round_of(url: str, casino: Casino) -> db.RoundRecord:
    """The guild's newest round, which the test expects to be open."""
    async with db.open_store(url) as store:
        (latest,) = await store.reports.round_history(casino.guild.id, limit=1)
    assert latest.status == "open", latest
    return latest


async def until_mid_round(table: Table) -> None:
    """Play on (the shoe is random) until a round waits for a decision."""
    for _ in range(300):
        if table.mid_round:
            return
        await table.step()
    raise AssertionError("no round came to a decision in 300 steps")


async def test_two_processes_deal_on_one_database_and_a_restart_resumes_only_its_own_guilds(
    pg_server: PostgresServer,
) -> None:
    url = pg_server.create_database("two_processes")
    async with FakeDiscord(recommended_shards=2, max_concurrency=2) as fake:
        # One person, a member of both servers: the same user id at both tables.
        casinos = one_person_on_two_shards(fake)
        alice = casinos[0].players[0]
        assert isinstance(casinos[1].players[0], FakeMember)
        first, second = await two_shard_processes(fake, url)
        try:
            tables = [Table(fake, casino, random.Random(n)) for n, casino in enumerate(casinos)]

            # Both processes write rounds and ledger rows to the one database at once.
            for _ in range(40):
                replies = await asyncio.gather(*(table.step() for table in tables))
                for reply, casino in zip(replies, casinos, strict=True):
                    if reply is not None and reply.session is not None:
                        assert reply.shard == (fake.shard_of(casino.guild, 2), 2)
            await asyncio.gather(*(until_mid_round(table) for table in tables))
            lost = await open_round_of(url, casinos[0])
            kept = await open_round_of(url, casinos[1])

            # The first process dies and comes back: it resumes its own guild's table only.
            await first.kill()
            await first.start()
            lost_message = tables[0].message
            kept_message = tables[1].message
            assert lost_message is not None
            assert kept_message is not None
            await fake.wait_for(lambda: BACK in embed_text(lost_message))
            assert BACK not in embed_text(kept_message)
            async with db.open_store(url) as store:
                resumed = await store.reports.get_round(lost.round_id)
                still = await store.reports.get_round(kept.round_id)
            assert resumed is not None
            assert resumed.status == "open"
            assert still is not None
            assert still.status == "open"

            # Both rounds go on and settle, each in its own process.
            for table, in_play in ((tables[0], lost), (tables[1], kept)):
                assert table.message is not None
                while table.mid_round:
                    await table.step()
                async with db.open_store(url) as store:
                    settled = await store.reports.get_round(in_play.round_id)
                assert settled is not None
                assert settled.status == "settled", embed_text(table.message)

            # And the restarted process deals again in its guild, at the same table.
            await until_mid_round(tables[0])
        finally:
            await stop_all(first, second)
    fake.assert_clean()

    await check_invariants(url)
    economy = await read_economy(url)
    economy.assert_consistent()
    # Two accounts, one per guild, for the one person; each the sum of its own ledger.
    assert sorted(guild for guild, user, _, _ in economy.accounts if user == alice.id) == sorted(
        c.guild.id for c in casinos
    )
