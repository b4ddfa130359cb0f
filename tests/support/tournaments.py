"""Tournaments through the fake Discord: the coordinator, its cog, stacked hands, and asking
and waiting as a player would."""

from __future__ import annotations

from typing import cast

from bot.tournaments.service import Tournaments
from bot.tournaments.state import Tournament
from cogs.tournament import TournamentCog
from fakediscord.models import FakeMember
from fakediscord.records import FakeMessage
from tests.support.discord_world import World
from tests.support.shoes import SPARE, ShoeQueue

#: Hand 1 at a table of Alice, Bob and Carol betting 10 each: Alice and Bob stand on 18,
#: Carol (played by basic strategy) stands on 20, the dealer stands on 19.
TIED_BELOW = "Th Td Tc Ts 8h 8d Kc 9s " + SPARE


def cog(world: World) -> TournamentCog:
    found = world.running.get_cog("Tournament")
    assert found is not None
    return cast(TournamentCog, found)


def service(world: World) -> Tournaments:
    return world.running.tournaments


def stack_hands(world: World, shoes: ShoeQueue) -> None:
    """Each tournament hand is dealt from the next stacked shoe (then seeded ones)."""
    service(world).mode.hand_shoe = lambda table, seed: shoes(table.rules)


async def settled(world: World) -> None:
    await world.settle()
    await cog(world).idle()
    await world.settle()


async def ask(
    world: World, member: object, command: str, channel: object = None, **options: object
) -> str:
    text = await world.say(member, command, channel, **options)  # type: ignore[arg-type]
    await settled(world)
    return text


async def tick(world: World, seconds: float) -> None:
    await world.tick(seconds)
    await settled(world)


def the_board(world: World, channel: object = None) -> FakeMessage:
    messages = [
        m
        for m in world.fake.messages_in(channel or world.channel)  # type: ignore[arg-type]
        if m.embed is not None and str(m.embed.get("title", "")).startswith("Tournament")
    ]
    assert messages
    return messages[-1]


def live(world: World) -> Tournament:
    (t,) = service(world).live.values()
    return t


def stacks(world: World, t: Tournament, index: int = 0) -> dict[int, int]:
    """Each player's tournament chips at one of its tables."""
    table = world.running.tables.registry.tables[t.table_ids[index]]
    return {user: stack.chips for user, stack in table.mode_state.stacks.items()}


async def entered(world: World, *members: FakeMember, fee: int = 0, **fmt: object) -> None:
    """A tournament created by the moderator in the table channel, ``members`` in it."""
    await world.slash(world.mod, "tournament create", None, fee=fee, **fmt)
    await settled(world)
    for member in members:
        answer = await ask(world, member, "tournament join")
        assert answer.startswith("You are in tournament"), answer
