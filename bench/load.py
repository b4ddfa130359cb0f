"""Load and latency: T blackjack tables of 5 players through the fake Discord, against two floors.

    .venv/bin/python bench/load.py [--tables 200] [--rounds 6] [--paced-rounds 2]
        [--paced-rate N] [--overload-rounds 2] [--database-url URL] [--processes N]
        [--in-process] [--profile FILE] [--profile-floor FILE] [--coach]

The fake Discord (aiohttp server and gateway) and the driver run in this process; the
bot under test runs in a process of its own (``bench/load_bot.py``), so the throughput
and CPU per interaction are the bot's own. ``--in-process`` runs the bot in this
process and event loop instead, for ``--profile``.

1. The floor: a minimal bot whose one button is answered with one type-7 edit
   (``"Presses: n"``) and nothing else, pressed by the same 5 players a table, each
   pressing again as soon as answered: the throughput discord.py allows.
2. The blackjack bot, closed loop: every player acts as soon as the table lets them
   (``/bet``, then each decision by basic strategy, No insurance when asked, read from
   the table message as a player would) for ``--rounds`` rounds: its throughput.
3. The blackjack bot, open loop: ``--paced-rounds`` more rounds, with interactions
   leaving at most ``--paced-rate`` a second (default: half the floor's rate, the
   throughput goal): the bot's own time at a load it is meant to carry.
4. Overload: ``--overload-rounds`` more rounds offered at twice the closed loop's rate:
   every interaction must be answered within 3 s, and afterwards every table message
   must show its table's newest state (and the chips add up).
5. The rich floor: the minimal bot again, each press answered with the table message's
   embed and as many buttons (as seen at the end of step 2).

``--floor-rate R`` paces the floors too (R offered a second, and the blackjack bot's paced
phase at R unless ``--paced-rate`` says otherwise): what a click costs each bot at one
rate, where a process waits between events; no throughput ratios then.

The bot's own time is measured inside the bot: from discord.py beginning to read
the gateway frame that carries INTERACTION_CREATE, to aiohttp having sent the
headers of the bot's callback request. The fake's ManualClock is never advanced, so
its 3 s window cannot close; the real times measured here are checked against 3 s.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import json
import math
import os
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

from load_bot import BotControl, make_bot  # noqa: E402
from load_kit import (  # noqa: E402
    FLOOR_BUTTON,
    BenchDiscord,
    Latency,
    Measure,
    Pacer,
    percentile,
    profile_summary,
    short_route,
)
from table_reading import (  # noqa: E402
    RULES,
    decide,
    message_state,
    seat_value,
    shown_embed,
    without_pictures,
)

import db  # noqa: E402
from bot.engine import Action, Card  # noqa: E402
from bot.engine.analysis import advise  # noqa: E402
from cogs.table.buttons import custom_id, parse_custom_id  # noqa: E402
from fakediscord.harness import running_bot  # noqa: E402
from fakediscord.interactions import FakeInteraction, InteractionRejected  # noqa: E402
from fakediscord.models import FakeChannel, FakeGuild, FakeMember  # noqa: E402
from fakediscord.records import FakeMessage  # noqa: E402
from tests.db.invariants import check_invariants  # noqa: E402

PLAYERS = 5
BUTTON_OF = {
    Action.HIT: "hit",
    Action.STAND: "stand",
    Action.DOUBLE: "double",
    Action.SPLIT: "split",
    Action.SURRENDER: "surrender",
    Action.INSURANCE: "insurance",
    Action.NO_INSURANCE: "no_insurance",
}
ACTION_OF = {name: action for action, name in BUTTON_OF.items()}
#: Real seconds after which a missing answer or a table that stopped moving is a failure
#: (Discord's window is 3 s; this only turns a hang into an error on a crowded machine).
MAX_WAIT = 120.0
#: Real seconds a waiting player looks at the table again even without an edit.
RECHECK = 5.0
#: Real seconds a player told "busy" waits before trying again.
BUSY_RETRY = 1.0
#: Guild settings for the bench: no bet is ever refused for chips, and no timer fires
#: while a round waits for a busy bot (players do everything).
BENCH_SETTINGS = {
    "starting_chips": 1_000_000,
    "bet_timer_s": 3600,
    "action_timer_s": 3600,
    "idle_close_s": 86_400,
}


@dataclass
class Tally:
    """What the driver saw in the measured phase."""

    interactions: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    #: Real seconds from the driver sending an interaction to the fake having the answer.
    round_trips: list[float] = field(default_factory=list)

    pacer: Pacer | None = None

    async def send(self, kind: str, action: Awaitable[FakeInteraction]) -> FakeInteraction:
        """Send (when the pacer allows), wait for the answer, count it."""
        if self.pacer is not None:
            await self.pacer.wait()
        began = time.perf_counter()
        reply = await action
        self.round_trips.append(time.perf_counter() - began)
        self.interactions += 1
        self.kinds[kind] += 1
        if reply.response_type == 6:
            self.kinds["deferred (type 6)"] += 1
        if reply.errors:
            raise AssertionError(f"{reply.describe()} got {reply.errors}")
        return reply


# -- the blackjack driver: a player reading the table message --------------------------------


async def play(
    fake: BenchDiscord,
    tally: Tally,
    member: FakeMember,
    message: FakeMessage,
    rounds: range,
    coach: bool = False,
) -> None:
    """One player: bet on each of ``rounds`` as the message opens it, act whenever they may;
    with ``coach``, ask ``/blackjack coach`` once a round, after the bet."""
    bet_on = rounds.start - 1  # the round this player last bet on
    name = member.nick or member.user.global_name or member.user.username
    refused: tuple[str, set[Action]] = ("", set())
    quiet = 0.0
    while True:
        shown_round, phase = message_state(message)
        if phase == "betting" and shown_round > bet_on:
            if bet_on == rounds.stop - 1:
                return
            reply = await tally.send(
                "bet",
                fake.slash(member, "bet", message.channel, amount="10", max_wait=MAX_WAIT),
            )
            if reply.response_type == 5:  # deferred: the answer replaces "thinking"
                await reply.wait_until_loaded(max_wait=MAX_WAIT)
            if (reply.content or "").startswith(("Bet ", "You already bet")):
                bet_on = shown_round
                if coach:
                    asked = fake.slash(
                        member, "blackjack coach", message.channel, max_wait=MAX_WAIT
                    )
                    await tally.send("coach", asked)
            else:
                tally.kinds[f"refused: {reply.content}"] += 1
                if "busy" in (reply.content or ""):
                    await asyncio.sleep(BUSY_RETRY)
            continue
        if phase != "betting" and shown_round == bet_on:
            hand_key = f"{shown_round}:{seat_value(message, name)}"
            if refused[0] != hand_key:
                refused = (hand_key, set())
            action = decide(message, name, refused[1])
            if action is not None:
                table_id = parse_custom_id(message.buttons()[0]["custom_id"])
                assert table_id is not None
                cid = custom_id(table_id.table_id, shown_round, BUTTON_OF[action])
                shown = (message_state(message), seat_value(message, name))
                try:
                    press = fake.click(member, message, custom_id=cid, max_wait=MAX_WAIT)
                    reply = await tally.send(BUTTON_OF[action], press)
                except InteractionRejected as rejected:
                    if "disabled" in str(rejected):
                        # Nobody may take it now (a pair on a fourth hand: no more splits).
                        # Treated as refused: waiting for a change here would stall the table.
                        tally.kinds[f"disabled: {BUTTON_OF[action]}"] += 1
                        refused[1].add(action)
                        continue
                    tally.kinds["not on the message yet"] += 1
                else:
                    refusal = reply.content or ""
                    if reply.response_type == 6:  # deferred: the table edit or a refusal follows
                        # Wait for this player's own change (another player's edit is not it);
                        # after RECHECK s look again, as a waiting player does.
                        try:
                            await fake.wait_for(
                                lambda was=shown, r=reply: (
                                    bool(r.followups)
                                    or (message_state(message), seat_value(message, name)) != was
                                ),
                                max_wait=RECHECK,
                            )
                        except TimeoutError:
                            tally.kinds["re-checked 5 s after a deferral"] += 1
                        refusal = reply.followups[0].content if reply.followups else ""
                    elif reply.response_type == 7:
                        refusal = ""
                    if refusal:
                        tally.kinds[f"refused: {refusal}"] += 1
                        if "busy" in refusal:
                            await asyncio.sleep(BUSY_RETRY)  # as asked: "in a moment"
                        else:
                            refused[1].add(action)
                    continue
        try:
            await fake.message_changed(message, RECHECK)
            quiet = 0.0
        except AssertionError:
            # Nothing changed for RECHECK s: look again (a wake-up may have been missed), with
            # the refusals forgotten (each was true of its moment), and fail only when the
            # table stood still for MAX_WAIT s.
            tally.kinds["re-checked after a quiet 5 s"] += 1
            refused = ("", set())
            quiet += RECHECK
            if quiet >= MAX_WAIT:
                raise AssertionError(
                    f"stuck: message shows {message_state(message)}, bet_on {bet_on}, seat "
                    f"{seat_value(message, name)!r}; table: {message.embed!r}"
                ) from None


def seat_players(
    fake: BenchDiscord, guilds: list[FakeGuild], prefix: str, tables: int
) -> list[tuple[FakeChannel, list[FakeMember]]]:
    """``tables`` text channels ``{prefix}-{t}`` spread over ``guilds``, each with its PLAYERS."""
    seats = []
    for t in range(tables):
        guild = guilds[t % len(guilds)]
        channel = fake.add_text_channel(guild, f"{prefix}-{t}")
        seats.append((channel, [fake.add_member(guild, f"p{t}-{p}") for p in range(PLAYERS)]))
    return seats


async def open_tables(
    fake: BenchDiscord, seats: list[tuple[FakeChannel, list[FakeMember]]]
) -> list[FakeMessage]:
    """Each host opens a table and the other four join; returns the table messages."""

    async def open_one(channel: FakeChannel, members: list[FakeMember]) -> FakeMessage:
        start = await fake.slash(members[0], "blackjack start", channel, max_wait=MAX_WAIT)
        assert start.response_type == 4, start.errors
        assert start.original is not None
        for member in members[1:]:
            joined = await fake.slash(member, "blackjack join", channel, max_wait=MAX_WAIT)
            assert joined.response_type == 4, joined.errors
        return start.original

    # A few at a time: setup is not measured, and fewer waiters keep fake.wait_for cheap.
    gate = asyncio.Semaphore(20)

    async def gated(channel: FakeChannel, members: list[FakeMember]) -> FakeMessage:
        async with gate:
            return await open_one(channel, members)

    return list(await asyncio.gather(*(gated(c, m) for c, m in seats)))


# -- the bot under test: in its own process(es), or in this one -----------------------------


class BotUnderTest:
    """One bot, in N processes (shards of one database) or in this event loop."""

    def __init__(self, fake: BenchDiscord) -> None:
        self.fake = fake
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
        merged: dict[str, Any] = {}
        for answer in answers:
            for key, value in answer.items():
                if key == "cpu":
                    old = merged.get(key, [0.0, 0.0])
                    merged[key] = [old[0] + value[0], old[1] + value[1]]
                elif key in ("transactions", "threads"):
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
    under_test = BotUnderTest(fake)
    if args.in_process:
        env = {**fake.env(), "DATABASE_URL": database_url}
        if table is not None:
            env["BENCH_TABLE"] = json.dumps(table)
        bot = make_bot(kind, env)
        latency = Latency()
        latency.install(bot)
        under_test.control = BotControl(bot, latency, whole_process=True)
        under_test.profiler = profiler
        async with running_bot(fake, bot):
            yield under_test
        return
    for shard in range(processes):
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
        for child in under_test.children:
            assert child.stdin is not None
            child.stdin.close()
        for child in under_test.children:
            try:
                await asyncio.wait_for(child.wait(), 20)
            except TimeoutError:
                child.kill()
                await child.wait()


# -- the runs --------------------------------------------------------------------------------


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

    @property
    def rate(self) -> float:
        return self.tally.interactions / self.seconds if self.seconds else math.nan

    def _harness_line(self, n: int) -> str:
        per = self.harness / n * 1000
        return f"  CPU per interaction of the fake Discord and the driver: {per:.2f} ms"

    def lines(self, tables: int) -> list[str]:
        """The report of this phase."""
        if not self.tally.interactions:
            return [f"{self.label}: not run"]
        trips = sorted(t * 1000 for t in self.tally.round_trips)
        own = sorted(s * 1000 for s in self.latency)
        n = self.tally.interactions
        other = "the rest of this process (fake, driver)" if self.in_process else "other threads"
        out = [
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
            f"  CPU per interaction: bot's event loop thread {self.cpu[0] / n * 1000:.2f} ms, "
            f"{other} {self.cpu[1] / n * 1000:.2f} ms"
            + (
                " ("
                + ", ".join(
                    f"{name} {seconds / n * 1000:.2f}"
                    for name, seconds in sorted(self.threads.items(), key=lambda kv: -kv[1])
                )
                + ")"
                if self.threads
                else ""
            ),
            *([self._harness_line(n)] if self.harness else []),
            "  requests the bot made per interaction: "
            + ", ".join(
                f"{route.split(' ', 1)[0]} {short_route(route)} {count / n:.2f}"
                for route, count in self.requests.most_common()
            ),
        ]
        if self.transactions:
            total = sum(self.transactions.values())
            each = ", ".join(
                f"{name} {count / self.tally.interactions:.2f}"
                for name, count in self.transactions.most_common()
            )
            out.append(
                f"  database transactions per interaction: {total / self.tally.interactions:.2f}"
                f" ({each})"
            )
        if self.writes:
            waits = sorted(w * 1000 for w in self.writes)
            out.append(
                f"  durable writes (stakes, journal rows), submit to commit: {len(waits)},"
                f" p50 {percentile(waits, 0.5):.1f} ms  p99 {percentile(waits, 0.99):.1f} ms"
                " (a click waits for its own under its table's lock)"
            )
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
        return out + [f"  {note}" for note in self.notes]


async def measured(
    label: str,
    fake: BenchDiscord,
    under_test: BotUnderTest,
    tally: Tally,
    players: list[Awaitable[None]],
) -> Run:
    """Run the players to the end while the bot measures itself."""
    with Measure(fake, Latency(), None) as measure:
        await under_test.command("start")
        await asyncio.gather(*players)
        answer = await under_test.command("stop")
    return Run(
        label,
        tally,
        measure.seconds,
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
    )


async def consistency(under_test: BotUnderTest, messages: list[FakeMessage]) -> str:
    """Once the bot is idle: does every table message show its table's newest state?"""
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
    return (
        f"tables whose message shows their newest state: {len(tables) - len(wrong)} of "
        f"{len(tables)}" + (f" (wrong: {wrong[:5]})" if wrong else "")
    )


async def blackjack_run(
    args: argparse.Namespace, database_url: str, paced_rate: float, processes: int = 1
) -> list[Run]:
    """The blackjack bot: open T tables (memory measured), play ``--rounds`` rounds as fast as
    answered, ``--paced-rounds`` more at ``paced_rate`` a second, ``--overload-rounds`` at
    twice the closed loop's rate."""
    tables, rounds = args.tables, args.rounds
    profiler = cProfile.Profile() if args.profile else None
    async with BenchDiscord(recommended_shards=processes) as fake:
        guilds = [
            fake.add_guild(f"Load {n}", shard=n, of=processes)
            if processes > 1
            else fake.add_guild("Load")
            for n in range(processes)
        ]
        seats = seat_players(fake, guilds, "table", tables)
        store = await db.open_store(database_url)
        try:
            for guild in guilds:
                await store.set_guild_settings(guild.id, **BENCH_SETTINGS, layout=args.layout)
        finally:
            await store.close()
        async with bot_under_test(
            fake,
            "blackjack",
            args,
            database_url=database_url,
            processes=processes,
            profiler=profiler,
        ) as under_test:
            await under_test.command("memory-start")
            messages = await open_tables(fake, seats)
            memory = await under_test.command("memory-stop")
            # The basic-strategy chart is built on first use (about a second): not mid-phase.
            advise(
                RULES,
                [Card.parse("9s"), Card.parse("Tc")],
                Card.parse("6h"),
                [Action.HIT, Action.STAND],
            )

            def players(tally: Tally, played: range) -> list[Awaitable[None]]:
                return [
                    play(fake, tally, member, message, played, args.coach)
                    for (_, members), message in zip(seats, messages, strict=True)
                    for member in members
                ]

            where = f", {processes} processes" if processes > 1 else ""
            fast = Tally()
            closed = await measured(
                f"blackjack bot{where}", fake, under_test, fast, players(fast, range(1, rounds + 1))
            )
            closed.memory = (memory["traced"], memory["rss"])
            runs = [closed]
            sample = (without_pictures(shown_embed(messages[0])), len(messages[0].buttons()))
            start = rounds + 1
            for phase_rounds, rate, label in (
                (args.paced_rounds, paced_rate, "paced at {:,.0f} interactions/s offered"),
                (args.overload_rounds, 2 * closed.rate, "overload: {:,.0f}/s offered (2x)"),
            ):
                if not phase_rounds:
                    continue
                tally = Tally(pacer=Pacer(rate))
                played = range(start, start + phase_rounds)
                run = await measured(
                    f"blackjack bot, {label.format(rate)}",
                    fake,
                    under_test,
                    tally,
                    players(tally, played),
                )
                run.notes.append(await consistency(under_test, messages))
                runs.append(run)
                start += phase_rounds
    if profiler is not None:
        profiler.dump_stats(args.profile)
        runs[0].notes += profile_summary(profiler, args.top)
    await check_invariants(database_url)
    runs[0].notes.append("chips: every balance is its ledger, no bet or payout twice (checked)")
    runs[0].sample = sample
    return runs


async def floor_run(
    args: argparse.Namespace, presses: int, table: tuple[dict[str, Any], int] | None = None
) -> Run:
    """The minimal bot under the same driver: ``presses`` presses a player, as fast as answered.

    ``table``: (embed, buttons) of a table message, for the rich floor.
    """
    profiler = cProfile.Profile() if args.profile_floor and table is None else None
    kind = "floor" if table is None else "rich"
    async with BenchDiscord() as fake:
        guild = fake.add_guild("Floor")
        seats = seat_players(fake, [guild], "floor", args.tables)
        async with bot_under_test(fake, kind, args, table=table, profiler=profiler) as under_test:
            messages = []
            for channel, members in seats:
                posted = await fake.slash(members[0], "floor", channel)
                assert posted.original is not None
                messages.append(posted.original)
            tally = Tally(pacer=Pacer(args.floor_rate) if args.floor_rate else None)

            async def player(member: FakeMember, message: FakeMessage) -> None:
                for _ in range(presses):
                    press = fake.click(member, message, custom_id=FLOOR_BUTTON, max_wait=MAX_WAIT)
                    reply = await tally.send("press", press)
                    assert reply.response_type == 7

            label = "floor (one edit per press)" if table is None else "rich floor (table-sized)"
            if args.floor_rate:
                label += f", paced at {args.floor_rate:,.0f} interactions/s offered"
            run = await measured(
                label,
                fake,
                under_test,
                tally,
                [
                    player(m, message)
                    for (_, ms), message in zip(seats, messages, strict=True)
                    for m in ms
                ],
            )
    if profiler is not None:
        profiler.dump_stats(args.profile_floor)
        run.notes += profile_summary(profiler, args.top)
    return run


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


#: ``--pin``: the core of each bot process, by shard; this process keeps the others.
PINNED_BOTS: list[int] = []


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


async def main(args: argparse.Namespace) -> None:
    """Floor first (its rate paces the latency phase), then the blackjack bot, the rich floor."""
    where = "in this process" if args.in_process else "in a process of its own"
    pinned = pin_harness(args)
    print(
        f"{args.tables} tables x {PLAYERS} players, {args.rounds} rounds as fast as answered; "
        f"the bot runs {where}, {loop_line(args)}{pinned}"
    )
    # About as many presses a player as the blackjack rounds take (2.4 interactions a round).
    presses = round(2.4 * args.rounds)
    if args.processes > 1:
        await scale_out(args)
        return
    floor = await floor_run(args, presses)
    print("\n".join(floor.lines(args.tables)), flush=True)
    paced_rate = args.paced_rate or args.floor_rate or floor.rate / 2
    with database(args, "load") as url:
        runs = await blackjack_run(args, url, paced_rate)
    print(f"store: {url.split(':')[0]}")
    for run in runs:
        print("\n".join(run.lines(args.tables)), flush=True)
    closed = runs[0]
    rich = await floor_run(args, presses, closed.sample)
    print("\n".join(rich.lines(args.tables)))
    p99 = math.nan
    if args.paced_rounds:
        p99 = percentile(sorted(runs[1].latency), 0.99) * 1000
    if args.floor_rate:
        print(
            f"floors paced: no throughput ratios; blackjack p99 at {paced_rate:,.0f}/s:"
            f" {p99:.1f} ms"
        )
        return
    print(
        f"throughput ratio, blackjack / floor: {closed.rate / floor.rate:.2f} (goal >= 0.5); "
        f"blackjack / rich floor: {closed.rate / rich.rate:.2f} (goal >= 0.7); "
        + (
            f"blackjack p99 at half the floor's rate: {p99:.1f} ms (goal < 50 ms)"
            if args.paced_rate is None
            else f"blackjack p99 at {paced_rate:,.0f}/s (--paced-rate): {p99:.1f} ms; the goal,"
            f" < 50 ms, is at half the floor's rate, {floor.rate / 2:,.0f}/s"
        )
    )


async def scale_out(args: argparse.Namespace) -> None:
    """One process, then ``--processes`` shard processes on one PostgreSQL server, closed loop."""
    rates, cpu = [], []
    for processes in (1, args.processes):
        with database(args, f"scale{processes}") as url:
            no_more = argparse.Namespace(**{**vars(args), "paced_rounds": 0, "overload_rounds": 0})
            closed = (await blackjack_run(no_more, url, 0.0, processes))[0]
        print("\n".join(closed.lines(args.tables)), flush=True)
        rates.append(closed.rate)
        cpu.append(sum(closed.cpu) / max(closed.tally.interactions, 1))  # all bot processes
    n = args.processes
    print(f"throughput, {n} processes / 1: {rates[1] / rates[0]:.2f} (goal >= 1.8)")
    # Where the machine has fewer free cores than bot processes (the fake, the driver and
    # PostgreSQL share them), the measured ratio shows the machine. The bots' own CPU per
    # interaction shows what N processes with a core each would give: N times one, less
    # what sharding costs each click (PostgreSQL contention, shard routing).
    print(
        f"bot CPU per interaction, 1 process {cpu[0] * 1000:.2f} ms, {n} processes "
        f"{cpu[1] * 1000:.2f} ms: with a core each, {n} processes / 1 = "
        f"{n * cpu[0] / cpu[1]:.2f}"
    )


def loop_line(args: argparse.Namespace) -> str:
    """Which event loop the bot processes run."""
    if args.uvloop:
        return "every bot on uvloop"
    if args.asyncio or args.in_process:
        return "every bot on asyncio"
    try:
        import uvloop  # noqa: F401
    except ImportError:
        return "every bot on asyncio (uvloop is not installed)"
    return "the blackjack bot on uvloop (as python -m bot), the floors on asyncio"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200, help="tables, 5 players each")
    parser.add_argument("--rounds", type=int, default=6, help="rounds as fast as answered")
    parser.add_argument("--paced-rounds", type=int, default=2, help="rounds at the paced rate")
    parser.add_argument(
        "--paced-rate", type=float, default=None, help="default: half the floor's rate"
    )
    parser.add_argument(
        "--overload-rounds", type=int, default=2, help="rounds offered at twice capacity"
    )
    parser.add_argument(
        "--floor-rate",
        type=float,
        default=None,
        help="pace the floors too (and the paced phase, by default) at this rate",
    )
    parser.add_argument(
        "--layout",
        choices=("embed", "components"),
        default="embed",
        help="the table messages' layout (components: Components V2)",
    )
    parser.add_argument("--database-url", default=None, help="default: SQLite in a temp dir")
    parser.add_argument("--postgres", action="store_true", help="a throwaway PostgreSQL server")
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="N > 1: compare 1 and N shard processes on one PostgreSQL server",
    )
    parser.add_argument(
        "--in-process", action="store_true", help="the bot in this process (for --profile)"
    )
    parser.add_argument(
        "--pin",
        action="store_true",
        help="each bot process on a core of its own, the fake and the driver on the rest",
    )
    loops = parser.add_mutually_exclusive_group()
    loops.add_argument("--uvloop", action="store_true", help="every bot process runs uvloop")
    loops.add_argument("--asyncio", action="store_true", help="every bot process runs asyncio")
    parser.add_argument(
        "--profile", metavar="FILE", help="cProfile the blackjack phase (in-process)"
    )
    parser.add_argument("--profile-floor", metavar="FILE", help="cProfile the floor (in-process)")
    parser.add_argument("--top", type=int, default=30, help="functions listed with --profile")
    parser.add_argument(
        "--coach", action="store_true", help="every player asks /blackjack coach once a round"
    )
    args = parser.parse_args(argv)
    if (args.profile or args.profile_floor) and not args.in_process:
        parser.error("--profile needs --in-process (the profiler runs in this process)")
    if args.pin and args.in_process:
        parser.error("--pin puts the bot in a process of its own: not with --in-process")
    return args


if __name__ == "__main__":
    asyncio.run(main(parse_args()))
