"""The bot side of ``bench/load.py``: a bot measured from inside, in its own process or not.

    python bench/load_bot.py {floor|rich|blackjack}

As a process it reads the fake's address from the environment (``fake.env()``, plus
``DATABASE_URL`` and ``SHARD_COUNT``/``SHARD_IDS`` for the blackjack bot, ``BENCH_TABLE``
(the table message's embed and button count, JSON) for the rich floor), connects, and
answers the driver's commands, one JSON line each way on stdin/stdout. In the driver's
process (``--in-process``) the same :class:`BotControl` is called directly. Also read:

- ``BENCH_UVLOOP``: ``1`` every bot on uvloop, ``0`` every bot on asyncio; unset, the
  blackjack bot runs as ``python -m bot`` does (uvloop when installed), the floors on
  asyncio;
- ``BENCH_GC_DEFAULT=1``: the blackjack bot keeps CPython's collector thresholds;
- ``BENCH_PROFILE=FILE``: cProfile the blackjack bot's measured phases into FILE;
- ``BENCH_SPY=PREFIX``: sample each bot's measured phases with py-spy (installed
  apart: ``pip install py-spy``; raw stacks in ``PREFIX-{kind}-{n}.txt``), which, unlike
  cProfile, does not slow Python calls more than C ones;
- ``BENCH_SECTIONS=FILE``: the blackjack bot's CPU by section in each measured phase,
  appended to FILE (``bench/sections.py``; ``python bench/sections.py FILE`` shows it).

Commands:

- ``start``: begin a measured phase (the latency probe records, CPU is read);
- ``stop``: end it: the bot's own times, CPU seconds (event loop thread, other threads,
  the processes it started: ``bench/load_cpu.py``) and the collector's pauses;
- ``graded``: return once the coach has graded every round settled so far;
- ``memory-start`` / ``memory-stop``: tracemalloc and RSS around the tables opening;
- ``tables``: each open table's newest version, the version its message shows, and the
  embed the newest snapshot renders to (the driver checks the message shows it);
- ``idle``: return once no table edit is in flight.
"""

from __future__ import annotations

import asyncio
import cProfile
import gc
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

import discord  # noqa: E402
import sections  # noqa: E402
from load_cpu import children_cpu, children_spent, thread_cpu  # noqa: E402
from load_floor import FloorBot  # noqa: E402
from load_kit import GcPauses, Latency, MemoryProbe  # noqa: E402

from bot import gc_tuning  # noqa: E402
from bot.app import BlackjackBot, build_bot  # noqa: E402
from bot.cli.run import event_loop_runner  # noqa: E402
from bot.config import load_config  # noqa: E402
from bot.endpoints import apply_endpoints  # noqa: E402
from bot.metrics import LAG_INTERVAL_S  # noqa: E402
from cogs.table.commands import table_cog  # noqa: E402
from cogs.table.layouts import TablePayload  # noqa: E402


class BotControl:
    """What the driver may ask of the bot under test."""

    def __init__(self, bot: discord.Client, latency: Latency, *, whole_process: bool) -> None:
        self.bot, self.latency = bot, latency
        #: In the driver's process, ``other`` CPU also holds the fake's and the driver's.
        self.whole_process = whole_process
        self._cpu = (0.0, 0.0)
        self._lag: dict[str, float] = {}
        self._transactions: Counter[str] = Counter()
        self._gc = GcPauses()
        self._memory = MemoryProbe()
        #: ``BENCH_PROFILE=FILE`` (the blackjack bot's process): cProfile of the measured
        #: phases, added up and written to FILE at each ``stop``.
        alone = isinstance(bot, BlackjackBot) and not whole_process
        self._profile = os.environ.get("BENCH_PROFILE") if alone else None
        self._profiler = cProfile.Profile() if self._profile else None
        self._threads: dict[str, float] = {}
        #: The processes the bot started (its strategy workers), read at ``start``.
        self._children: dict[int, tuple[str, float]] = {}
        #: Seconds from submit to commit of each grouped durable write (stakes, journal
        #: rows) in the phase: what a click waits for under its table's lock.
        self._writes: list[float] = []
        self._spy_prefix = os.environ.get("BENCH_SPY")
        self._spy: subprocess.Popen[bytes] | None = None
        self._spied = 0
        #: ``BENCH_SECTIONS=FILE`` (the blackjack bot's process): CPU by section, per phase.
        self._sections = os.environ.get("BENCH_SECTIONS") if alone else None

    async def handle(self, command: str) -> dict[str, Any]:
        """Run one command; its answer."""
        if command == "start":
            self._start()
            return {}
        if command == "stop":
            return self._stop()
        if command == "memory-start":
            self._memory.start()
            return {}
        if command == "memory-stop":
            traced, rss = self._memory.stop()
            return {"traced": traced, "rss": rss}
        if command == "tables":
            return {"tables": await self._tables()}
        if command == "graded":
            if isinstance(self.bot, BlackjackBot):
                await self.bot.tables.coach.settle()
            return {}
        if command == "idle":
            if isinstance(self.bot, BlackjackBot):
                await table_cog(self.bot).messages.idle()
            return {}
        raise ValueError(f"unknown command {command!r}")

    def _start(self) -> None:
        """Begin a measured phase: every counter from zero."""
        self._spy_start()
        self.latency.clear()
        self.latency.recording = True
        if not self.whole_process:
            # What setup built (guilds, members, open tables) is never garbage.
            gc.collect()
            gc.freeze()
            self._gc = GcPauses().__enter__()
        sections.reset()
        self._children = children_cpu()  # reads all of /proc: before the phase's CPU begins
        self._cpu = (time.process_time(), time.thread_time())
        self._threads = thread_cpu()
        self._lag = self._lag_totals()
        self._transactions = self._transaction_counts()
        self._watch_writes()
        if self._profiler is not None:
            self._profiler.enable()

    def _stop(self) -> dict[str, Any]:
        """End the measured phase: what the bot measured in it."""
        process, main = time.process_time() - self._cpu[0], time.thread_time() - self._cpu[1]
        self._spy_stop()
        if self._sections:
            sections.write(self._sections, len(self.latency.samples), main)
        if self._profiler is not None and self._profile:
            self._profiler.disable()
            self._profiler.dump_stats(self._profile)
        self.latency.recording = False
        answer: dict[str, Any] = {
            "samples": self.latency.samples,
            "cpu": [main, process - main],
            "threads": {
                name: seconds - self._threads.get(name, 0.0)
                for name, seconds in thread_cpu().items()
                if seconds - self._threads.get(name, 0.0) > 0
            },
            "children": children_spent(self._children, children_cpu()),
            "lag": self._lag_line(),
            "transactions": dict(self._transaction_counts() - self._transactions),
            "writes": self._writes[:],
        }
        if not self.whole_process:
            self._gc.__exit__()
            answer["gc"] = self._gc.line()
            # What the collector tracks beyond the setup frozen at start: what piles up
            # between full collections, and so what each one scans.
            kinds = Counter(type(o).__name__ for o in gc.get_objects())
            answer["heap"] = f"{sum(kinds.values())} objects tracked, most: " + ", ".join(
                f"{name} {count}" for name, count in kinds.most_common(6)
            )
            gc.unfreeze()
        return answer

    def _watch_writes(self) -> None:
        """Time each of the blackjack bot's grouped writes (its store's ``GroupCommit``)."""
        self._writes.clear()
        store = getattr(self.bot, "store", None)
        group = getattr(store, "_group", None)
        if group is None or getattr(group, "_bench_watched", False):
            return
        submit, writes = group.submit, self._writes

        async def timed(write: Any, **options: Any) -> Any:
            began = time.perf_counter()
            try:
                return await submit(write, **options)
            finally:
                writes.append(time.perf_counter() - began)

        group.submit = timed
        group._bench_watched = True

    def _spy_start(self) -> None:
        """``BENCH_SPY``: py-spy samples this process until :meth:`_spy_stop`."""
        if not self._spy_prefix:
            return
        spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
        self._spied += 1
        kind = type(self.bot).__name__
        if isinstance(self.bot, FloorBot):
            kind = "rich" if self.bot.view.embed is not None else "floor"
        out = f"{self._spy_prefix}-{kind}-{self._spied}.txt"
        self._spy = subprocess.Popen(
            # Without pausing the process at each sample (--nonblocking): at 500 blocking
            # samples a second the blackjack bot served a quarter of its rate.
            [
                *(spy, "record", "--pid", str(os.getpid()), "--format", "raw"),
                *("--nonblocking", "-r", "200", "-o", out),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(0.5)  # py-spy attaches before the phase starts

    def _spy_stop(self) -> None:
        if self._spy is not None:
            self._spy.send_signal(signal.SIGINT)
            self._spy.wait()
            self._spy = None

    def _lag_totals(self) -> dict[str, float]:
        """The blackjack bot's event-loop lag histogram (BotMetrics samples it every
        LAG_INTERVAL_S; started here when no METRICS_PORT started it): bucket -> count."""
        if not isinstance(self.bot, BlackjackBot):
            return {}
        self.bot.metrics.start_lag_monitor()
        totals = {}
        for family in self.bot.metrics.loop_lag.collect():
            for sample in family.samples:
                kind = sample.name.rsplit("_", 1)[-1]
                if kind in ("bucket", "count", "sum"):
                    totals[sample.labels.get("le", kind)] = sample.value
        return totals

    def _transaction_counts(self) -> Counter[str]:
        """Database transactions so far, by operation (the blackjack bot's metrics)."""
        counts: Counter[str] = Counter()
        if isinstance(self.bot, BlackjackBot):
            for family in self.bot.metrics.db_seconds.collect():
                for sample in family.samples:
                    if sample.name.endswith("_count"):
                        counts[sample.labels["operation"]] += int(sample.value)
        return counts

    def _lag_line(self) -> str:
        """The lag samples taken during the phase: how many, their mean, the bucket of the
        slowest."""
        if not self._lag:
            return ""
        now = self._lag_totals()
        count = int(now["count"] - self._lag["count"])
        if count == 0:
            return "no sample"
        mean = (now["sum"] - self._lag["sum"]) / count
        buckets = sorted(
            (float(le), now[le] - self._lag[le]) for le in now if le not in ("count", "sum")
        )
        slowest = next((le for le, n in buckets if n == count), math.inf)
        return (
            f"{count} samples (every {LAG_INTERVAL_S:g} s), mean {mean * 1000:.1f} ms,"
            f" slowest under {slowest * 1000:g} ms"
        )

    async def _tables(self) -> list[dict[str, Any]]:
        if not isinstance(self.bot, BlackjackBot):
            return []
        out = []
        for channel in self.bot.get_all_channels():
            snapshot = self.bot.tables.table_in(channel.id)
            if snapshot is None:
                continue
            out.append(
                {
                    "channel_id": channel.id,
                    "version": snapshot.version,
                    "shown": table_cog(self.bot).messages.shown_version(snapshot.table_id),
                    **shown_as(await table_cog(self.bot).messages.payload(snapshot)),
                }
            )
        return out


def shown_as(payload: TablePayload) -> dict[str, Any]:
    """A table's payload as its message stores it: the embed (None in a V2 message), and
    the components of a V2 message (where the text is)."""
    embed = None if payload.embed is None else payload.embed.to_dict()
    v2 = payload.embed is None
    return {"embed": embed, "components": payload.view.to_components() if v2 else None}


def make_bot(kind: str, env: dict[str, str]) -> discord.Client:
    """The bot of ``kind`` configured from ``env`` (the process's environment)."""
    if kind == "floor":
        return FloorBot()
    if kind == "rich":
        embed, buttons = json.loads(env["BENCH_TABLE"])
        return FloorBot((embed, buttons))
    return build_bot(load_config(env, require_token=True))


async def serve(kind: str) -> None:
    """Connect, then answer commands from stdin until it closes."""
    env = dict(os.environ)
    apply_endpoints(env)
    if kind == "blackjack" and os.environ.get("BENCH_SECTIONS"):
        sections.install()  # before the bot is built: its cogs read their listeners then
    if kind == "blackjack" and os.environ.get("BENCH_GC_DEFAULT") != "1":
        gc_tuning.tune()  # as ``python -m bot`` does (bot/cli/run.py); the floors keep defaults
    bot = make_bot(kind, env)
    latency = Latency()
    latency.install(bot)
    control = BotControl(bot, latency, whole_process=False)
    runner = asyncio.create_task(bot.start(env["DISCORD_TOKEN"]))
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    try:
        while line := (await reader.readline()).decode().strip():
            try:
                answer = await control.handle(line)
            except Exception as error:  # reported to the driver, which fails the run
                answer = {"error": repr(error)}
            sys.stdout.write(json.dumps(answer) + "\n")
            sys.stdout.flush()
    finally:
        await bot.close()
        await asyncio.gather(runner, return_exceptions=True)


def main() -> None:
    kind = sys.argv[1]
    loop = os.environ.get("BENCH_UVLOOP", "")
    if loop == "1":  # every bot on uvloop
        import uvloop

        uvloop.run(serve(kind))
    elif kind == "blackjack" and loop != "0":
        event_loop_runner()(serve(kind))  # as ``python -m bot``: uvloop when installed
    else:  # the floors, or every bot on asyncio
        asyncio.run(serve(kind))


if __name__ == "__main__":
    main()
