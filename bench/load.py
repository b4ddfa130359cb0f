"""Load and latency: T blackjack tables of 5 players through the fake Discord, against a floor.

    .venv/bin/python bench/load.py [--tables 200] [--rounds 6] [--paced-rounds 2]
        [--paced-rate N] [--database-url URL] [--profile FILE] [--profile-floor FILE]

Everything runs in this process and event loop: the fake Discord (aiohttp server
and gateway), the bot (discord.py, the table service, SQLite in a temporary
folder unless ``--database-url`` names another database), and the driver.

1. The floor: a minimal bot whose one button is answered with one type-7 edit and
   nothing else, pressed by the same 5 players a table, each pressing again as soon
   as answered: the throughput discord.py (and the fake) allow.
2. The blackjack bot, closed loop: every player acts as soon as the table lets them
   (``/bet``, then each decision by basic strategy, No insurance when asked, on the
   table message's buttons) for ``--rounds`` rounds: its throughput.
3. The blackjack bot, open loop: ``--paced-rounds`` more rounds, with interactions
   leaving at most ``--paced-rate`` a second (default: half the floor's rate, the
   throughput goal): the bot's own time at a load it is meant to carry.

The bot's own time is measured inside the bot: from discord.py beginning to read
the gateway frame that carries INTERACTION_CREATE, to aiohttp having sent the
headers of the bot's callback request. The bot's ManualClock is never advanced:
no timer fires (players do everything) and the 3 s window cannot close on a
clock the driver moves; the real times measured here are checked against 3 s.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import math
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

from load_kit import (  # noqa: E402
    FLOOR_BUTTON,
    BenchDiscord,
    FloorBot,
    Latency,
    Measure,
    MemoryProbe,
    Pacer,
    percentile,
    profile_summary,
    short_route,
)

import db  # noqa: E402
from bot.app import BlackjackBot, build_bot  # noqa: E402
from bot.config import Config  # noqa: E402
from bot.engine import (  # noqa: E402
    Action,
    Card,
    advise,
    cards,
)
from bot.tables.snapshot import SeatView, TableSnapshot  # noqa: E402
from cogs.table.buttons import custom_id, parse_custom_id  # noqa: E402
from fakediscord.harness import running_bot  # noqa: E402
from fakediscord.interactions import FakeInteraction, InteractionRejected  # noqa: E402
from fakediscord.models import FakeChannel, FakeGuild, FakeMember  # noqa: E402
from fakediscord.records import FakeMessage  # noqa: E402

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
#: Real seconds after which a missing answer is a failure (Discord's window is 3 s).
MAX_WAIT = 30.0


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
        if reply.errors:
            raise AssertionError(f"{reply.describe()} got {reply.errors}")
        return reply


# -- the blackjack driver --------------------------------------------------------------------


def message_state(message: FakeMessage) -> tuple[int, str]:
    """(round number, phase) that the table message shows, read from its buttons' ids."""
    actions, round_no = set(), 0
    for button in message.buttons():
        ref = parse_custom_id(button.get("custom_id", ""))
        if ref is not None:
            actions.add(ref.action)
            round_no = ref.round_no
    if "hit" in actions:
        return round_no, "playing"
    if "insurance" in actions:
        return round_no, "insurance"
    return round_no, "betting"


def my_seat(snapshot: TableSnapshot | None, user_id: int, round_no: int) -> SeatView | None:
    """The player's seat in the service's snapshot, if it is of this round."""
    if snapshot is None or snapshot.round_no != round_no:
        return None
    return next((s for s in snapshot.seats if s.user_id == user_id), None)


def decide(bot: BlackjackBot, snapshot: TableSnapshot, seat: SeatView) -> Action:
    """Basic strategy for the player's current hand (never insurance)."""
    if Action.NO_INSURANCE in seat.legal:
        return Action.NO_INSURANCE
    hand = next(h for h in seat.hands if h.is_current)
    assert snapshot.dealer is not None
    return advise(
        bot.tables.rules_of(snapshot.table_id),
        [Card.parse(c.text) for c in hand.cards],
        Card.parse(snapshot.dealer.cards[0].text),
        seat.legal,
        is_split_hand=len(seat.hands) > seat.spots,
    )


async def play(
    fake: BenchDiscord,
    bot: BlackjackBot,
    tally: Tally,
    member: FakeMember,
    channel: FakeChannel,
    message: FakeMessage,
    rounds: range,
) -> None:
    """One player: bet on each of ``rounds`` as the message opens it, act whenever they may."""
    bet_on = rounds.start - 1  # the round this player last bet on
    while True:
        shown_round, phase = message_state(message)
        if phase == "betting" and shown_round > bet_on:
            if bet_on == rounds.stop - 1:
                return
            reply = await tally.send(
                "bet", fake.slash(member, "bet", channel, amount="10", max_wait=MAX_WAIT)
            )
            assert (reply.content or "").startswith("Bet "), reply.content
            bet_on = shown_round
            continue
        if phase != "betting" and shown_round == bet_on:
            snapshot = bot.tables.table_in(channel.id)
            seat = my_seat(snapshot, member.id, shown_round)
            if snapshot is not None and seat is not None and seat.legal:
                action = BUTTON_OF[decide(bot, snapshot, seat)]
                cid = custom_id(snapshot.table_id, shown_round, action)
                try:
                    press = fake.click(member, message, custom_id=cid, max_wait=MAX_WAIT)
                    reply = await tally.send(action, press)
                except InteractionRejected:
                    tally.kinds["not on the message yet"] += 1
                else:
                    if reply.response_type != 7:
                        tally.kinds[f"refused: {reply.content}"] += 1
                    continue
        try:
            await fake.message_changed(message)
        except AssertionError:
            snap = bot.tables.table_in(channel.id)
            raise AssertionError(
                f"stuck: message shows {message_state(message)}, bet_on {bet_on}, snapshot "
                f"{snap and (snap.round_no, snap.phase, snap.version)}, seat "
                f"{snap and my_seat(snap, member.id, snap.round_no)}, shown "
                f"{snap and bot.table_messages.shown_version(snap.table_id)}"
            ) from None


def seat_players(
    fake: BenchDiscord, guild: FakeGuild, prefix: str, tables: int
) -> list[tuple[FakeChannel, list[FakeMember]]]:
    """``tables`` text channels ``{prefix}-{t}`` in ``guild``, each with its PLAYERS members."""
    return [
        (
            fake.add_text_channel(guild, f"{prefix}-{t}"),
            [fake.add_member(guild, f"p{t}-{p}") for p in range(PLAYERS)],
        )
        for t in range(tables)
    ]


async def open_tables(
    fake: BenchDiscord, bot: BlackjackBot, seats: list[tuple[FakeChannel, list[FakeMember]]]
) -> list[FakeMessage]:
    """Each host opens a table and the other four join; returns the table messages."""

    async def open_one(channel: FakeChannel, members: list[FakeMember]) -> FakeMessage:
        start = await fake.slash(members[0], "blackjack start", channel, max_wait=MAX_WAIT)
        assert start.response_type == 4, start.errors
        assert start.original is not None
        snapshot = bot.tables.table_in(channel.id)
        assert snapshot is not None
        await fake.wait_for(lambda: bot.table_messages.message_of(snapshot.table_id) is not None)
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


# -- the runs --------------------------------------------------------------------------------


@dataclass
class Run:
    """One measured phase."""

    label: str
    tally: Tally
    latency: Latency
    seconds: float
    memory: tuple[int, int] | None = None
    requests: Counter[str] = field(default_factory=Counter)
    profiler: cProfile.Profile | None = None
    gc_line: str = ""
    cpu: tuple[float, float] = (0.0, 0.0)
    #: A table message seen at the end of the blackjack run: (embed, buttons).
    sample: tuple[dict[str, Any], int] | None = None

    @classmethod
    def measured(
        cls,
        label: str,
        tally: Tally,
        latency: Latency,
        measure: Measure,
        memory: tuple[int, int] | None = None,
        profiler: cProfile.Profile | None = None,
    ) -> Run:
        """The phase ``measure`` timed: its seconds, requests, collector pauses and CPU."""
        return cls(
            label,
            tally,
            latency,
            measure.seconds,
            memory,
            measure.requests,
            profiler,
            measure.gc.line(),
            measure.cpu,
        )

    @property
    def rate(self) -> float:
        return self.tally.interactions / self.seconds

    def lines(self, tables: int) -> list[str]:
        """The report of this phase."""
        if not self.tally.interactions:
            return [f"{self.label}: not run"]
        trips = sorted(t * 1000 for t in self.tally.round_trips)
        n = self.tally.interactions
        out = [
            f"{self.label}: {self.tally.interactions} interactions in {self.seconds:.2f} s"
            f" = {self.rate:,.0f} interactions/s",
            f"  bot's own time (gateway frame read -> callback sent): {self.latency.line()}",
            f"  driver round trip (sent -> answer at the fake):      p50 "
            f"{percentile(trips, 0.5):6.2f} ms  p99 {percentile(trips, 0.99):6.2f} ms  "
            f"max {max(trips, default=math.nan):7.2f} ms",
            f"  answers over 3 s: {sum(t > 3000 for t in trips)}",
            f"  by kind: {dict(self.tally.kinds.most_common())}",
            f"  garbage collector: {self.gc_line}",
            f"  CPU per interaction: event loop thread {self.cpu[0] / n * 1000:.2f} ms, "
            f"other threads (the database's) {self.cpu[1] / n * 1000:.2f} ms",
            "  requests the bot made per interaction: "
            + ", ".join(
                f"{route.split(' ', 1)[0]} {short_route(route)} {n / self.tally.interactions:.2f}"
                for route, n in self.requests.most_common()
            ),
        ]
        if self.memory is not None:
            traced, rss = self.memory
            out.append(
                f"  memory per open table (5 seated): {traced / tables / 1024:.1f} KiB traced "
                f"in the bot, {rss / tables / 1024:.1f} KiB RSS (fake included)"
            )
        return out


async def blackjack_run(
    args: argparse.Namespace, database_url: str, paced_rate: float
) -> tuple[Run, Run]:
    """The blackjack bot: open T tables (memory measured), play ``--rounds`` rounds as fast as
    answered, then ``--paced-rounds`` more at ``paced_rate`` interactions a second."""
    tables, rounds = args.tables, args.rounds
    profiler = cProfile.Profile() if args.profile else None
    async with BenchDiscord() as fake:
        guild = fake.add_guild("Load")
        seats = seat_players(fake, guild, "table", tables)
        store = await db.open_store(database_url)
        # Enough chips that no bet is ever refused (a refused bet would stall its table).
        await store.set_guild_settings(guild.id, starting_chips=1_000_000)
        config = Config(token=fake.token, database_url=database_url)
        bot = build_bot(config, clock=fake.clock, store=store)
        latency = Latency()
        latency.install(bot)
        try:
            async with running_bot(fake, bot):
                probe = MemoryProbe()
                probe.start()
                messages = await open_tables(fake, bot, seats)
                memory = probe.stop()
                # The driver's basic-strategy chart is built on first use (about a second):
                # build it now, not in the middle of the measured phase.
                first = bot.tables.table_in(seats[0][0].id)
                assert first is not None
                advise(
                    bot.tables.rules_of(first.table_id),
                    cards("9s Tc"),
                    Card.parse("6h"),
                    [Action.HIT, Action.STAND],
                )

                async def phase(tally: Tally, played: range, profile: bool) -> Measure:
                    with Measure(fake, latency, profiler if profile else None) as measure:
                        await asyncio.gather(
                            *(
                                play(fake, bot, tally, member, channel, message, played)
                                for (channel, members), message in zip(seats, messages, strict=True)
                                for member in members
                            )
                        )
                    return measure

                fast, paced = Tally(), Tally(pacer=Pacer(paced_rate))
                sample: list[tuple[dict[str, Any], int]] = []
                measured = await phase(fast, range(1, rounds + 1), True)
                sample.append((messages[0].embeds[0], len(messages[0].buttons())))
                closed = Run.measured(
                    "blackjack bot", fast, latency.copy(), measured, memory=memory
                )
                end = rounds + 1 + args.paced_rounds
                measured = await phase(paced, range(rounds + 1, end), False)
                label = f"blackjack bot, paced at {paced_rate:,.0f} interactions/s offered"
                open_loop = Run.measured(label, paced, latency.copy(), measured)
        finally:
            await store.close()
    if profiler is not None:
        profiler.dump_stats(args.profile)
    closed.profiler, closed.sample = profiler, sample[0]
    return closed, open_loop


async def floor_run(
    tables: int,
    presses: int,
    profile_into: str | None,
    table: tuple[dict[str, Any], int] | None = None,
) -> Run:
    """The minimal bot under the same driver: ``presses`` presses a player, as fast as answered.

    ``table``: (embed, buttons) of a table message, for the rich floor.
    """
    profiler = cProfile.Profile() if profile_into else None
    async with BenchDiscord() as fake:
        guild = fake.add_guild("Floor")
        seats = seat_players(fake, guild, "floor", tables)
        bot = FloorBot(table)
        latency = Latency()
        latency.install(bot)
        async with running_bot(fake, bot):
            messages = []
            for channel, members in seats:
                posted = await fake.slash(members[0], "floor", channel)
                assert posted.original is not None
                messages.append(posted.original)
            tally = Tally()

            async def player(member: FakeMember, message: FakeMessage) -> None:
                for _ in range(presses):
                    press = fake.click(member, message, custom_id=FLOOR_BUTTON, max_wait=MAX_WAIT)
                    reply = await tally.send("press", press)
                    assert reply.response_type == 7

            with Measure(fake, latency, profiler) as measure:
                await asyncio.gather(
                    *(
                        player(member, message)
                        for (_, members), message in zip(seats, messages, strict=True)
                        for member in members
                    )
                )
            fake.trim_log()
    if profiler is not None and profile_into:
        profiler.dump_stats(profile_into)
    label = "floor (one edit per press)" if table is None else "rich floor (table-sized edits)"
    return Run.measured(label, tally, latency, measure, profiler=profiler)


async def main(args: argparse.Namespace) -> None:
    """Floor first (its rate paces the latency phase), then the blackjack bot."""
    print(f"{args.tables} tables x {PLAYERS} players, {args.rounds} rounds as fast as answered")
    # About as many presses a player as the blackjack rounds take (2.4 interactions a round).
    presses = round(2.4 * args.rounds)
    floor = await floor_run(args.tables, presses, args.profile_floor)
    for line in floor.lines(args.tables):
        print(line)
    paced_rate = args.paced_rate or floor.rate / 2
    with tempfile.TemporaryDirectory(prefix="bench-load-") as folder:
        url = args.database_url or f"sqlite:///{Path(folder) / 'chips.sqlite3'}"
        closed, paced = await blackjack_run(args, url, paced_rate)
    print(f"store: {url.split(':')[0]}")
    for line in closed.lines(args.tables) + paced.lines(args.tables):
        print(line)
    p99 = percentile(sorted(paced.latency.samples), 0.99) * 1000  # nan when not run
    print(
        f"throughput ratio, blackjack / floor: {closed.rate / floor.rate:.2f} (goal >= 0.5); "
        f"blackjack p99 at half the floor's rate: {p99:.1f} ms (goal < 50 ms)"
    )
    if args.rich_floor:
        rich = await floor_run(args.tables, presses, None, closed.sample)
        for line in rich.lines(args.tables):
            print(line)
        print(f"throughput ratio, blackjack / rich floor: {closed.rate / rich.rate:.2f}")
    for run in (floor, closed):
        if run.profiler is not None:
            print(f"{run.label} profile:")
            print("\n".join(profile_summary(run.profiler, args.top)))


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200, help="tables, 5 players each")
    parser.add_argument("--rounds", type=int, default=6, help="rounds as fast as answered")
    parser.add_argument("--paced-rounds", type=int, default=2, help="rounds at the paced rate")
    parser.add_argument(
        "--paced-rate", type=float, default=None, help="default: half the floor's rate"
    )
    parser.add_argument("--database-url", default=None, help="default: SQLite in a temp dir")
    parser.add_argument("--profile", metavar="FILE", help="cProfile the blackjack phase into FILE")
    parser.add_argument("--profile-floor", metavar="FILE", help="cProfile the floor into FILE")
    parser.add_argument(
        "--rich-floor", action="store_true", help="also a floor sending table-sized edits"
    )
    parser.add_argument("--top", type=int, default=30, help="functions listed with --profile")
    return parser.parse_args(argv)


if __name__ == "__main__":
    asyncio.run(main(parse_args()))
