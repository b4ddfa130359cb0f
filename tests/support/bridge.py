"""The bridge to UnbelievaBoat as the end-to-end tests drive it: an admin connects the
world's server to the fake UnbelievaBoat, and the automatic transfers are waited for."""

from __future__ import annotations

from bot.app import BlackjackBot
from bot.bridge.auto import AutoTransfers
from fakediscord.models import FakeMember
from fakeunb import FakeUnbelievaBoat
from tests.support.discord_world import World

TOKEN = "unb-app-token-for-the-casino"


async def connect(world: World, unb: FakeUnbelievaBoat) -> str:
    """The admin connects the server (the token typed into the modal); the answer."""
    unb.authorize(TOKEN, world.guild.id)
    opened = await world.fake.slash(world.admin, "blackjack-admin economy connect", world.channel)
    assert opened.modal is not None
    submitted = await world.fake.submit_modal(
        world.admin, opened, {"UnbelievaBoat API token": TOKEN}
    )
    loaded = await submitted.wait_until_loaded()
    return loaded.content


def auto_of(bot: BlackjackBot) -> AutoTransfers:
    """The running bot's automatic transfers."""
    auto = getattr(bot.get_cog("EconomyAuto"), "auto", None)
    assert isinstance(auto, AutoTransfers)
    return auto


async def settled(world: World) -> None:
    """Every automatic transfer started so far has ended, and the tables are quiet."""
    await world.settle()
    await auto_of(world.running).drain()
    await world.settle()


async def books(world: World, unb: FakeUnbelievaBoat, *members: FakeMember) -> int:
    """The members' value in both books at 1:1: UnbelievaBoat cash plus chips."""
    guild, total = world.guild.id, 0
    for member in members:
        total += unb.cash(guild, member.id) + await world.store.read_balance(guild, member.id)
    return total


async def wait_out_rate_limit(world: World, seconds: float) -> None:
    """Once the bot's UnbelievaBoat client sleeps on the clock for a 429's ``seconds``
    (asked after the test's last step; shorter than any table timer), move the clock past
    it, so the call goes on."""
    clock = world.fake.clock
    due = clock.now() + seconds
    while clock.next_wakeup() != due:
        await clock.wait_for_sleepers(clock.sleepers + 1)
    clock.advance(seconds)
