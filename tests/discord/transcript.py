"""Print one round as the fake Discord saw it: the table message's embed after each step.

Run: ``.venv/bin/python tests/discord/transcript.py`` (from the repository root). Three
players, a stacked shoe: insurance offered and declined, a split, a double, a surrender
and a blackjack, then the dealer's play and the payouts.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
for path in (HERE, HERE.parent, HERE.parents[1]):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from bot.app import build_bot  # noqa: E402
from bot.config import Config  # noqa: E402
from fakediscord import FakeDiscord  # noqa: E402
from fakediscord.harness import running_bot  # noqa: E402
from tests.support.discord_world import World, embed_text  # noqa: E402
from tests.support.shoes import SPARE, ShoeQueue  # noqa: E402

# Alice 8 8 (splits, doubles the first hand), Bob 10 6 (surrenders), Carol A K (blackjack);
# the dealer shows an ace, holds a 5 and draws a 2: 18.
THREE_PLAYER_ROUND = "8s Th Ac Ad 8h 6h Kc 5d 3s Td Kh " + SPARE


async def record_round(database_url: str) -> list[str]:
    """Play the round through the fake Discord; each step with the table embed after it."""
    shoes = ShoeQueue()
    shoes.add(THREE_PLAYER_ROUND)
    async with FakeDiscord() as fake:
        world = World.build(fake)
        config = Config(card_pictures=False, token=fake.token, database_url=database_url)
        dealer = build_bot(config, clock=fake.clock, shoe_factory=shoes)
        async with running_bot(fake, dealer) as bot:
            world.bot = bot
            steps: list[str] = []
            table = await world.start(world.alice)
            steps.append(f"Alice: /blackjack start\n{embed_text(table)}")
            await world.click(world.bob, table, "Join")
            await world.click(world.carol, table, "Join")
            for member, amount in ((world.alice, "100"), (world.bob, "100"), (world.carol, "25")):
                answer = await world.bet(member, amount)
                who = member.user.global_name
                steps.append(f"{who}: /bet {amount}  ->  (only {who} sees) {answer}")
            steps.append(f"(after the last bet)\n{embed_text(table)}")
            world.transcript.clear()
            plays = [
                (world.alice, "No insurance"),
                (world.bob, "No insurance"),
                (world.carol, "No insurance"),
                (world.alice, "Split"),
                (world.alice, "Double"),
                (world.bob, "Surrender"),
                (world.alice, "Stand"),
            ]
            for member, label in plays:
                await world.click(member, table, label)
            steps.extend(world.transcript)
        fake.assert_clean()
    return steps


def main() -> None:
    """Print the transcript."""
    with tempfile.TemporaryDirectory() as folder:
        steps = asyncio.run(record_round(f"sqlite:///{folder}/transcript.sqlite3"))
    print("\n\n".join(steps))


if __name__ == "__main__":
    main()
