"""The same scenario with the demo bot as a subprocess; SIGKILL and a fresh IDENTIFY."""

from __future__ import annotations

from fakediscord.demo_bot import DemoBot
from fakediscord.harness import BotProcess
from tests.support.fakediscord_scenario import play_table_scenario
from tests.support.fakediscord_world import Table


async def test_table_scenario_in_process(table: Table, demo_bot: DemoBot) -> None:
    await play_table_scenario(table.fake, table.channel, table.alice, table.bob)


async def test_table_scenario_as_a_subprocess(table: Table) -> None:
    fake = table.fake
    async with BotProcess(fake, env={"DEMO_GUILD_IDS": str(table.guild.id)}) as bot:
        await play_table_scenario(fake, table.channel, table.alice, table.bob)
        assert bot.process is not None
        assert bot.process.returncode is None


async def test_killed_bot_identifies_afresh_and_answers_again(table: Table) -> None:
    fake = table.fake
    async with BotProcess(fake, env={"DEMO_GUILD_IDS": str(table.guild.id)}) as bot:
        first = await fake.slash(table.alice, "blackjack start", table.channel)
        assert first.original is not None
        await bot.kill()
        assert bot.process is not None
        assert bot.process.returncode == -9
        await bot.start()
        assert fake.gateway.identifies == 2
        assert [s.invalidated for s in fake.gateway.sessions.values()] == [True, False]
        # The table message survived the crash; the new process serves its buttons.
        hit = await fake.click(table.bob, first.original, label="Hit")
        assert hit.response_type == 7
        assert first.original.content == "Hits: 1"
        assert fake.sync_count == 4
