"""A graceful stop (SIGTERM): no new actions, those in flight finish, nothing voided, exit 0."""

from __future__ import annotations

import asyncio
import random
import signal
from pathlib import Path

from table_players import Casino, Table, bot_process, read_economy

import db
from bot.app import RESTARTING, build_bot
from bot.config import Config
from fakediscord import FakeDiscord
from fakediscord.harness import running_bot
from tests.db.invariants import check_invariants
from tests.support.discord_world import World, embed_text
from tests.support.shoes import SPARE, ShoeQueue

CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"
#: The issue's bound on a graceful stop (Docker's default grace period is 10 s).
GRACE_S = 5.0


async def test_sigterm_in_the_middle_of_a_round_voids_nothing_and_exits_0_within_5_s(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    casino = Casino.build(fake, "Casino", players=2)
    url = f"sqlite:///{tmp_path / 'chips.sqlite3'}"
    process = bot_process(fake, url)
    await process.start()
    try:
        table = Table(fake, casino, random.Random(7))
        for _ in range(300):  # the shoe is random: play until a round waits for a decision
            if table.mid_round:
                break
            await table.step()
        assert table.mid_round
        message = table.message
        assert message is not None
        async with db.open_store(url) as store:
            (open_round,) = await store.reports.round_history(casino.guild.id, limit=1)
            held = {p.id: await store.balance(casino.guild.id, p.id) for p in casino.players}
            stakes = {p.id: 0 for p in casino.players}
            for player in casino.players:
                for row in await store.reports.ledger(casino.guild.id, player.id, 1000):
                    if row.round_id == open_round.round_id:
                        stakes[player.id] -= row.delta
        assert open_round.status == "open"
        assert sum(stakes.values()) == open_round.staked > 0

        assert process.process is not None
        process.process.send_signal(signal.SIGTERM)
        # The real clock only bounds the wait: the process must be gone within Docker's grace.
        code = await asyncio.wait_for(process.process.wait(), GRACE_S)
    finally:
        await process.stop()
    assert code == 0, process.output()
    assert "Traceback" not in process.output()

    assert "shutting down" not in embed_text(message)
    assert message.buttons() != []  # the table waits for the next start, buttons and all
    async with db.open_store(url) as store:
        kept = await store.reports.get_round(open_round.round_id)
        assert kept is not None
        assert kept.status == "open"
        for player in casino.players:
            assert await store.balance(casino.guild.id, player.id) == held[player.id]
    await check_invariants(url)
    (await read_economy(url)).assert_consistent()


async def test_a_click_during_a_graceful_stop_is_told_the_bot_is_restarting(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    world = World.build(fake)
    shoes = ShoeQueue()
    shoes.add("Ts 9h 6c 8d " + SPARE)  # Alice 10 6 against the dealer's 9: her move
    url = f"sqlite:///{tmp_path / 'chips.sqlite3'}"
    bot = build_bot(
        Config(card_pictures=False, token=fake.token, database_url=url),
        clock=fake.clock,
        shoe_factory=shoes,
    )
    async with running_bot(fake, bot):
        world.bot = bot
        table = await world.start(world.alice)
        await world.bet(world.alice, "100")
        assert "Hit" in {b["label"] for b in table.buttons() if not b.get("disabled")}

        # Discord is slow to take the answer to Alice's Hit: it is in flight when SIGTERM comes.
        slow = fake.faults.hold(CALLBACK)
        hit = await fake.click(world.alice, table, label="Hit", wait=False)
        await fake.wait_for(lambda: slow.arrived == 1)
        closing = asyncio.ensure_future(bot.close())
        await asyncio.sleep(0)  # let close() begin: from here on the bot takes no new action
        assert bot.stopping

        stand = await fake.click(world.alice, table, label="Stand")
        assert (stand.response_type, stand.ephemeral) == (4, True)
        assert stand.content == RESTARTING
        assert not closing.done()  # the stop waits for the Hit in flight

        slow.release()
        await asyncio.wait_for(closing, GRACE_S)
        assert hit.response_type == 7  # the Hit was answered before the connection closed

    text = embed_text(table)
    assert "shutting down" not in text
    async with db.open_store(url) as store:
        ledger = await store.reports.ledger(world.guild.id, world.alice.id, 100)
        assert [(row.kind, row.delta) for row in reversed(ledger)] == [
            ("grant", 1000),
            ("bet", -100),
        ]
        assert await store.balance(world.guild.id, world.alice.id) == 900
        # The Hit in flight is durable; the refused Stand left no trace.
        [row] = await store.tables.open_tables([world.guild.id])
        assert [a.action for a in row.actions] == ["deal", "hit"]
    await check_invariants(url)
