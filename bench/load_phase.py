"""One measured phase of ``bench/load.py``: running it while the bot measures itself, and
the lines that report it."""

from __future__ import annotations

import asyncio
import math
import time
from collections import Counter
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Any

from load_kit import BenchDiscord, Latency, Measure, percentile, short_route
from load_player import Tally
from load_process import BotUnderTest

from fakediscord.records import FakeMessage


@dataclass
class Run:
    """One measured phase."""

    label: str
    tally: Tally
    seconds: float
    #: The bot's own time per interaction (seconds), measured inside the bot.
    latency: list[float] = field(default_factory=list)
    #: CPU seconds: the bot's event loop thread, its other threads (in-process: everything).
    cpu: tuple[float, float] = (0.0, 0.0)
    gc_line: str = ""
    heap: str = ""
    #: The event-loop lag the bot's metrics sampled during the phase (blackjack bot).
    lag: str = ""
    #: Database transactions the bot ran in the phase, by operation (blackjack bot).
    transactions: Counter[str] = field(default_factory=Counter)
    #: Seconds from submit to commit of each grouped durable write (stakes, journal rows).
    writes: list[float] = field(default_factory=list)
    #: CPU seconds of the bot's other threads in the phase, by thread name.
    threads: dict[str, float] = field(default_factory=dict)
    #: CPU seconds of this process (the fake Discord and the driver) in the phase, when the
    #: bot runs apart: on a machine short of cores they, not the bot, may set the rate.
    harness: float = 0.0
    requests: Counter[str] = field(default_factory=Counter)
    memory: tuple[int, int] | None = None
    in_process: bool = False
    notes: list[str] = field(default_factory=list)
    #: A table message at the end of the closed loop: (embed, buttons), for the rich floor.
    sample: tuple[dict[str, Any], int] | None = None
    #: CPU seconds of the processes the bot started (its strategy workers), by kind.
    children: dict[str, float] = field(default_factory=dict)
    #: Rounds the tables played in the phase (one a table a round; 0 for the floors).
    rounds: int = 0
    #: Once the bot was idle after the phase: (tables showing their newest state, tables),
    #: and the first few channels that did not.
    current: tuple[int, int, list[int]] | None = None

    @property
    def rate(self) -> float:
        return self.tally.interactions / self.seconds if self.seconds else math.nan

    @property
    def cpu_ms(self) -> float:
        """CPU per interaction, milliseconds: the event loop thread and the bot's other
        threads (the figure the goals compare with the table-sized floor's)."""
        return sum(self.cpu) / self.tally.interactions * 1000 if self.tally.interactions else 0.0

    @property
    def late(self) -> int:
        """Answers the driver waited over 3 s for."""
        return sum(t > 3.0 for t in self.tally.round_trips)

    def per_interaction(self, counts: Counter[str]) -> float:
        """A count's total per interaction (requests, transactions)."""
        return sum(counts.values()) / self.tally.interactions if self.tally.interactions else 0.0

    def lines(self, tables: int) -> list[str]:
        """The report of this phase."""
        if not self.tally.interactions:
            return [f"{self.label}: not run"]
        n = self.tally.interactions
        return [
            *self._time_lines(n),
            self._cpu_line(n),
            *([self._harness_line(n)] if self.harness else []),
            "  requests the bot made per interaction: "
            + ", ".join(
                f"{route.split(' ', 1)[0]} {short_route(route)} {count / n:.2f}"
                for route, count in self.requests.most_common()
            ),
            *self._database_lines(n),
            *self._children_lines(n),
            *self._process_lines(tables),
            *self._current_lines(),
            *[f"  {note}" for note in self.notes],
        ]

    def _time_lines(self, n: int) -> list[str]:
        trips = sorted(t * 1000 for t in self.tally.round_trips)
        own = sorted(s * 1000 for s in self.latency)
        return [
            f"{self.label}: {n} interactions in {self.seconds:.2f} s = {self.rate:,.0f}"
            " interactions/s",
            f"  bot's own time (gateway frame read -> callback sent): p50 "
            f"{percentile(own, 0.5):6.2f} ms  p99 {percentile(own, 0.99):6.2f} ms  "
            f"max {max(own, default=math.nan):7.2f} ms  ({len(own)} samples)",
            f"  driver round trip (sent -> answer at the fake):      p50 "
            f"{percentile(trips, 0.5):6.2f} ms  p99 {percentile(trips, 0.99):6.2f} ms  "
            f"max {max(trips, default=math.nan):7.2f} ms",
            f"  answers over 3 s: {sum(t > 3000 for t in trips)}",
            f"  by kind: {dict(self.tally.kinds.most_common())}",
        ]

    def _cpu_line(self, n: int) -> str:
        other = "the rest of this process (fake, driver)" if self.in_process else "other threads"
        threads = ", ".join(
            f"{name} {seconds / n * 1000:.2f}"
            for name, seconds in sorted(self.threads.items(), key=lambda kv: -kv[1])
        )
        return (
            f"  CPU per interaction: bot's event loop thread {self.cpu[0] / n * 1000:.2f} ms, "
            f"{other} {self.cpu[1] / n * 1000:.2f} ms" + (f" ({threads})" if self.threads else "")
        )

    def _harness_line(self, n: int) -> str:
        per = self.harness / n * 1000
        return f"  CPU per interaction of the fake Discord and the driver: {per:.2f} ms"

    def _database_lines(self, n: int) -> list[str]:
        out = []
        if self.transactions:
            total = sum(self.transactions.values())
            each = ", ".join(
                f"{name} {count / n:.2f}" for name, count in self.transactions.most_common()
            )
            out.append(f"  database transactions per interaction: {total / n:.2f} ({each})")
        if self.writes:
            waits = sorted(w * 1000 for w in self.writes)
            out.append(
                f"  durable writes (stakes, journal rows), submit to commit: {len(waits)},"
                f" p50 {percentile(waits, 0.5):.1f} ms  p99 {percentile(waits, 0.99):.1f} ms"
                " (a click waits for its own under its table's lock)"
            )
        return out

    def _children_lines(self, n: int) -> list[str]:
        """The CPU of the processes the bot started (not in the figure above: each shown)."""
        if not self.children:
            return []
        rounds = f" ({self.rounds} rounds)" if self.rounds else ""
        each = ", ".join(
            f"{kind} {seconds / n * 1000:.2f}"
            + (f" ({seconds / self.rounds * 1000:.2f} ms a round)" if self.rounds else "")
            for kind, seconds in sorted(self.children.items(), key=lambda kv: -kv[1])
        )
        return [f"  CPU per interaction of the processes the bot started{rounds}: {each}"]

    def _current_lines(self) -> list[str]:
        if self.current is None:
            return []
        shown, total, wrong = self.current
        return [
            f"  tables whose message shows their newest state: {shown} of {total}"
            + (f" (wrong: {wrong})" if wrong else "")
        ]

    def _process_lines(self, tables: int) -> list[str]:
        out = []
        if self.gc_line:
            out.append(f"  bot's garbage collector: {self.gc_line}")
        if self.heap:
            out.append(f"  bot's heap after the phase: {self.heap}")
        if self.lag:
            out.append(f"  bot's event-loop lag (its metrics): {self.lag}")
        if self.memory is not None:
            traced, rss = self.memory
            out.append(
                f"  memory per open table (5 seated): {traced / tables / 1024:.1f} KiB traced "
                f"in the bot, {rss / tables / 1024:.1f} KiB RSS"
            )
        return out


async def measured(
    label: str,
    fake: BenchDiscord,
    under_test: BotUnderTest,
    tally: Tally,
    players: list[Awaitable[None]],
    *,
    graded: bool = False,
) -> Run:
    """Run the players to the end while the bot measures itself; with ``graded``, the
    measure ends once the coach has graded the phase's rounds too (its CPU is the phase's),
    and the phase's seconds end with the players."""
    with Measure(fake, Latency(), None) as measure:
        await under_test.command("start")
        await asyncio.gather(*players)
        played = time.perf_counter() - measure.began
        if graded:
            await under_test.command("graded")
        answer = await under_test.command("stop")
    return Run(
        label,
        tally,
        played if graded else measure.seconds,
        answer["samples"],
        tuple(answer["cpu"]) if under_test.control is None else measure.cpu,  # type: ignore[arg-type]
        answer.get("gc", ""),
        requests=measure.requests,
        in_process=under_test.control is not None,
        heap=answer.get("heap", ""),
        lag=answer.get("lag", ""),
        transactions=Counter(answer.get("transactions", {})),
        threads=answer.get("threads", {}),
        writes=answer.get("writes", []),
        harness=0.0 if under_test.control is not None else sum(measure.cpu),
        children=answer.get("children", {}),
    )


async def current_tables(
    under_test: BotUnderTest, messages: list[FakeMessage]
) -> tuple[int, int, list[int]]:
    """Once the bot is idle: how many table messages show their table's newest state, of how
    many, and the first few channels whose message does not."""
    await under_test.command("idle")
    tables = (await under_test.command("tables"))["tables"]
    by_channel = {m.channel.id: m for m in messages}
    wrong = [
        t["channel_id"]
        for t in tables
        if by_channel[t["channel_id"]].embed != t["embed"]
        or (
            t["components"] is not None
            and by_channel[t["channel_id"]].components != t["components"]
        )
        or t["shown"] != t["version"]
    ]
    return len(tables) - len(wrong), len(tables), wrong[:5]
