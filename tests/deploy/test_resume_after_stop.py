"""A table outlives its process: SIGKILL or SIGTERM after a double, before the dealer plays.

The bot runs as ``python -m bot`` with random shoes, so the test plays rounds until
Alice's double leaves the round waiting for Bob, stops the process there, starts a
new one, and Bob presses Stand on the buttons the old message showed before the
stop. The round must finish with the payouts its cards dictate (the engine replays
the round from its stored shoe and journal) and no chip may be lost or created.
"""

from __future__ import annotations

import copy
import random
from typing import Literal

import pytest
from replay_rounds import check_settled_rounds
from table_players import PLAY_WEIGHTS, Casino, Table, bot_process, read_economy, stop_all

import db
from bot.tables.resume import BACK
from fakediscord import FakeDiscord
from fakediscord.harness import BotProcess
from fakediscord.records import FakeMessage
from tests.db.invariants import check_invariants
from tests.pgserver import PostgresServer
from tests.support.discord_world import embed_text, labels_enabled
from tests.support.table_buttons import round_no

Stop = Literal["SIGKILL", "SIGTERM"]


def playable(message: FakeMessage) -> set[str]:
    return labels_enabled(message) & PLAY_WEIGHTS.keys()


async def round_over_or_waiting(
    fake: FakeDiscord, message: FakeMessage, before: int | None
) -> None:
    await fake.wait_for(lambda: bool(playable(message)) or round_no(message) != before)


async def double_then_wait_for_bob(fake: FakeDiscord, casino: Casino) -> FakeMessage:
    """Play rounds until Alice has doubled and the dealer waits for Bob; the table message."""
    alice, bob = casino.players
    start = await fake.slash(alice, "blackjack start", casino.channel)
    table = start.original
    assert table is not None
    await fake.click(bob, table, label="Join")
    for _ in range(40):
        before = round_no(table)
        await fake.slash(alice, "bet", casino.channel, amount="100")
        await fake.slash(bob, "bet", casino.channel, amount="200")
        await round_over_or_waiting(fake, table, before)
        if "No insurance" in playable(table):
            for player in (alice, bob):
                await fake.click(player, table, label="No insurance")
            await round_over_or_waiting(fake, table, before)
        if "Double" in playable(table):
            doubled = await fake.click(alice, table, label="Double")
            if doubled.response_type == 7 and "Stand" in playable(table):
                return table  # Alice's hand is done; Bob's decision holds the dealer back
        while round_no(table) == before and playable(table):  # finish this round
            for player in (alice, bob):
                if "Stand" in playable(table):
                    await fake.click(player, table, label="Stand")
        await fake.wait_for(lambda before=before: round_no(table) != before)  # type: ignore[misc]
    raise AssertionError("no round let Alice double while Bob still had to act")


async def stop_resume_and_stand(
    fake: FakeDiscord, process: BotProcess, casino: Casino, url: str, how: Stop
) -> None:
    """The scenario of the module docstring, on ``process`` (already started)."""
    alice, bob = casino.players
    table = await double_then_wait_for_bob(fake, casino)
    old_buttons = copy.deepcopy(table.components)
    async with db.open_store(url) as store:
        (in_play,) = await store.reports.round_history(casino.guild.id, limit=1)
        held = {p.id: await store.balance(casino.guild.id, p.id) for p in (alice, bob)}
    assert (in_play.status, in_play.staked) == ("open", 100 + 100 + 200)

    if how == "SIGKILL":
        await process.kill()
    else:
        await process.stop(max_wait=5.0)  # exits within 5 s, or it is killed (and fails)
        assert process.process is not None
        assert process.process.returncode == 0, process.output()
    async with db.open_store(url) as store:
        assert (await store.reports.get_round(in_play.round_id)).status == "open"  # type: ignore[union-attr]

    await process.start()
    await fake.wait_for(lambda: BACK in embed_text(table))
    # The buttons Bob's client still shows from before the stop: same custom ids.
    table.components = old_buttons
    stand = await fake.click(bob, table, label="Stand")
    assert stand.response_type == 7, stand.describe()
    async with db.open_store(url) as store:
        settled = await store.reports.get_round(in_play.round_id)
        assert settled is not None
        assert settled.status == "settled"
        after = {p.id: await store.balance(casino.guild.id, p.id) for p in (alice, bob)}
        assert settled.paid == sum(after[p] - held[p] for p in held)
    assert await check_settled_rounds(url) >= 1  # payouts as the cards dictate
    (await read_economy(url)).assert_consistent()


@pytest.mark.parametrize("how", ["SIGKILL", "SIGTERM"])
async def test_a_round_stopped_after_a_double_resumes_and_pays_as_its_cards_dictate(
    fake_discord: FakeDiscord, tmp_path: pytest.TempPathFactory, how: Stop
) -> None:
    url = f"sqlite:///{tmp_path}/chips.sqlite3"
    casino = Casino.build(fake_discord, "Casino", players=2)
    process = bot_process(fake_discord, url)
    await process.start()
    try:
        await stop_resume_and_stand(fake_discord, process, casino, url, how)
    finally:
        await process.stop()
    assert process.process is not None
    assert process.process.returncode == 0
    await check_invariants(url)


async def test_the_same_on_postgresql(fake_discord: FakeDiscord, pg_server: PostgresServer) -> None:
    url = pg_server.create_database("resume")
    casino = Casino.build(fake_discord, "Casino", players=2)
    process = bot_process(fake_discord, url)
    await process.start()
    try:
        await stop_resume_and_stand(fake_discord, process, casino, url, "SIGKILL")
    finally:
        await process.stop()
    await check_invariants(url)


async def test_two_shard_processes_one_restarts_and_the_other_plays_on(
    pg_server: PostgresServer,
) -> None:
    url = pg_server.create_database("resume_two")
    async with FakeDiscord(recommended_shards=2, max_concurrency=2) as fake:
        casinos = [Casino.build(fake, f"Casino {n}", players=2, shard=n) for n in range(2)]
        first = bot_process(fake, url, SHARD_COUNT="2", SHARD_IDS="0")
        second = bot_process(fake, url, SHARD_COUNT="2", SHARD_IDS="1")
        await first.start()
        await second.start()
        try:
            other = Table(fake, casinos[1], random.Random(3))
            for _ in range(5):
                await other.step()
            assert other.message is not None
            edits = other.message.edits
            await stop_resume_and_stand(fake, first, casinos[0], url, "SIGKILL")
            # The other process's table was never touched by the restart, and plays on.
            assert BACK not in embed_text(other.message)
            for _ in range(10):
                await other.step()
            assert other.message.edits > edits
            assert other.refused + other.unanswered < other.sent
        finally:
            await stop_all(first, second)
    fake.assert_clean()
    await check_invariants(url)
    (await read_economy(url)).assert_consistent()
