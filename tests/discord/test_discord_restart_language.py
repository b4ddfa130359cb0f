"""A table's lines keep their language across a restart: the document stores each line as
its message and parameters, not as the English sentence, so a Spanish table stopped with
SIGTERM and started again shows its Latest and Last round lines in Spanish."""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

from fakediscord import FakeDiscord
from fakediscord.harness import BotProcess
from fakediscord.records import FakeMessage
from tests.db.invariants import check_invariants
from tests.support.bot_env import NO_DOTENV
from tests.support.discord_world import World, embed_text
from tests.support.table_buttons import enabled, over, round_no

BACK_ES = "El bot se ha reiniciado: esta mesa ha vuelto"
LAST_ROUND_ES = "Última ronda"


def can_hit(message: FakeMessage) -> bool:
    """The table waits for a decision: its Hit button is enabled."""
    return enabled(message, "hit") is not None


def over_or_stand(message: FakeMessage, betting: int | None) -> bool:
    """The round ``betting`` is over, or waits for a decision its Stand button can give."""
    return over(message, betting) or enabled(message, "stand") is not None


def dealt(message: FakeMessage, betting: int | None) -> bool:
    """The round ``betting`` is dealt: it waits for a decision, asks about insurance, or
    (a blackjack) is already over."""
    asks = enabled(message, "no_insurance") is not None
    return can_hit(message) or asks or over(message, betting)


async def test_a_spanish_table_stopped_and_started_again_says_its_lines_in_spanish(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    world = World.build(fake)
    url = f"sqlite:///{tmp_path / 'chips.sqlite3'}"
    argv = [sys.executable, "-m", "bot"]
    async with BotProcess(fake, argv, env={**NO_DOTENV, "DATABASE_URL": url}) as process:
        await fake.slash(world.admin, "blackjack-admin config", world.channel, language="es-ES")
        start = await fake.slash(world.alice, "blackjack start", world.channel)
        table = start.original
        assert table is not None
        # The shoe is random: bet until a round waits for Alice's decision. A blackjack ends
        # the round at once (the next one opens); an ace up asks about insurance first, whose
        # lines push the deal's out of Latest: that round is played out, and bet again.
        for _ in range(10):
            betting = round_no(table)
            await fake.slash(world.alice, "bet", world.channel, amount="100")
            await fake.wait_for(partial(dealt, table, betting))
            no_insurance = enabled(table, "no_insurance")
            if no_insurance is not None:
                await fake.click(world.alice, table, custom_id=no_insurance)
                await fake.wait_for(partial(over_or_stand, table, betting))
                stand = enabled(table, "stand")
                if stand is not None:
                    await fake.click(world.alice, table, custom_id=stand)
                await fake.wait_for(partial(over, table, betting))
                continue
            if can_hit(table):
                break
        assert can_hit(table), embed_text(table)
        assert "recibe" in embed_text(table)  # "Alice recibe …": the deal's Latest line

        await process.stop()  # SIGTERM mid-round
        await process.start()
        await fake.wait_for(lambda: BACK_ES in embed_text(table), max_wait=30)
        latest = embed_text(table)
        assert "recibe" in latest, latest
        assert "is dealt" not in latest

        await fake.click(world.alice, table, label="Plantarse")
        await fake.wait_for(lambda: LAST_ROUND_ES in embed_text(table))
        await process.stop()  # SIGTERM between rounds, the last one's results shown
        await process.start()
        await fake.wait_for(lambda: BACK_ES in embed_text(table), max_wait=30)
        shown = embed_text(table)
        assert LAST_ROUND_ES in shown, shown
        # The last round's dealer line ("Crupier: …", "El crupier se pasa: …").
        assert "crupier" in shown.split(LAST_ROUND_ES)[1].lower()
        assert "Dealer:" not in shown
        assert "Dealer busts" not in shown
    await check_invariants(url)
