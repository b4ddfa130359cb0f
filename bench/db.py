"""Store speed: stakes and settlements per second, one writer and 50 concurrent tables.

    .venv/bin/python bench/db.py [--backend sqlite|postgres|both] [--rounds N] [--tables N]
                                 [--metrics]

The headline figure is the median time of one settled round of 5 players on
SQLite: open the round, 5 stakes, settle with 5 payouts (goal: under 2 ms).
PostgreSQL runs on a throwaway server started like the tests' (fsync on).
``--metrics`` also times rounds with and without the bot's metrics observing the
store (bot/metrics.py), in alternating blocks, and prints the ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import db
from db import HandResult
from tests.pgserver import PostgresServer, find_postgres_bin

GUILD, PLAYERS, STAKE = 1, 5, 10


@dataclass
class Timings:
    """Per-round times (seconds) and what they moved."""

    rounds: list[float]
    wall: float
    stakes: int
    settlements: int

    def line(self, label: str, each: str = "round") -> str:
        ms = sorted(t * 1000 for t in self.rounds)
        p50, p99 = statistics.median(ms), ms[min(len(ms) - 1, int(len(ms) * 0.99))]
        return (
            f"{label:<34} {each} p50 {p50:7.3f} ms  p99 {p99:7.3f} ms | "
            f"{self.stakes / self.wall:6.0f} stakes/s  {self.settlements / self.wall:5.0f} "
            f"settlements/s  ({self.stakes} stakes, {self.settlements} rounds, {self.wall:.2f} s)"
        )


async def play_round(store: db.Store, channel: int, players: list[int]) -> float:
    """One round of 5 players: open, a stake each, settle paying each. Its duration."""
    start = time.perf_counter()
    round_id = await store.open_round(GUILD, channel, "{}", f"bench-{channel}")
    for user in players:
        await store.stake(GUILD, user, STAKE, "bet", round_id)
    hands = [HandResult(user, "win", STAKE, 2 * STAKE) for user in players]
    result = await store.settle_round(round_id, {u: 2 * STAKE for u in players}, hands, "{}")
    assert not result.already_settled
    return time.perf_counter() - start


async def stake_only(store: db.Store, count: int) -> Timings:
    """Stakes alone, one writer, one open round."""
    round_id = await store.open_round(GUILD, 999_999, "{}", "bench-stakes")
    await store.ensure_account(GUILD, 999_999)
    await store.adjust(GUILD, 999_999, count * STAKE, 1, "bench bankroll")
    times = []
    start = time.perf_counter()
    for _ in range(count):
        t0 = time.perf_counter()
        await store.stake(GUILD, 999_999, STAKE, "bet", round_id)
        times.append(time.perf_counter() - t0)
    wall = time.perf_counter() - start
    await store.void_round(round_id, "bench done")
    return Timings(times, wall, count, 0)


async def tables(store: db.Store, table_count: int, rounds: int) -> Timings:
    """``table_count`` tables at once, each with its own 5 players, ``rounds`` rounds each."""
    seats = {t: [10_000 + t * 10 + p for p in range(PLAYERS)] for t in range(table_count)}
    for players in seats.values():
        for user in players:
            await store.ensure_account(GUILD, user)

    async def table(t: int) -> list[float]:
        return [await play_round(store, t, seats[t]) for _ in range(rounds)]

    start = time.perf_counter()
    per_table = await asyncio.gather(*(table(t) for t in range(table_count)))
    wall = time.perf_counter() - start
    times = [t for table_times in per_table for t in table_times]
    return Timings(times, wall, len(times) * PLAYERS, len(times))


async def metrics_overhead(store: db.Store, rounds: int, blocks: int = 10) -> str:
    """Rounds on one table without and with the metrics observer, alternating blocks."""
    from bot.metrics import BotMetrics

    plain: list[float] = []
    observed: list[float] = []
    for _ in range(blocks):
        for observer, into in ((None, plain), (BotMetrics(), observed)):
            store.observer = observer
            into.extend((await tables(store, 1, max(1, rounds // blocks))).rounds)
    store.observer = None
    bare, watched = statistics.median(plain) * 1000, statistics.median(observed) * 1000
    return (
        f"{'5-player rounds, metrics on / off':<34} round p50 {watched:7.3f} / {bare:7.3f} ms"
        f"  ratio {watched / bare:.3f}  ({len(plain)} rounds each, {blocks} blocks alternating)"
    )


async def run_backend(
    name: str, url: str, rounds: int, table_count: int, with_metrics: bool = False
) -> None:
    async with db.open_store(url) as store:
        await tables(store, 1, 50)  # warm up caches and prepared statements
        print(f"-- {name}")
        print((await stake_only(store, rounds * PLAYERS)).line("stakes alone, one writer", "stake"))
        print((await tables(store, 1, rounds)).line("5-player rounds, one table"))
        per_table = max(1, rounds // table_count)
        print(
            (await tables(store, table_count, per_table)).line(
                f"5-player rounds, {table_count} tables at once"
            )
        )
        if with_metrics:
            print(await metrics_overhead(store, rounds))


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--rounds", type=int, default=2000, help="rounds per measurement")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--metrics", action="store_true", help="also time the metrics' cost")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bj-bench-") as folder:
        if args.backend in ("sqlite", "both"):
            url = f"sqlite:///{folder}/bench.sqlite3"
            await run_backend(
                "SQLite (WAL, synchronous=NORMAL)", url, args.rounds, args.tables, args.metrics
            )
        if args.backend in ("postgres", "both"):
            if find_postgres_bin() is None:
                print("-- PostgreSQL: skipped, server binaries not installed")
                return
            server = PostgresServer.start(durable=True)
            try:
                url = server.create_database("bench")
                name = "PostgreSQL (unix socket, fsync on)"
                await run_backend(name, url, args.rounds, args.tables, args.metrics)
            finally:
                server.stop()


if __name__ == "__main__":
    asyncio.run(main())
