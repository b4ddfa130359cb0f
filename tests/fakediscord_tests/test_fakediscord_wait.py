"""``fake.wait_for`` returns when a wake-up finds its condition true, and only then."""

from __future__ import annotations

import asyncio
import time

import pytest

from fakediscord import FakeDiscord


async def test_a_condition_made_true_and_signalled_ends_the_wait_at_once(
    fake_discord: FakeDiscord,
) -> None:
    done: list[int] = []

    async def happen() -> None:
        await asyncio.sleep(0)
        done.append(1)
        fake_discord.changed()

    started = time.perf_counter()
    await asyncio.gather(fake_discord.wait_for(lambda: done == [1], max_wait=5.0), happen())
    assert time.perf_counter() - started < 1.0


async def test_a_condition_that_never_holds_fails_after_max_wait(
    fake_discord: FakeDiscord,
) -> None:
    fake_discord.changed()  # a wake-up that finds it false changes nothing
    with pytest.raises(TimeoutError, match=r"^condition not met within 0\.1s$"):
        await fake_discord.wait_for(lambda: False, max_wait=0.1)


async def test_a_condition_made_true_without_a_signal_fails_and_says_so(
    fake_discord: FakeDiscord,
) -> None:
    done: list[int] = []
    asyncio.get_running_loop().call_soon(done.append, 1)  # nothing calls fake.changed()
    with pytest.raises(TimeoutError, match=r"it holds now, but nothing called fake\.changed\(\)$"):
        await fake_discord.wait_for(lambda: done == [1], max_wait=0.1)
