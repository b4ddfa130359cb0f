"""The bridge's automatic transfers through the fake Discord and the fake UnbelievaBoat: a
buy-in on sitting down (answered at once, the chips arriving when UnbelievaBoat answers),
a cash-out on leaving a table once the player's round is settled, and one after an idle
time on the bot's clock. Both books always add up. And economy status's settle buttons
work after a restart."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import BlackjackBot, build_bot
from bot.config import Config
from fakediscord import FakeDiscord
from fakediscord.harness import running_bot
from fakeunb import FakeUnbelievaBoat
from tests.db.invariants import check_invariants
from tests.support.bridge import books, connect, settled, wait_out_rate_limit
from tests.support.discord_world import World
from tests.support.shoes import SPARE, ShoeQueue

SAT = "You sat down. Bet with /bet amount [hands]."
ON_ITS_WAY = (
    "Your buy-in of {chips} chips for {cash} UnbelievaBoat cash is on its way: the chips"
    " arrive as soon as UnbelievaBoat answers."
)
REASON = "Blackjack table chips"


@pytest.fixture
async def unb() -> AsyncIterator[FakeUnbelievaBoat]:
    async with FakeUnbelievaBoat() as fake:
        yield fake


@pytest.fixture
def bot_settings(unb: FakeUnbelievaBoat) -> dict[str, object]:
    """The bot talks to the fake UnbelievaBoat."""
    return {"unbelievaboat_api_url": unb.url}


def patches(unb: FakeUnbelievaBoat) -> list[int]:
    """The cash changes UnbelievaBoat was asked for, in order."""
    return [r.body["cash"] for r in unb.changes() if r.body is not None]


async def test_the_automatic_transfers_are_off_by_default_and_set_by_the_admin(
    world: World, bot: BlackjackBot, unb: FakeUnbelievaBoat
) -> None:
    await connect(world, unb)
    assert await world.say(world.admin, "blackjack-admin economy auto") == (
        "Automatic buy-in on sitting down: off\nCash-out on leaving a table: off\n"
        "Cash-out after idle time: off"
    )
    unb.set_balance(world.guild.id, world.alice.id, cash=1_000)
    await world.start(world.alice)
    assert await world.say(world.bob, "blackjack join") == SAT
    await settled(world)
    assert unb.changes() == []
    answer = await world.say(
        world.admin,
        "blackjack-admin economy auto",
        buy_in=300,
        cash_out_on_leave=True,
        idle_cash_out_minutes=20,
    )
    assert answer == (
        "Automatic buy-in on sitting down: up to 300 chips\nCash-out on leaving a table: on\n"
        "Cash-out after idle time: after 20 minutes"
    )
    settings = await world.store.get_guild_settings(world.guild.id)
    assert (settings.bridge_buy_in, settings.bridge_cash_out_on_leave) == (300, 1)
    assert settings.bridge_idle_cash_out_min == 20
    refused = await world.say(world.alice, "blackjack-admin economy auto", buy_in=1)
    assert refused == "Only members with the Manage Server permission can use /blackjack-admin."
    assert (await world.store.get_guild_settings(world.guild.id)).bridge_buy_in == 300


async def test_sitting_down_buys_in_the_difference_without_waiting_on_unbelievaboat(
    world: World, bot: BlackjackBot, unb: FakeUnbelievaBoat
) -> None:
    await connect(world, unb)
    guild, bob = world.guild.id, world.bob.id
    unb.set_balance(guild, bob, cash=1_000)
    await world.start(world.alice)
    await world.say(world.admin, "blackjack-admin economy auto", buy_in=500)
    # UnbelievaBoat makes the next call wait 10 s (a 429): the seat does not wait.
    unb.rate_limit_next(10_000)
    joined = await world.slash(world.bob, "blackjack join")
    assert joined.content == f"{SAT}\n{ON_ITS_WAY.format(chips=500, cash=500)}"
    assert await world.balance(world.bob) == 0
    await wait_out_rate_limit(world, 10)  # the wait is over: the buy-in goes on
    await settled(world)
    [told] = await joined.wait_for_followups(1)
    assert told.content == "You bought 500 chips with 500 cash. Your chips: 500."
    assert told.ephemeral
    assert (unb.cash(guild, bob), await world.balance(world.bob)) == (500, 500)
    assert patches(unb) == [-500]
    assert {seat.user_id for seat in world.table().seats} == {world.alice.id, bob}
    assert await books(world, unb, world.bob) == 1_000


async def test_a_buy_in_over_the_cash_is_told_privately_and_the_seat_stays(
    world: World, bot: BlackjackBot, unb: FakeUnbelievaBoat
) -> None:
    await connect(world, unb)
    guild, bob = world.guild.id, world.bob.id
    unb.set_balance(guild, bob, cash=120)
    await world.say(world.bob, "blackjack cash-in", amount=20)  # short of 500 by 480
    await world.start(world.alice)
    await world.say(world.admin, "blackjack-admin economy auto", buy_in=500)
    unb.rate_limit_next(10_000)  # the answer comes after the seat's, on the bot's clock
    joined = await world.slash(world.bob, "blackjack join")
    assert joined.content == f"{SAT}\n{ON_ITS_WAY.format(chips=480, cash=480)}"
    await wait_out_rate_limit(world, 10)
    await settled(world)
    [told] = await joined.wait_for_followups(1)
    assert told.content == (
        "Your buy-in was refused: you have 100 cash on UnbelievaBoat. You keep your seat;"
        " buy chips with /blackjack cash-in."
    )
    assert told.ephemeral
    assert bob in {seat.user_id for seat in world.table().seats}
    assert patches(unb) == [-20]  # Bob's own cash-in only
    assert (unb.cash(guild, bob), await world.balance(world.bob)) == (100, 20)
    assert await books(world, unb, world.bob) == 120


async def test_leaving_cashes_out_once_the_round_is_settled(
    world: World, bot: BlackjackBot, unb: FakeUnbelievaBoat, shoes: ShoeQueue
) -> None:
    # Alice 10 9 (19) stands; the dealer shows a 7, holds a 10: 17, and stands.
    shoes.add("Ts 7d 9h Tc " + SPARE)
    await connect(world, unb)
    guild, alice = world.guild.id, world.alice.id
    await world.say(world.admin, "blackjack-admin economy auto", cash_out_on_leave=True)
    unb.set_balance(guild, alice, cash=1_000)
    await world.say(world.alice, "blackjack cash-in", amount=300)
    table = await world.start(world.alice)
    assert await world.bet(world.alice, "100") == "Bet 100. Balance: 200."
    assert await world.say(world.alice, "blackjack leave") == "You'll leave when this round ends."
    await settled(world)
    assert patches(unb) == [-300]  # nothing moves while her chips are in the round
    await world.click(world.alice, table, "Stand")
    await settled(world)
    assert patches(unb) == [-300, 400]
    assert (unb.cash(guild, alice), await world.balance(world.alice)) == (1_100, 0)
    assert await world.ledger(world.alice) == [
        ("cash_in", 300),
        ("bet", -100),
        ("payout", 200),
        ("cash_out", -400),
    ]
    assert [r.body for r in unb.changes()][-1] == {"cash": 400, "reason": REASON}


async def test_a_player_still_seated_elsewhere_keeps_their_chips_on_leaving(
    world: World, bot: BlackjackBot, unb: FakeUnbelievaBoat
) -> None:
    await connect(world, unb)
    guild, bob = world.guild.id, world.bob.id
    await world.say(world.admin, "blackjack-admin economy auto", cash_out_on_leave=True)
    unb.set_balance(guild, bob, cash=200)
    await world.say(world.bob, "blackjack cash-in", amount=200)
    await world.start(world.alice)
    await world.start(world.carol, world.other_channel)
    await world.say(world.bob, "blackjack join")
    await world.say(world.bob, "blackjack join", world.other_channel)
    assert await world.say(world.bob, "blackjack leave") == "You left."
    await settled(world)
    assert (unb.cash(guild, bob), await world.balance(world.bob)) == (0, 200)
    assert await world.say(world.bob, "blackjack leave", world.other_channel) == "You left."
    await settled(world)
    assert (unb.cash(guild, bob), await world.balance(world.bob)) == (200, 0)


async def test_idle_chips_go_back_as_cash_but_never_from_a_round_in_play(
    world: World, bot: BlackjackBot, unb: FakeUnbelievaBoat, shoes: ShoeQueue
) -> None:
    # Alice 10 9 (19) stands; the dealer shows a 7, holds a 10: 17, and stands.
    shoes.add("Ts 7d 9h Tc " + SPARE)
    await connect(world, unb)
    guild, alice = world.guild.id, world.alice.id
    await world.store.set_guild_settings(guild, action_timer_s=3600, idle_close_s=86_400)
    await world.say(world.admin, "blackjack-admin economy auto", idle_cash_out_minutes=3)
    unb.set_balance(guild, alice, cash=500)
    await world.say(world.alice, "blackjack cash-in", amount=300)
    table = await world.start(world.alice)
    await world.bet(world.alice, "100")
    await world.tick(5 * 60)  # her hand waits for her decision: chips at stake
    await settled(world)
    assert patches(unb) == [-300]
    await world.click(world.alice, table, "Stand")  # paid 200: her chips moved now
    await world.tick(2 * 60)
    await settled(world)
    assert patches(unb) == [-300]
    await world.tick(2 * 60)
    await settled(world)
    assert patches(unb) == [-300, 400]
    assert (unb.cash(guild, alice), await world.balance(world.alice)) == (600, 0)


async def test_the_settle_buttons_work_after_a_restart(
    fake_discord: FakeDiscord, unb: FakeUnbelievaBoat, tmp_path: Path
) -> None:
    fake, world = fake_discord, World.build(fake_discord)
    guild, alice = world.guild.id, world.alice.id
    config = Config(
        card_pictures=False,
        token=fake.token,
        database_url=f"sqlite:///{tmp_path / 'chips.sqlite3'}",
        unbelievaboat_api_url=unb.url,
    )
    async with running_bot(fake, build_bot(config, clock=fake.clock)) as first:
        world.bot = first
        await connect(world, unb)
        unb.set_balance(guild, alice, cash=80)  # the cash-in took 20 of 100 (answer lost)
        held = await world.store.bridge.begin(guild, alice, "cash_in", 20, 20, 100)
        await world.store.bridge.hold(held.id)
        reply = await world.slash(world.admin, "blackjack-admin economy status")
        status = reply.original
        assert status is not None
    went = f"#{held.id} went through"
    async with running_bot(fake, build_bot(config, clock=fake.clock)) as second:
        world.bot = second
        roles, world.admin.roles = world.admin.roles, []  # no longer Manage Server
        refused = await fake.click(world.admin, status, label=went)
        world.admin.roles = roles
        assert refused.content == (
            "Only members with the Manage Server permission can use /blackjack-admin."
        )
        still = await world.store.bridge.transfer(held.id)
        assert still is not None
        assert still.status == "held"
        assert await world.balance(world.alice) == 0
        pressed = await fake.click(world.admin, status, label=went)
        assert pressed.content == f"Transfer #{held.id} is settled."
        again = await fake.click(world.admin, status, label=f"#{held.id} did not")
        assert again.content == f"Transfer #{held.id} was already settled."
        assert await world.balance(world.alice) == 20
        assert unb.cash(guild, alice) + await world.balance(world.alice) == 100
        settled_by = await world.store.bridge.transfer(held.id)
        assert settled_by is not None
        assert (settled_by.status, settled_by.settled_by) == ("done", world.admin.id)
    await check_invariants(config.database_url)


async def test_cash_ins_and_buy_ins_past_the_daily_loss_limit_never_reach_unbelievaboat(
    world: World, bot: BlackjackBot, unb: FakeUnbelievaBoat
) -> None:
    await connect(world, unb)
    guild, alice = world.guild.id, world.alice.id
    unb.set_balance(guild, alice, cash=1_000)
    await world.say(world.alice, "limits set", daily_loss=150)
    await world.say(world.alice, "blackjack cash-in", amount=100)
    asked = len(unb.requests)
    refused = await world.say(world.alice, "blackjack cash-in", amount=60)
    assert refused.startswith(
        "That would take the chips you bought today past your daily loss limit of 150"
        " (bought today: 100)."
    )
    await world.say(world.admin, "blackjack-admin economy auto", buy_in=300)
    day_ends = (int(world.fake.clock.now()) // 86_400 + 1) * 86_400  # UTC midnight
    started = await world.slash(world.alice, "blackjack start")
    [told] = await started.wait_for_followups(1)
    assert told.content == (
        "No buy-in: That would take the chips you bought today past your daily loss limit of"
        f" 150 (bought today: 100). It resets <t:{day_ends}:R>."
    )
    await settled(world)
    assert len(unb.requests) == asked
    assert len(started.followups) == 1
    assert (unb.cash(guild, alice), await world.balance(world.alice)) == (900, 100)


async def test_the_join_button_says_the_buy_in_is_on_its_way_privately(
    world: World, bot: BlackjackBot, unb: FakeUnbelievaBoat
) -> None:
    await connect(world, unb)
    guild, bob = world.guild.id, world.bob.id
    unb.set_balance(guild, bob, cash=250)
    table = await world.start(world.alice)
    await world.say(world.admin, "blackjack-admin economy auto", buy_in=200)
    unb.rate_limit_next(10_000)
    pressed = await world.fake.click(world.bob, table, label="Join")
    [note] = await pressed.wait_for_followups(1)
    assert note.content == ON_ITS_WAY.format(chips=200, cash=200)
    assert note.ephemeral
    await wait_out_rate_limit(world, 10)
    await settled(world)
    [_, told] = await pressed.wait_for_followups(2)
    assert told.content == "You bought 200 chips with 200 cash. Your chips: 200."
    assert (unb.cash(guild, bob), await world.balance(world.bob)) == (50, 200)
