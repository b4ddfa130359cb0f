"""The bot under ``bench/load.py``: in process(es) of its own (``bench/load_bot.py``, one a
shard), or in this event loop; its database; and which cores each process runs on."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import json
import os
import sys
import tempfile
from collections import Counter
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from load_bot import BotControl, make_bot
from load_kit import BenchDiscord, Latency

from fakediscord.harness import running_bot

ROOT = Path(__file__).resolve().parents[1]
#: ``--pin``: the core of each bot process, by shard; this process keeps the others.
PINNED_BOTS: list[int] = []


class BotUnderTest:
    """One bot, in N processes (shards of one database) or in this event loop."""

    def __init__(self, fake: BenchDiscord, processes: int = 1) -> None:
        self.fake = fake
        #: How many processes run the bot (its shards), asked for.
        self.processes = processes
        self.children: list[asyncio.subprocess.Process] = []
        self.control: BotControl | None = None
        self.profiler: cProfile.Profile | None = None

    async def command(self, name: str) -> dict[str, Any]:
        """Ask every process; their answers merged (samples and tables joined, CPU summed)."""
        if self.control is not None:
            if self.profiler is not None and name in ("start", "stop"):
                (self.profiler.enable if name == "start" else self.profiler.disable)()
            return await self.control.handle(name)
        answers = []
        for child in self.children:
            assert child.stdin is not None
            child.stdin.write(name.encode() + b"\n")
            await child.stdin.drain()
        for child in self.children:
            assert child.stdout is not None
            answer = json.loads(await child.stdout.readline())
            if "error" in answer:
                raise AssertionError(f"the bot process failed {name}: {answer['error']}")
            answers.append(answer)
        return merged(answers)


def merged(answers: list[dict[str, Any]]) -> dict[str, Any]:
    """The bot processes' answers as one: lists joined, numbers and CPU summed."""
    merged: dict[str, Any] = {}
    for answer in answers:
        for key, value in answer.items():
            if key == "cpu":
                old = merged.get(key, [0.0, 0.0])
                merged[key] = [old[0] + value[0], old[1] + value[1]]
            elif key in ("transactions", "threads", "children"):
                merged[key] = dict(Counter(merged.get(key, {})) + Counter(value))
            elif isinstance(value, list):
                merged[key] = merged.get(key, []) + value
            elif isinstance(value, int | float):
                merged[key] = merged.get(key, 0) + value
            else:
                merged[key] = value
    return merged


@contextlib.asynccontextmanager
async def bot_under_test(
    fake: BenchDiscord,
    kind: str,
    args: argparse.Namespace,
    *,
    database_url: str = "",
    table: tuple[dict[str, Any], int] | None = None,
    processes: int = 1,
    profiler: cProfile.Profile | None = None,
) -> AsyncIterator[BotUnderTest]:
    """The bot of ``kind`` connected to ``fake`` (in ``processes`` processes, or in this one)."""
    under_test = BotUnderTest(fake, processes)
    if args.in_process:
        async with _in_this_process(under_test, kind, database_url, table, profiler):
            yield under_test
        return
    for shard in range(processes):
        env = _child_env(fake, args, database_url, table, (shard, processes))
        identifies = fake.gateway.identifies + 1
        child = await asyncio.create_subprocess_exec(
            sys.executable,
            str(ROOT / "bench" / "load_bot.py"),
            kind,
            env=env,
            preexec_fn=bot_cores(args, shard),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            limit=1 << 26,  # the latency samples come back as one JSON line
        )
        under_test.children.append(child)
        await fake.wait_for_bot(identifies=identifies, shards=1, max_wait=60)
    try:
        yield under_test
    finally:
        await _stop(under_test.children)


@contextlib.asynccontextmanager
async def _in_this_process(
    under_test: BotUnderTest,
    kind: str,
    database_url: str,
    table: tuple[dict[str, Any], int] | None,
    profiler: cProfile.Profile | None,
) -> AsyncIterator[None]:
    """The bot in this event loop, measured from inside (for ``--profile``)."""
    env = {**under_test.fake.env(), "DATABASE_URL": database_url}
    if table is not None:
        env["BENCH_TABLE"] = json.dumps(table)
    bot = make_bot(kind, env)
    latency = Latency()
    latency.install(bot)
    under_test.control = BotControl(bot, latency, whole_process=True)
    under_test.profiler = profiler
    async with running_bot(under_test.fake, bot):
        yield


def _child_env(
    fake: BenchDiscord,
    args: argparse.Namespace,
    database_url: str,
    table: tuple[dict[str, Any], int] | None,
    shard_of: tuple[int, int],
) -> dict[str, str]:
    """The environment of bot process ``shard`` of ``processes``."""
    shard, processes = shard_of
    env = {
        **os.environ,
        **fake.env(),
        "DATABASE_URL": database_url,
        "LOG_LEVEL": "WARNING",
        "DEV_GUILD_ID": "",
        "PYTHONPATH": os.pathsep.join(filter(None, (os.environ.get("PYTHONPATH"), str(ROOT)))),
    }
    env["SHARD_COUNT"], env["SHARD_IDS"] = (
        (str(processes), str(shard)) if processes > 1 else ("", "")
    )
    if table is not None:
        env["BENCH_TABLE"] = json.dumps(table)
    if args.uvloop or args.asyncio:
        env["BENCH_UVLOOP"] = "1" if args.uvloop else "0"
    return env


async def _stop(children: list[asyncio.subprocess.Process]) -> None:
    """Close each bot's input (it exits), killing one that has not within 20 s."""
    for child in children:
        assert child.stdin is not None
        child.stdin.close()
    for child in children:
        try:
            await asyncio.wait_for(child.wait(), 20)
        except TimeoutError:
            child.kill()
            await child.wait()


@contextlib.contextmanager
def database(args: argparse.Namespace, name: str) -> Any:
    """A fresh database: ``--database-url``'s server, PostgreSQL for --processes, else SQLite."""
    if args.database_url:
        yield args.database_url
        return
    if args.postgres or args.processes > 1:
        from tests.pgserver import PostgresServer

        server = PostgresServer.start()
        try:
            yield server.create_database(name)
        finally:
            server.stop()
        return
    with tempfile.TemporaryDirectory(prefix="bench-load-") as folder:
        yield f"sqlite:///{Path(folder) / 'chips.sqlite3'}"


def bot_cores(args: argparse.Namespace, shard: int) -> Callable[[], None] | None:
    """``--pin``: what pins bot process ``shard`` (and every thread it starts) to a core of
    its own before it runs."""
    if not args.pin:
        return None
    core = PINNED_BOTS[shard]
    return lambda: os.sched_setaffinity(0, {core})


def pin_harness(args: argparse.Namespace) -> str:
    """``--pin``: keep this process (the fake Discord, the driver, a PostgreSQL server it
    starts) off the bots' cores. The line that says where each runs."""
    if not args.pin:
        return ""
    cores = sorted(os.sched_getaffinity(0))
    bots = args.processes
    if len(cores) <= bots:
        raise SystemExit(f"--pin needs more than {bots} cores; this process may use {cores}")
    PINNED_BOTS[:] = cores[:bots]
    os.sched_setaffinity(0, set(cores[bots:]))
    return f"; pinned: the bot on core {cores[:bots]}, the fake and the driver on {cores[bots:]}"
