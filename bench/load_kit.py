"""The parts of ``bench/load.py``: the fake that says which message changed, the latency probe,
the garbage collector's pauses, memory, pacing, and figures (the floor bot: load_floor.py).

Kept apart from the driver so each file reads top to bottom.
"""

from __future__ import annotations

import asyncio
import cProfile
import gc
import os
import pstats
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord
from discord.gateway import DiscordWebSocket

from fakediscord import FakeDiscord
from fakediscord.records import FakeMessage

# -- the fake, with one waiter list per message ------------------------------------------------


class BenchDiscord(FakeDiscord):
    """The fake Discord, telling the driver when one message changed.

    ``FakeDiscord.wait_for`` wakes every waiter on every request, which with a
    thousand players waiting would make the driver the bottleneck. Here a player
    waits on its own table message only: MESSAGE_UPDATE is queued for the gateway
    (this is where it is queued, once the message was edited), and only that
    message's waiters wake. The fake's checks and replies are untouched.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._watchers: dict[int, list[asyncio.Future[None]]] = {}
        #: Requests served, kept as a count once the log has been checked (see trim_log).
        self.served: Counter[str] = Counter()

    def dispatch(self, event: str, data: Any) -> None:
        """Queue the gateway event, then wake whoever waits on that message."""
        super().dispatch(event, data)
        if event == "MESSAGE_UPDATE":
            for waiter in self._watchers.pop(int(data["id"]), ()):
                if not waiter.done():
                    waiter.set_result(None)

    async def message_changed(self, message: FakeMessage, max_wait: float = 30.0) -> None:
        """Return at the next edit of ``message``."""
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._watchers.setdefault(message.id, []).append(waiter)
        try:
            await asyncio.wait_for(waiter, max_wait)
        except TimeoutError:
            raise AssertionError(f"message {message.id} did not change in {max_wait}s") from None

    def trim_log(self) -> None:
        """Fail on any error the bot got, then forget the checked requests (memory, GC time)."""
        self.assert_clean()
        self.served.update(r.route or "?" for r in self.requests)
        self.requests.clear()


# -- the bot's own time --------------------------------------------------------------------


def percentile(sorted_values: list[float], share: float) -> float:
    """The value below which ``share`` of the (sorted) values lie."""
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * share))]


@dataclass
class Latency:
    """Per interaction: when discord.py began reading its gateway frame, and when the bot
    sent its callback request. Both are taken inside the bot's own code paths.
    """

    received: dict[int, float] = field(default_factory=dict)
    samples: list[float] = field(default_factory=list)
    recording: bool = False

    def copy(self) -> Latency:
        """The samples so far (the probe itself keeps measuring)."""
        return Latency(samples=list(self.samples))

    def clear(self) -> None:
        """Drop everything measured so far (setup traffic)."""
        self.received.clear()
        self.samples.clear()

    def install(self, client: discord.Client) -> None:
        """Wrap the INTERACTION_CREATE parser and trace the bot's HTTP session."""
        parsers: dict[str, Callable[[Any], None]] = client._connection.parsers
        parse = parsers["INTERACTION_CREATE"]

        def timed_parse(data: Any) -> None:
            if self.recording:
                self.received[int(data["id"])] = FRAME_START[0]
            parse(data)

        parsers["INTERACTION_CREATE"] = timed_parse
        trace = aiohttp.TraceConfig()

        async def headers_sent(
            session: aiohttp.ClientSession,
            context: Any,
            params: aiohttp.TraceRequestHeadersSentParams,
        ) -> None:
            parts = params.url.path.split("/")
            if self.recording and parts[-1] == "callback":
                began = self.received.pop(int(parts[-3]), None)
                if began is not None:
                    self.samples.append(time.perf_counter() - began)

        trace.on_request_headers_sent.append(headers_sent)
        client.http.http_trace = trace  # the session is made at login, with this trace

    def line(self) -> str:
        """p50, p99 and max in milliseconds."""
        ms = sorted(s * 1000 for s in self.samples)
        return (
            f"p50 {percentile(ms, 0.5):6.2f} ms  p99 {percentile(ms, 0.99):6.2f} ms  "
            f"max {max(ms, default=float('nan')):7.2f} ms  ({len(ms)} samples)"
        )


#: When discord.py began handling the current gateway frame (before inflating and parsing it).
FRAME_START = [0.0]
_received_message = DiscordWebSocket.received_message


async def _timed_received_message(self: DiscordWebSocket, msg: Any, /) -> None:
    FRAME_START[0] = time.perf_counter()
    await _received_message(self, msg)


DiscordWebSocket.received_message = _timed_received_message  # type: ignore[method-assign]


# -- garbage collection -----------------------------------------------------------------------


class GcPauses:
    """Pauses of the cyclic garbage collector, per generation, while installed."""

    def __init__(self) -> None:
        self.pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
        #: CPU seconds of the collecting thread, per generation (the pauses are wall time).
        self.cpu: dict[int, float] = {0: 0.0, 1: 0.0, 2: 0.0}
        self._began = (0.0, 0.0)

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._began = (time.perf_counter(), time.thread_time())
        else:
            generation = info["generation"]
            self.pauses[generation].append(time.perf_counter() - self._began[0])
            self.cpu[generation] += time.thread_time() - self._began[1]

    def __enter__(self) -> GcPauses:
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._callback)

    def line(self) -> str:
        """Collections, the longest pause and the total of each generation."""
        return ", ".join(
            f"gen {g}: {len(p)} x, max {max(p, default=0) * 1000:.1f} ms,"
            f" CPU {self.cpu[g] * 1000:.0f} ms in all"
            for g, p in self.pauses.items()
        )


# -- memory ---------------------------------------------------------------------------------


def rss_bytes() -> int:
    """Resident memory of this process."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


class MemoryProbe:
    """Memory held by the bot before and after the tables open: tracemalloc and RSS.

    tracemalloc counts what the bot's code and its libraries (discord.py,
    aiosqlite, aiohttp's client) allocated and still hold, leaving out what the
    fake and this driver hold (their files are filtered out).
    """

    EXCLUDED = ("*/fakediscord/*", "*/bench/*", "*/tracemalloc.py")

    def __init__(self) -> None:
        self.before_traced = 0
        self.before_rss = 0

    def start(self) -> None:
        """Begin counting (call before the tables open)."""
        gc.collect()
        self.before_rss = rss_bytes()
        tracemalloc.start()
        self.before_traced = self._traced()

    def _traced(self) -> int:
        gc.collect()
        snapshot = tracemalloc.take_snapshot().filter_traces(
            [tracemalloc.Filter(False, pattern) for pattern in self.EXCLUDED]
        )
        return sum(stat.size for stat in snapshot.statistics("filename"))

    def stop(self) -> tuple[int, int]:
        """(bytes traced in the bot, RSS bytes) gained since :meth:`start`."""
        traced = self._traced() - self.before_traced
        tracemalloc.stop()
        gc.collect()
        return traced, rss_bytes() - self.before_rss


# -- a measured phase ---------------------------------------------------------------------


class Measure:
    """Start/stop the clock, the latency probe, the optional profiler and the log trimmer."""

    def __init__(self, fake: BenchDiscord, latency: Latency, profiler: cProfile.Profile | None):
        self.fake, self.latency, self.profiler = fake, latency, profiler
        self.began = 0.0
        self.seconds = 0.0
        self.requests: Counter[str] = Counter()
        self.gc = GcPauses()
        #: CPU seconds (event loop thread, other threads: the database's) once finished.
        self.cpu = (0.0, 0.0)
        self._trimmer: asyncio.Task[None] | None = None

    async def _trim(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            self.fake.trim_log()
            # The fake keeps every interaction and message it saw; left to the collector, each
            # full collection would scan that growing heap (pauses of 300 ms at 200 tables)
            # that no bot in production carries. Freezing what survived a second models a
            # long-running bot's settled heap; new garbage is still collected (and timed).
            gc.freeze()

    def __enter__(self) -> Measure:
        self.fake.trim_log()
        self.fake.served.clear()
        self.latency.clear()
        self.latency.recording = True
        self._trimmer = asyncio.create_task(self._trim())
        # What setup built (guilds, members, open tables) is never garbage: keep the collector
        # from scanning it again and again, as a long-running bot's old objects would be.
        gc.collect()
        gc.freeze()
        self.gc = GcPauses().__enter__()
        if self.profiler is not None:
            self.profiler.enable()
        self.cpu = (time.process_time(), time.thread_time())
        self.began = time.perf_counter()
        return self

    def __exit__(self, *exc: object) -> None:
        self.seconds = time.perf_counter() - self.began
        process, main = time.process_time() - self.cpu[0], time.thread_time() - self.cpu[1]
        self.cpu = (main, process - main)
        if self.profiler is not None:
            self.profiler.disable()
        self.latency.recording = False
        self.gc.__exit__()
        gc.unfreeze()
        assert self._trimmer is not None
        self._trimmer.cancel()
        self.fake.trim_log()
        self.requests = Counter(self.fake.served)


# -- pacing and reporting -------------------------------------------------------------------


class Pacer:
    """An open-loop load: interactions leave at most ``rate`` a second, evenly spaced."""

    def __init__(self, rate: float) -> None:
        self.gap = 1.0 / rate
        self.next = 0.0

    async def wait(self) -> None:
        """Take the next free slot; sleep until it comes."""
        now = time.perf_counter()
        slot = max(now, self.next)
        self.next = slot + self.gap
        if slot > now:
            await asyncio.sleep(slot - now)


def profile_summary(profiler: cProfile.Profile, top: int) -> list[str]:
    """Own time by area (our code, discord.py, aiohttp, the fake, the driver, ...) and the top
    functions by own time."""
    stats = pstats.Stats(profiler)
    areas: Counter[str] = Counter()
    total = 0.0
    rows = []
    for (filename, line, name), (_, calls, tottime, _, _) in stats.stats.items():  # type: ignore[attr-defined]
        total += tottime
        areas[_area(filename)] += tottime
        rows.append((tottime, calls, f"{_short(filename)}:{line}({name})"))
    out = ["own time by area:"]
    out += [f"  {area:<28} {t:7.2f} s  {100 * t / total:5.1f}%" for area, t in areas.most_common()]
    out.append(f"top {top} functions by own time:")
    for tottime, calls, where in sorted(rows, reverse=True)[:top]:
        out.append(f"  {tottime:7.3f} s {calls:9d} calls  {where}")
    return out


AREAS = (
    ("/fakediscord/", "fake Discord"),
    ("/bench/", "driver"),
    ("/discord/", "discord.py"),
    ("/aiohttp/", "aiohttp"),
    ("/aiosqlite/", "aiosqlite"),
    ("/asyncpg/", "asyncpg"),
    ("/bot/", "our bot (bot/)"),
    ("/cogs/", "our bot (cogs/)"),
    ("/db/", "our bot (db/)"),
    ("/asyncio/", "asyncio"),
    ("/json/", "json"),
)


def short_route(route: str) -> str:
    """``callback`` or the route's path, for the report."""
    if "/callback" in route:
        return "callback"
    return route.split(" ", 1)[-1].replace("/{application_id}/{interaction_token}", "")


def _area(filename: str) -> str:
    for marker, area in AREAS:
        if marker in filename:
            return area
    return "builtins and other" if filename == "~" else "other Python"


def _short(filename: str) -> str:
    for marker in ("site-packages/", "/work/main/", "python3.11/"):
        if marker in filename:
            return filename.split(marker, 1)[1]
    return filename
