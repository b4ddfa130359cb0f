"""The bot as a process: start-up settings, and a SIGKILL in the middle of a round.

In a subprocess the bot runs on the system clock, so nothing here waits for a timer.
"""

from __future__ import annotations

import asyncio
import copy
import os
import sys
from functools import partial
from pathlib import Path

import db
from bot.app import build_bot
from bot.config import TOKEN_HELP, Config
from bot.tables.resume import BACK
from fakediscord import FakeDiscord
from fakediscord.harness import REPO_ROOT, BotProcess, running_bot
from fakediscord.records import FakeMessage
from tests.db.invariants import check_invariants
from tests.processes import Running, found_within, gone_within, in_group
from tests.support.bot_env import NO_DOTENV
from tests.support.discord_world import World, embed_text
from tests.support.table_buttons import over, round_no

MID_ROUND = ("**Your move**", "**Insurance?**")


async def run_bot_command(env: dict[str, str]) -> tuple[int, str]:
    """``python -m bot`` with exactly these settings: exit status and everything printed."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=REPO_ROOT,
        env={
            "PATH": os.environ.get("PATH", ""),
            "PYTHONPATH": str(REPO_ROOT),
            "DISCORD_API_BASE": "",
            "DISCORD_GATEWAY_URL": "",
            **NO_DOTENV,
            **env,
        },
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    output, _ = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, output.decode()


async def test_a_missing_token_says_how_to_get_one_without_a_traceback(tmp_path: Path) -> None:
    code, output = await run_bot_command(
        {"DISCORD_TOKEN": "", "DATABASE_URL": f"sqlite:///{tmp_path / 'chips.sqlite3'}"}
    )
    assert code == 2
    said = output.strip()
    assert said.startswith("error: DISCORD_TOKEN is not set (looked in the environment and in /")
    assert said.endswith(f"/.env). {TOKEN_HELP}")
    assert "\n" not in said


async def test_a_rejected_token_says_how_to_get_one_without_a_traceback(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake_discord.expect_errors(statuses=(401,))
    code, output = await run_bot_command(
        {
            **fake_discord.env(),
            "DISCORD_TOKEN": "not-the-token",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'chips.sqlite3'}",
        }
    )
    assert code == 2
    assert f"error: Discord rejected DISCORD_TOKEN. {TOKEN_HELP}" in output
    assert "Traceback" not in output


def mid_round(message: FakeMessage) -> bool:
    text = embed_text(message)
    return any(marker in text for marker in MID_ROUND)


def dealt(message: FakeMessage, betting: int | None) -> bool:
    """The round ``betting`` is dealt: it waits for a decision, or (a blackjack) is over."""
    return mid_round(message) or over(message, betting)


async def test_sigkill_in_the_middle_of_a_round_resumes_it_on_the_same_message(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    world = World.build(fake)
    url = f"sqlite:///{tmp_path / 'chips.sqlite3'}"
    argv = [sys.executable, "-m", "bot"]
    async with BotProcess(fake, argv, env={**NO_DOTENV, "DATABASE_URL": url}) as process:
        start = await fake.slash(world.alice, "blackjack start", world.channel)
        table = start.original
        assert table is not None
        await fake.click(world.bob, table, label="Join")
        # The shoe is random: play rounds until one is dealt and waits for a decision (or
        # asks about insurance). A dealer's blackjack ends the round at once: the next opens.
        for _ in range(10):
            betting = round_no(table)
            await fake.slash(world.alice, "bet", world.channel, amount="100")
            await fake.slash(world.bob, "bet", world.channel, amount="200")
            await fake.wait_for(partial(dealt, table, betting))
            if mid_round(table):
                break
        assert mid_round(table), embed_text(table)
        seats_before = embed_text(table).split("## Latest")[0]

        await process.kill()
        async with db.open_store(url) as store:
            held = {
                member.id: await store.balance(world.guild.id, member.id)
                for member in (world.alice, world.bob)
            }
            (open_round,) = await store.reports.round_history(world.guild.id, limit=1)
        # The killed process left the round open with both stakes on the table.
        assert (open_round.status, open_round.staked) == ("open", 300)
        assert open_round.message_id == table.id

        await process.start()
        await fake.wait_for(lambda: BACK in embed_text(table))
        # The same message, the same round and hands; nothing refunded.
        assert embed_text(table).split("## Latest")[0] == seats_before
        assert mid_round(table)
        async with db.open_store(url) as store:
            assert (await store.reports.get_round(open_round.round_id)).status == "open"  # type: ignore[union-attr]
            for member in (world.alice, world.bob):
                assert await store.balance(world.guild.id, member.id) == held[member.id]

        again = await fake.slash(world.alice, "blackjack start", world.channel)
        assert (again.response_type, again.ephemeral) == (4, True)  # the table is still here
        assert str(table.id) in (again.content or "")

    # Leaving the block sent SIGTERM: a graceful stop exits 0 and voids nothing.
    assert process.process is not None
    assert process.process.returncode == 0
    assert BACK in embed_text(table)
    async with db.open_store(url) as store:
        still = await store.reports.get_round(open_round.round_id)
        assert still is not None
        assert still.status == "open"
    await check_invariants(url)


async def test_a_button_from_before_a_restart_still_works(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    world = World.build(fake)
    config = Config(
        card_pictures=False,
        token=fake.token,
        database_url=f"sqlite:///{tmp_path / 'chips.sqlite3'}",
    )
    async with running_bot(fake, build_bot(config, clock=fake.clock)) as first:
        world.bot = first
        table = await world.start(world.alice)
        old_buttons = copy.deepcopy(table.components)
    async with running_bot(fake, build_bot(config, clock=fake.clock)) as second:
        world.bot = second
        # A client that never saw the "table is back" edit still shows the old buttons.
        table.components = old_buttons
        joined = await fake.click(world.bob, table, label="Join")
        assert joined.response_type == 7
        assert "## Bob" in embed_text(table)
    await check_invariants(config.database_url)


async def test_a_sigkilled_bot_leaves_no_process_of_its_group_behind(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """The strategy worker (and Python's resource tracker) end with the bot, whatever ended it."""
    fake = fake_discord
    world = World.build(fake)
    url = f"sqlite:///{tmp_path / 'chips.sqlite3'}"
    argv = [sys.executable, "-m", "bot"]
    async with BotProcess(fake, argv, env={**NO_DOTENV, "DATABASE_URL": url}) as process:
        await fake.slash(world.alice, "blackjack start", world.channel)
        await fake.slash(world.alice, "blackjack rules", world.channel)
        group = process.pid  # the bot leads a process group of its own
        assert await asyncio.to_thread(found_within, 60, lambda: _worker_of(group)), in_group(group)

        await process.kill()
        left = await asyncio.to_thread(gone_within, 5, lambda: in_group(group))
        assert left == []


def _worker_of(group: int) -> list[Running]:
    """The bot's strategy worker, a spawned child process of the group's leader."""
    return [
        child
        for child in in_group(group)
        if child.parent == group and "multiprocessing.spawn" in child.command
    ]
