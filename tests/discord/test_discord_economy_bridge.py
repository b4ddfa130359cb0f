"""The bridge to UnbelievaBoat through the fake Discord and the fake UnbelievaBoat: an
admin connects with a token typed into a modal, players cash in and out, and a transfer
waiting for an admin is settled with a button from ``economy status``."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator

import pytest

from bot.app import BlackjackBot
from bot.log_setup import PLAIN, RedactingFormatter
from fakeunb import FakeUnbelievaBoat
from tests.support.bridge import TOKEN, connect
from tests.support.discord_world import World
from tests.support.shoes import SPARE, ShoeQueue


@pytest.fixture
async def unb() -> AsyncIterator[FakeUnbelievaBoat]:
    async with FakeUnbelievaBoat() as fake:
        yield fake


@pytest.fixture
def bot_settings(unb: FakeUnbelievaBoat) -> dict[str, object]:
    """The bot talks to the fake UnbelievaBoat."""
    return {"unbelievaboat_api_url": unb.url}


async def test_connect_cash_in_and_out_keep_both_books_equal(
    world: World, bot: BlackjackBot, unb: FakeUnbelievaBoat, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    answer = await connect(world, unb)
    assert answer.startswith("Connected to UnbelievaBoat.")
    assert TOKEN not in answer
    guild, alice = world.guild.id, world.alice.id
    unb.set_balance(guild, alice, cash=1_000)
    assert await world.say(world.alice, "blackjack cash-in", amount=2_000) == (
        "You have 1,000 cash on UnbelievaBoat: not enough for this."
    )
    assert await world.say(world.alice, "blackjack cash-in", amount=400) == (
        "You bought 400 chips with 400 cash. Your chips: 400."
    )
    assert await world.say(world.alice, "blackjack cash-out", amount=150) == (
        "You changed 150 chips into 150 cash. Your chips: 250."
    )
    assert await world.say(world.alice, "blackjack cash-out") == (
        "You changed 250 chips into 250 cash. Your chips: 0."
    )
    assert unb.cash(guild, alice) == 1_000
    assert await world.balance(world.alice) == 0
    status = await world.say(world.admin, "blackjack-admin economy status")
    assert "Chips held by players: 0" in status
    assert TOKEN not in status
    # Every line as the bot's log handlers write it (bot.log_setup), at DEBUG.
    lines = [RedactingFormatter(PLAIN).format(record) for record in caplog.records]
    assert any("economy_bridges" in line for line in lines)
    assert [line for line in lines if TOKEN in line] == []


async def test_a_bad_token_is_refused_and_nothing_is_stored(
    world: World, bot: BlackjackBot, unb: FakeUnbelievaBoat
) -> None:
    opened = await world.fake.slash(world.admin, "blackjack-admin economy connect", world.channel)
    submitted = await world.fake.submit_modal(
        world.admin, opened, {"UnbelievaBoat API token": "wrong-token"}
    )
    loaded = await submitted.wait_until_loaded()
    assert loaded.content.startswith("UnbelievaBoat did not accept this token")
    assert await world.store.bridge.bridge(world.guild.id) is None
    assert await world.say(world.alice, "blackjack cash-in", amount=5) == (
        "This server's chips are not linked to UnbelievaBoat."
    )


async def test_a_held_transfer_is_settled_by_the_admins_button(
    world: World, bot: BlackjackBot, unb: FakeUnbelievaBoat
) -> None:
    await connect(world, unb)
    guild, alice = world.guild.id, world.alice.id
    unb.set_balance(guild, alice, cash=80)  # the cash-in took 20 of 100 (the answer was lost)
    held = await world.store.bridge.begin(guild, alice, "cash_in", 20, 20, 100)
    await world.store.bridge.hold(held.id)
    assert await world.say(world.alice, "blackjack cash-in", amount=5) == (
        "Your last transfer is still being checked: try again once it is settled."
    )
    assert await world.say(world.admin, "blackjack-admin economy disconnect") == (
        "A transfer is still open: settle it in /blackjack-admin economy status first."
        " Nothing changed."
    )
    reply = await world.slash(world.admin, "blackjack-admin economy status")
    assert reply.original is not None
    assert "Transfers waiting for an admin: 1" in reply.original.content
    assert reply.original.content.endswith(
        f"#{held.id}: <@{alice}> paying 20 cash for 20 chips (their cash before: 100)"
    )
    pressed = await world.fake.click(world.admin, reply.original, label=f"#{held.id} went through")
    assert pressed.content == f"Transfer #{held.id} is settled."
    assert await world.balance(world.alice) == 20
    again = await world.fake.click(world.admin, reply.original, label=f"#{held.id} did not")
    assert again.content == f"Transfer #{held.id} was already settled."
    assert await world.balance(world.alice) == 20
    assert unb.cash(guild, alice) + await world.balance(world.alice) == 100


async def test_daily_starting_chips_and_grants_are_off_on_a_bridged_server(
    world: World, bot: BlackjackBot, unb: FakeUnbelievaBoat
) -> None:
    await connect(world, unb)
    assert await world.store.read_balance(world.guild.id, world.bob.id) == 0
    assert await world.say(world.bob, "daily") == (
        "This server's chips come from UnbelievaBoat: buy them with /blackjack cash-in."
    )
    grant = await world.say(world.admin, "blackjack-admin grant", member=world.bob, amount=50)
    assert grant.startswith("This server's chips come from UnbelievaBoat")
    assert await world.balance(world.bob) == 0
    assert await world.say(world.admin, "blackjack-admin economy disconnect") == (
        "Disconnected from UnbelievaBoat."
    )
    assert (await world.say(world.bob, "daily")).startswith("You claimed")


async def test_chips_cashed_in_play_a_round_and_cash_out_with_the_winnings(
    world: World, bot: BlackjackBot, unb: FakeUnbelievaBoat, shoes: ShoeQueue
) -> None:
    # Alice 10 9 (19) stands; the dealer shows a 7, holds a 10: 17, and stands.
    shoes.add("Ts 7d 9h Tc " + SPARE)
    await connect(world, unb)
    guild, alice = world.guild.id, world.alice.id
    unb.set_balance(guild, alice, cash=1_000)
    await world.say(world.alice, "blackjack cash-in", amount=500)
    table = await world.start(world.alice)
    assert await world.bet(world.alice, "100") == "Bet 100. Balance: 400."
    await world.click(world.alice, table, "Stand")
    assert await world.balance(world.alice) == 600
    assert await world.say(world.alice, "blackjack cash-out") == (
        "You changed 600 chips into 600 cash. Your chips: 0."
    )
    # UnbelievaBoat's book: the cash less the cash-in, plus the cash-out.
    assert unb.cash(guild, alice) == 1_000 - 500 + 600
    assert [r.body for r in unb.changes()] == [
        {"cash": -500, "reason": "Blackjack table chips"},
        {"cash": 600, "reason": "Blackjack table chips"},
    ]
    assert await world.ledger(world.alice) == [
        ("cash_in", 500),
        ("bet", -100),
        ("payout", 200),
        ("cash_out", -600),
    ]


async def test_a_member_on_a_break_cannot_cash_in_but_can_cash_out(
    world: World, bot: BlackjackBot, unb: FakeUnbelievaBoat
) -> None:
    await connect(world, unb)
    guild, alice = world.guild.id, world.alice.id
    unb.set_balance(guild, alice, cash=100)
    await world.say(world.alice, "blackjack cash-in", amount=100)
    await world.store.play.exclude(alice, 86_400)
    refused = await world.say(world.alice, "blackjack cash-in", amount=10)
    assert refused.startswith("You're taking a break from play until ")
    assert len(unb.changes()) == 1
    assert await world.say(world.alice, "blackjack cash-out") == (
        "You changed 100 chips into 100 cash. Your chips: 0."
    )


async def test_a_transfer_left_pending_is_reconciled_when_the_bridge_loads(
    world: World, bot: BlackjackBot, unb: FakeUnbelievaBoat
) -> None:
    await connect(world, unb)
    guild, alice = world.guild.id, world.alice.id
    unb.set_balance(guild, alice, cash=100)
    # A previous run wrote the cash-in and was stopped as UnbelievaBoat applied it.
    left = await world.store.bridge.begin(guild, alice, "cash_in", 40, 40, 100)
    unb.set_balance(guild, alice, cash=60)
    await bot.reload_extension("cogs.economy_bridge")
    # The reloaded module's cog (its class is the reloaded module's too).
    reconciling = getattr(bot.get_cog("EconomyBridge"), "reconciling", None)
    assert reconciling is not None
    [result] = await reconciling
    assert (result.transfer.id, result.outcome) == (left.id, "done")
    assert await world.balance(world.alice) == 40
    await world.fake.sync()
    assert await world.say(world.alice, "blackjack cash-out") == (
        "You changed 40 chips into 40 cash. Your chips: 0."
    )
