"""A tournament's achievements across restarts: the bot stopped in the middle of the
elimination hand and again after it, each achievement awarded and announced once."""

from __future__ import annotations

from collections import Counter

import db
from bot.app import build_bot
from bot.config import Config
from bot.engine import StackedShoe, parse_cards
from fakediscord import FakeDiscord
from fakediscord.harness import running_bot
from tests.db.invariants import check_invariants
from tests.support.discord_world import World, embed_text
from tests.support.tournaments import TIED_BELOW, ask, service, settled, the_board, tick

SURVIVED = "earned an achievement: Against the odds."
WON = "earned an achievement: Champion."


async def test_a_resumed_tournament_awards_each_achievement_once(
    fake_discord: FakeDiscord, database_url: str
) -> None:
    fake = fake_discord
    world = World.build(fake)
    config = Config(card_pictures=False, token=fake.token, database_url=database_url)

    # Every process deals each hand from the same stacked cards.
    def hand_shoe(table: object, seed: bytes) -> StackedShoe:
        return StackedShoe(parse_cards(TIED_BELOW))

    async with running_bot(fake, build_bot(config, clock=fake.clock)) as first:
        world.bot = first
        service(world).mode.hand_shoe = hand_shoe
        await world.slash(world.mod, "tournament create", None, hands=2, eliminations="1")
        await settled(world)
        for member in (world.alice, world.bob, world.carol):
            await ask(world, member, "tournament join")
        await ask(world, world.mod, "tournament start")
        for member in (world.alice, world.bob, world.carol):
            await ask(world, member, "tournament bet", amount="10")
        board = the_board(world)
        await world.click(world.alice, board, "Stand")
        await world.click(world.bob, board, "Stand")
        await settled(world)
        (t,) = service(world).live.values()
        bet_s, action_s, _idle_s = t.timers
    # Stopped while Carol's hand waits: the elimination hand is not recorded yet.
    async with running_bot(fake, build_bot(config, clock=fake.clock)) as second:
        world.bot = second
        service(world).mode.hand_shoe = hand_shoe
        await settled(world)
        await tick(world, action_s)  # Carol's hand is played by basic strategy
        text = embed_text(the_board(world))
        assert "Bob has the fewest chips after hand 1 and is out." in text
        assert f"Alice {SURVIVED}" in text
        assert f"Carol {SURVIVED}" in text
    # Stopped again after the elimination hand was recorded; the tournament ends.
    async with running_bot(fake, build_bot(config, clock=fake.clock)) as third:
        world.bot = third
        service(world).mode.hand_shoe = hand_shoe
        await settled(world)
        await tick(world, bet_s)
        await tick(world, action_s)
        assert service(world).live == {}
        places = await world.store.tournaments.places(t.tournament_id)
        posted = "\n".join(m.content for m in fake.messages_in(world.channel) if m.content)
        held: Counter[tuple[int, str]] = Counter()
        for member in (world.alice, world.bob, world.carol):
            for award in await world.store.competition.achievements(world.guild.id, member.id):
                assert award.source == f"tournament {t.tournament_id}"
                held[(member.id, award.key)] += 1
    winner = places[0].user_id
    assert held == Counter(
        {
            (world.alice.id, "tournament_survivor"): 1,
            (world.carol.id, "tournament_survivor"): 1,
            (winner, "tournament_winner"): 1,
        }
    )
    assert posted.count(WON) == 1
    assert SURVIVED not in posted  # announced once, on the table, before the restart
    await check_invariants(database_url)


async def test_a_table_whose_tournament_ended_before_a_restart_closes_at_start_up(
    fake_discord: FakeDiscord, database_url: str
) -> None:
    """A stop between a cancel's commit and its tables' close: the next start resumes the
    table, finds its tournament over and closes it; nothing else changes."""
    fake = fake_discord
    world = World.build(fake)
    config = Config(card_pictures=False, token=fake.token, database_url=database_url)
    async with running_bot(fake, build_bot(config, clock=fake.clock)) as first:
        world.bot = first
        await world.slash(world.mod, "tournament create", None, fee=100, hands=2)
        await settled(world)
        for member in (world.alice, world.bob):
            await ask(world, member, "tournament join")
        await ask(world, world.mod, "tournament start")
        (t,) = service(world).live.values()
        table_id = t.table_ids[0]
    # The cancel committed (fees refunded), the process stopped before its table closed.
    async with db.open_store(database_url) as store:
        (stored,) = await store.tournaments.open_tournaments()
        await store.tournaments.cancel(t.tournament_id, "stopped", None, stored.state_json)
    async with running_bot(fake, build_bot(config, clock=fake.clock)) as second:
        world.bot = second
        await settled(world)
        assert service(world).live == {}
        assert world.running.tables.table_in(world.channel.id) is None
        assert table_id not in world.running.tables.registry.tables
        assert "This table has played its last hand." in embed_text(the_board(world))
        for member in (world.alice, world.bob):
            assert await world.balance(member) == 1000
    await check_invariants(database_url)
