"""Resume time: N open tables (default 1,000) restored after a restart, timed from READY.

    .venv/bin/python bench/resume.py [--tables 1000] [--database-url URL]

Everything runs in this process: the fake Discord, the bot (SQLite in a temporary
folder unless ``--database-url`` names another database) and the driver. A first
bot opens the tables (one player each; every other table's player bets, so half
the tables are in a round) and stops gracefully. A second bot starts as the
process for shard 0 of 2 (every guild is on shard 0), so it resumes its tables
after that shard's READY, as a process running some of the shards does. Timed
from READY (the fake has sent it and every GUILD_CREATE, and the bot processed
them): until every table is live again (clickable), and until every table
message has been edited to say the table is back.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

from load_kit import BenchDiscord  # noqa: E402

from bot.app import build_bot  # noqa: E402
from bot.config import Config  # noqa: E402
from bot.tables.resume import BACK  # noqa: E402
from cogs.table.commands import table_cog  # noqa: E402
from fakediscord.harness import running_bot  # noqa: E402
from fakediscord.models import FakeChannel, FakeMember  # noqa: E402
from fakediscord.records import FakeMessage  # noqa: E402

PER_GUILD = 250
MAX_WAIT = 60.0


async def open_tables(
    fake: BenchDiscord, seats: list[tuple[FakeChannel, FakeMember]]
) -> list[FakeMessage]:
    """Each player opens a table; every other one bets (its table is then in a round)."""
    gate = asyncio.Semaphore(25)

    async def open_one(n: int, channel: FakeChannel, member: FakeMember) -> FakeMessage:
        async with gate:
            start = await fake.slash(member, "blackjack start", channel, max_wait=MAX_WAIT)
            assert start.response_type == 4, start.errors
            assert start.original is not None
            if n % 2:
                await fake.slash(member, "bet", channel, amount="10", max_wait=MAX_WAIT)
            return start.original

    return list(await asyncio.gather(*(open_one(n, c, m) for n, (c, m) in enumerate(seats))))


async def run(tables: int, url: str) -> None:
    async with BenchDiscord(recommended_shards=2) as fake:
        seats: list[tuple[FakeChannel, FakeMember]] = []
        for g in range((tables + PER_GUILD - 1) // PER_GUILD):
            guild = fake.add_guild(f"Casino {g}", shard=0, of=2)
            for t in range(min(PER_GUILD, tables - g * PER_GUILD)):
                seats.append(
                    (fake.add_text_channel(guild, f"t{t}"), fake.add_member(guild, f"p{t}"))
                )
        config = Config(
            card_pictures=False, token=fake.token, database_url=url, shard_count=2, shard_ids=(0,)
        )
        first = build_bot(config, clock=fake.clock)
        setup = time.perf_counter()
        async with running_bot(fake, first, max_wait=MAX_WAIT):
            messages = await open_tables(fake, seats)
            await table_cog(first).messages.idle()
        took = time.perf_counter() - setup
        print(f"setup: {tables} tables opened and the bot stopped in {took:.1f} s")

        second = build_bot(config, clock=fake.clock)
        times: list[float] = []
        resume_tables = second.resume_tables

        async def timed(guild_ids: Sequence[int] | None) -> None:
            # Called at the shard's READY (on_connect), once its guilds are known.
            times.append(time.perf_counter())
            await resume_tables(guild_ids)
            times.append(time.perf_counter())

        second.resume_tables = timed  # type: ignore[method-assign]
        async with running_bot(fake, second, max_wait=MAX_WAIT):
            await asyncio.wait_for(second.recovered(0), MAX_WAIT)
            ready, resumed = times
            await table_cog(second).messages.idle()
            # Every edit has been sent once the message upkeep is idle.
            missing = [m.id for m in messages if BACK not in str(m.embed)]
            assert not missing, f"{len(missing)} message(s) not edited"
            edited = time.perf_counter()
            live = sum(second.tables.table_in(c.id) is not None for c, _ in seats)
        print(f"tables live again:     {live} of {tables}")
        print(f"READY -> all resumed:  {resumed - ready:.2f} s")
        print(f"READY -> all edited:   {edited - ready:.2f} s")
        assert live == tables


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args()
    if args.database_url:
        asyncio.run(run(args.tables, args.database_url))
        return 0
    with tempfile.TemporaryDirectory(prefix="bj-resume-") as folder:
        asyncio.run(run(args.tables, f"sqlite:///{Path(folder) / 'chips.sqlite3'}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
