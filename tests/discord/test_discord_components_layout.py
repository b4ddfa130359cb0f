"""A server that chose ``/blackjack-admin config layout components`` plays through a
Components V2 table message; a change of layout shows from the next round, in a new message.

The fake Discord checks every body the bot sends against Discord's V2 rules (components
only, 40 components, 4,000 characters of text): a body that broke one would fail the test.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.app import BlackjackBot, build_bot
from bot.config import Config
from bot.shown_names import shown_name
from db import sqlite_path
from fakediscord import FakeDiscord
from fakediscord.harness import running_bot
from fakediscord.records import FakeMessage
from tests.db.invariants import check_invariants
from tests.support.discord_world import World, embed_text, labels_enabled
from tests.support.shoes import SPARE, START_CHIPS, THREE_PLAYER_ROUND, ShoeQueue


def refused_bodies(world: World) -> list[object]:
    """Every request the fake refused: none, when the bot keeps to Discord's rules."""
    return [(r.method, r.path, r.response) for r in world.fake.requests if r.status >= 400]


def is_v2_table(message: FakeMessage) -> bool:
    return message.components_v2 and message.embeds == [] and message.content == ""


async def use_layout(world: World, layout: str) -> str:
    return await world.say(world.admin, "blackjack-admin config", layout=layout)


async def test_three_players_play_a_full_round_through_the_components_message(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add(THREE_PLAYER_ROUND)
    changed = await use_layout(world, "components")
    assert "Table layout: components (a block per seat)" in changed
    assert "the layout at their next round, in a new message" in changed
    alice, bob, carol = world.alice, world.bob, world.carol
    table = await world.start(alice)
    assert is_v2_table(table)
    assert "**Place your bets**" in embed_text(table)
    assert labels_enabled(table) == {"Join", "Leave"}

    joined = await world.click(bob, table, "Join")
    assert joined.response_type == 7
    await world.say(carol, "blackjack join")
    await world.bet(alice, "100")
    await world.bet(bob, "100")
    await world.bet(carol, "25")
    text = embed_text(table)
    assert "**Insurance?** The dealer shows an ace" in text
    assert "**Dealer** A♦ ?? · shows 11" in text
    for seat in ("**Alice**", "**Bob**", "**Carol**"):
        assert seat in text
    for member in (alice, bob, carol):
        answer = await world.click(member, table, "No insurance")
        assert answer.response_type == 7
    assert "▶ 8♠ 8♥ · **16** · 100" in embed_text(table)
    await world.click(alice, table, "Split")
    await world.click(alice, table, "Double")
    await world.click(bob, table, "Surrender")
    await world.click(alice, table, "Stand")

    text = embed_text(table)
    assert "**Place your bets**" in text
    assert is_v2_table(table)
    assert await world.balance(alice) == START_CHIPS + 200
    assert await world.balance(bob) == START_CHIPS - 50
    assert await world.balance(carol) == START_CHIPS + 37
    # One V2 message for the whole round, every edit of it accepted.
    assert world.fake.messages_in(world.channel) == [table]
    assert table.edits > 10
    assert refused_bodies(world) == []


async def test_seven_players_of_four_hands_fit_the_components_message(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    fake = world.fake
    players = [world.alice, world.bob, world.carol, world.admin, world.mod]
    players += [fake.add_member(world.guild, f"{'W' * 28}{n}") for n in range(2)]
    spots = len(players) * 4
    # 28 hands of 10-8 stand on 18; the dealer 9-7 draws a king and busts.
    shoes.add(" ".join(["Ts"] * spots + ["9d"] + ["8c"] * spots + ["7c", "Kd"]) + " " + SPARE)
    await use_layout(world, "components")
    table = await world.start(world.alice)
    for player in players[1:]:
        await world.say(player, "blackjack join")
    for player in players:
        await world.bet(player, "10", hands=4)
    assert world.table().phase.name == "PLAYING"
    assert is_v2_table(table)
    dealt = embed_text(table)
    assert len(world.table().seats) == 7
    for seated in world.table().seats:
        assert f"**{shown_name(seated.name)}**" in dealt
    assert dealt.count(" · **18** · 10") == spots
    for _ in range(spots):
        if world.table().phase.name == "BETTING":
            break
        await world.tick(30)
    assert world.table().phase.name == "BETTING"
    assert is_v2_table(table)
    for player in players:
        assert await world.balance(player) == START_CHIPS + 40, embed_text(table)
    assert world.fake.messages_in(world.channel) == [table]
    assert refused_bodies(world) == []


async def test_a_change_of_layout_shows_at_the_next_round_in_a_new_message(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add("Ts 9h 7c 8d " + "Ts 9h 7c 8d " + "Ts 9h 7c 8d " + SPARE)
    alice = world.alice
    table = await world.start(alice)
    await world.bet(alice, "100")
    await use_layout(world, "components")
    # The round in play goes on in its embed.
    await world.click(alice, table, "Stand")
    assert table.embeds
    assert not table.components_v2
    assert world.fake.messages_in(world.channel) == [table]

    # The next round's first change posts the table afresh, as components.
    await world.bet(alice, "100")
    old, new = world.fake.messages_in(world.channel)
    assert old is table
    assert is_v2_table(new)
    assert "**Dealer** " in embed_text(new)
    assert "moved" in table.content
    assert table.embeds == []
    assert table.buttons() == []
    await world.click(alice, new, "Stand")

    # And back: a V2 message cannot become an embed, so again a new message.
    await use_layout(world, "embed")
    await world.bet(alice, "100")
    newest = world.fake.messages_in(world.channel)[-1]
    assert newest not in (old, new)
    assert newest.embeds
    assert not newest.components_v2
    assert new.components_v2
    assert new.buttons() == []
    assert "moved" in new.text_displays()
    assert refused_bodies(world) == []


async def test_a_resumed_table_keeps_the_layout_of_its_message_until_the_next_round(
    fake_discord: FakeDiscord, tmp_path: Path, shoes: ShoeQueue
) -> None:
    fake = fake_discord
    world = World.build(fake)
    shoes.add("Ts 9h 7c 8d " + SPARE)  # Alice 10 7, the dealer 9 8
    config = Config(
        card_pictures=False,
        token=fake.token,
        database_url=f"sqlite:///{tmp_path / 'chips.sqlite3'}",
    )
    async with running_bot(fake, build_bot(config, clock=fake.clock, shoe_factory=shoes)) as first:
        world.bot = first
        await use_layout(world, "components")
        table = await world.start(world.alice)
        await world.bet(world.alice, "100")
        # Back to the embed while a V2 table is mid-round, then a restart.
        await use_layout(world, "embed")
    async with running_bot(fake, build_bot(config, clock=fake.clock, shoe_factory=shoes)) as second:
        world.bot = second
        await world.settle()
        # The resumed table read its message's layout: the round ends on the V2 message.
        stood = await world.click(world.alice, table, "Stand")
        assert stood.response_type == 7
        assert is_v2_table(table)
        assert "**Place your bets**" in embed_text(table)
        await world.bet(world.alice, "100")
        newest = fake.messages_in(world.channel)[-1]
        assert newest is not table
        assert newest.embeds
        assert refused_bodies(world) == []
    await check_invariants(config.database_url)


async def test_a_components_table_that_cannot_resume_says_so_in_its_v2_message(
    fake_discord: FakeDiscord, tmp_path: Path, shoes: ShoeQueue
) -> None:
    fake = fake_discord
    world = World.build(fake)
    config = Config(
        card_pictures=False,
        token=fake.token,
        database_url=f"sqlite:///{tmp_path / 'chips.sqlite3'}",
    )
    async with running_bot(fake, build_bot(config, clock=fake.clock, shoe_factory=shoes)) as first:
        world.bot = first
        await use_layout(world, "components")
        table = await world.start(world.alice)
        await world.click(world.bob, table, "Join")
        await world.bet(world.alice, "100")
    conn = sqlite3.connect(sqlite_path(config.database_url))
    conn.execute("UPDATE live_tables SET state_json = 'not json at all'")
    conn.commit()
    conn.close()
    async with running_bot(fake, build_bot(config, clock=fake.clock, shoe_factory=shoes)) as again:
        world.bot = again
        await fake.wait_for(lambda: "Round voided" in table.text_displays())
        assert is_v2_table(table)
        assert table.buttons() == []
        assert "its saved state could not be read" in table.text_displays()
        assert await world.balance(world.alice) == START_CHIPS
        assert refused_bodies(world) == []
    await check_invariants(config.database_url)
