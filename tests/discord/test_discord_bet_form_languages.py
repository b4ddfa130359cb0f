"""The Bet button's form of a tournament table asks and reads the secret-bet answer in the
language of each player's client: its yes-words are the catalogs' (English's are read too)."""

from __future__ import annotations

from typing import cast

import pytest

from cogs.tournament import TournamentCog
from fakediscord.records import FakeMessage
from tests.support.discord_world import World, embed_text
from tests.support.shoes import SPARE, ShoeQueue

pytestmark = pytest.mark.usefixtures("bot")


async def settled(world: World) -> None:
    await world.settle()
    cog = world.running.get_cog("Tournament")
    assert cog is not None
    await cast(TournamentCog, cog).idle()
    await world.settle()


def the_board(world: World) -> FakeMessage:
    boards = [
        m
        for m in world.fake.messages_in(world.channel)
        if m.embed is not None and str(m.embed.get("title", "")).startswith("Tournament")
    ]
    assert boards
    return boards[-1]


async def sealed(world: World, member: object, fields: dict[str, str]) -> str:
    opened = await world.fake.click(member, the_board(world), label="Bet")  # type: ignore[arg-type]
    answered = await world.fake.submit_modal(member, opened, fields)  # type: ignore[arg-type]
    await settled(world)
    assert answered.content is not None
    return answered.content


async def test_each_player_answers_the_secret_bet_question_in_their_language(
    world: World, shoes: ShoeQueue
) -> None:
    world.running.tournaments.mode.hand_shoe = lambda table, seed: shoes(table.rules)
    shoes.add("Th Td Tc Ts 8h 8d Kc 9s " + SPARE)
    world.alice.user.locale = "fr"
    world.bob.user.locale = "es-ES"
    await world.slash(world.mod, "tournament create", None, hands=2, eliminations="1")
    await settled(world)
    for member in (world.alice, world.bob, world.carol):
        await world.say(member, "tournament join")
    await world.say(world.mod, "tournament start")
    await settled(world)
    assert await sealed(
        world, world.alice, {"Jetons": "10", "Ta mise secrète unique ? (oui ou non)": "Oui"}
    ) == ("Ta mise secrète de 10 jetons est scellée.")
    # "si" (without its accent) is Spanish for yes as players type it; "no" is not yes.
    assert await sealed(
        world, world.bob, {"Fichas": "10", "¿Tu única apuesta secreta? (sí o no)": "si"}
    ) == ("Tu apuesta secreta de 10 fichas está sellada.")
    assert await sealed(
        world, world.carol, {"Chips": "10", "Your one secret bet? (yes or no)": "no"}
    ) == ("Your bet of 10 chips is sealed.")
    assert embed_text(the_board(world)).count("secret bet") == 2
