"""Print a table in each card style as the fake Discord received it, and the largest embeds.

Run: ``.venv/bin/python tests/discord/card_pictures_show.py`` (from the repository root).
Two players, Alice splits her eights: the embed of that click's answer (JSON, as sent),
once with card pictures, once with text cards. Then the size Discord counts (of 6,000)
of the largest table message the renderer makes in each style, over every phase of the
busiest real table (seven players, four split hands of three cards) and of the
test suite's worst case (hands of nine cards, 300-character news lines).
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
for path in (HERE, HERE.parent / "render", HERE.parents[1]):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from bot.app import build_bot  # noqa: E402
from bot.config import Config  # noqa: E402
from bot.tables import TablePhase  # noqa: E402
from cogs.table.commands import table_cog  # noqa: E402
from cogs.table.embed_limits import embed_size  # noqa: E402
from cogs.table.render import render_table  # noqa: E402
from fakediscord import FakeDiscord  # noqa: E402
from fakediscord.harness import running_bot  # noqa: E402
from tests.support.discord_world import World  # noqa: E402
from tests.support.render_snapshots import busiest_table, picture_faces, worst_case  # noqa: E402
from tests.support.shoes import SPARE, ShoeQueue  # noqa: E402

# Alice 8♠ 8♥ (splits: 3♠ and 10♠), Bob K♦ 7♣, the dealer 9♥ with 6♣ in the hole.
SPLIT_ROUND = "8s Kd 9h 8h 7c 6c 3s Ts 2d " + SPARE
CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"


async def split_table(pictures: bool, database_url: str) -> dict[str, object]:
    """The embed the fake received for Alice's Split, in one style."""
    shoes = ShoeQueue()
    shoes.add(SPLIT_ROUND)
    async with FakeDiscord() as fake:
        world = World.build(fake)
        config = Config(token=fake.token, database_url=database_url, card_pictures=pictures)
        async with running_bot(
            fake, build_bot(config, clock=fake.clock, shoe_factory=shoes)
        ) as bot:
            world.bot = bot
            await asyncio.wait_for(table_cog(bot).card_emojis.ready.wait(), 10)
            table = await world.start(world.alice)
            await world.slash(world.bob, "blackjack join")
            await world.bet(world.alice, "100")
            await world.bet(world.bob, "50")
            await world.click(world.alice, table, "Split")
        fake.assert_clean()
        answer = fake.requests_to(
            "POST /interactions/{interaction_id}/{interaction_token}/callback"
        )
        embed: dict[str, object] = answer[-1].body["data"]["embeds"][0]
        return embed


def largest_embeds() -> list[tuple[str, str, int, TablePhase]]:
    """(style, table, size, phase) of the largest embed of each table in each style."""
    largest = []
    for style, faces in (("pictures", picture_faces()), ("text", None)):
        for name, snapshot in (("busiest", busiest_table()), ("worst case", worst_case())):
            size, phase = max(
                (embed_size(render_table(replace(snapshot, phase=p), faces).embed), p)
                for p in TablePhase
            )
            largest.append((style, name, size, phase))
    return largest


async def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        for pictures in (True, False):
            embed = await split_table(pictures, f"sqlite:///{Path(folder) / f'{pictures}.db'}")
            print(f"== {'pictures' if pictures else 'text'}")
            print(json.dumps(embed, ensure_ascii=False, indent=1))
    for style, name, size, phase in largest_embeds():
        print(f"largest {style} embed of the {name} table: {size} of 6000 ({phase})")


if __name__ == "__main__":
    asyncio.run(main())
