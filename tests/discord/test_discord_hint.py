"""The Hint button through Discord: answered at once while the bot's strategy worker (a
real process) is cold, then with the exact figures, and never with an error while the
bot stops."""

from __future__ import annotations

import asyncio
import re

from bot.app import RESTARTING, BlackjackBot
from bot.tables.advice import HINT_WAIT_S
from fakediscord.clock import ManualClock
from tests.support.discord_world import World
from tests.support.shoes import SPARE, ShoeQueue

#: The Hint's words (bot/tables/advice.py) while its exact figures are being worked out,
#: and before its figures.
NOT_READY = "(infinite-deck chart: this table's exact figures are still being worked out)"
WHAT_FIGURES_MEAN = "What each choice wins or loses on average, as a share of your bet"

# Alice 10 6 against the dealer's 9: her move.
HARD_16_AGAINST_9 = "Ts 9h 6c 8d " + SPARE


async def until_a_hint_waits_for_the_worker(clock: ManualClock) -> None:
    """Return once a Hint sleeps on the clock for its ``HINT_WAIT_S`` (the soonest sleeper)."""
    due = clock.now() + HINT_WAIT_S
    while clock.next_wakeup() != due:
        await clock.wait_for_sleepers(clock.sleepers + 1)


async def test_a_cold_hint_answers_from_the_infinite_chart_then_a_later_one_exactly(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add(HARD_16_AGAINST_9)
    table = await world.start(world.alice)
    await world.bet(world.alice, "100")

    cold = await world.click(world.alice, table, "Hint")
    assert cold.ephemeral
    assert "Basic strategy: surrender (hard 16 against a 9)" in (cold.content or "")
    assert NOT_READY in (cold.content or "")

    await bot.tables.advice.settle()  # the worker has worked out this table's chart
    warm = await world.click(world.alice, table, "Hint")
    assert warm.ephemeral
    assert "Basic strategy: surrender (hard 16 against a 9).\n" in (warm.content or "")
    # The figures are said to be each choice's average result, in percent of the bet.
    assert f"{WHAT_FIGURES_MEAN}: surrender \u221250.0%, " in (warm.content or "")
    assert re.search(r", stand \u2212\d\d\.\d%", warm.content or "")
    assert NOT_READY not in (warm.content or "")


async def test_a_hint_waiting_for_the_worker_when_the_bot_stops_is_told_it_is_restarting(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    fake = world.fake
    shoes.add(HARD_16_AGAINST_9)
    table = await world.start(world.alice)
    await bot.tables.advice.settle()  # warm for this table's rules: a Hint asks the worker
    await world.bet(world.alice, "100")
    # Another table's rules keep the worker busy (seconds of chart), so the Hint waits.
    await world.start(world.bob, world.other_channel, preset="single-deck")

    hint = await fake.click(world.alice, table, label="Hint", wait=False)
    await until_a_hint_waits_for_the_worker(fake.clock)
    closing = asyncio.ensure_future(bot.close())
    await fake.wait_for(lambda: hint.response_type is not None)
    assert (hint.response_type, hint.ephemeral) == (4, True)
    assert hint.content == RESTARTING
    await closing
