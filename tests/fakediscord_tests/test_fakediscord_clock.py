"""ManualClock: time moves only when the test moves it, and sleepers wake in order."""

from __future__ import annotations

import asyncio
import time

from bot.clock import Clock, SystemClock
from fakediscord import ManualClock
from fakediscord.clock import settle


async def test_system_clock_reads_real_time_and_does_not_sleep_for_the_past() -> None:
    clock: Clock = SystemClock()
    before = time.time()
    await clock.sleep_until(before - 60)
    assert before <= clock.now() < before + 1


async def test_manual_clock_is_a_clock_that_only_moves_when_told() -> None:
    clock: Clock = ManualClock(start=100.0)
    await clock.sleep(0)
    assert clock.now() == 100.0


async def test_sleepers_wake_when_advanced_past_their_time_in_order() -> None:
    clock = ManualClock(start=1000.0)
    woke: list[str] = []

    async def sleeper(name: str, seconds: float) -> None:
        await clock.sleep(seconds)
        woke.append(name)

    tasks = [asyncio.create_task(sleeper(n, s)) for n, s in [("30s", 30), ("5s", 5), ("5s-b", 5)]]
    await clock.wait_for_sleepers(3)
    clock.advance(4.9)
    await settle()
    assert woke == []
    clock.advance(0.1)
    await settle()
    assert woke == ["5s", "5s-b"]
    clock.advance(60)
    await asyncio.gather(*tasks)
    assert woke == ["5s", "5s-b", "30s"]
    assert clock.now() == 1065.0


async def test_sleep_until_a_past_time_returns_at_once() -> None:
    clock = ManualClock(start=50.0)
    await clock.sleep_until(10.0)
    assert clock.sleepers == 0


async def test_run_for_lets_a_timer_loop_tick_each_second() -> None:
    clock = ManualClock(start=0.0)
    ticks: list[float] = []

    async def every_second() -> None:
        while True:
            await clock.sleep(1)
            ticks.append(clock.now())

    loop = asyncio.create_task(every_second())
    await clock.wait_for_sleepers(1)
    await clock.run_for(5)
    loop.cancel()
    assert ticks == [1.0, 2.0, 3.0, 4.0, 5.0]
    assert clock.now() == 5.0


async def test_cancelled_sleeper_is_forgotten() -> None:
    clock = ManualClock()
    task = asyncio.create_task(clock.sleep(10))
    await clock.wait_for_sleepers(1)
    task.cancel()
    await settle()
    assert clock.sleepers == 0
    assert clock.next_wakeup() is None
