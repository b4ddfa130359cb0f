"""A handled interaction is freed as soon as its task ends, not by the garbage collector.

discord.py makes each interaction a reference cycle (its cached response points back at
it); the bot breaks it once the interaction is answered (``bot.collector``), so a
click's payload and parsed message do not wait for the next collections.
"""

from __future__ import annotations

import gc
from typing import Any

import discord
from discord_world import World, embed_text

from bot.app import BlackjackBot


async def test_a_handled_click_and_bet_are_freed_without_the_collector(
    bot: BlackjackBot, world: World
) -> None:
    table = await world.start(world.alice)
    handled: list[int] = []

    async def note(interaction: discord.Interaction[Any]) -> None:
        handled.append(interaction.id)  # the id only: holding the object would keep it

    bot.add_listener(note, "on_interaction")
    gc.collect()
    gc.disable()
    try:
        await world.click(world.bob, table, "Join")
        await world.bet(world.bob, "100")
        await world.settle()
        alive = [
            o for o in gc.get_objects() if isinstance(o, discord.Interaction) and o.id in handled
        ]
    finally:
        gc.enable()
    assert len(handled) == 2
    assert alive == []
    assert "bob" in embed_text(table).lower()  # both were applied and shown
