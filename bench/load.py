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
import cProfile
import math
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

from load_floor import FLOOR_BUTTON  # noqa: E402
from load_kit import (  # noqa: E402
    BenchDiscord,
    Pacer,
    percentile,
    profile_summary,
)
from load_phase import Run, consistency, measured  # noqa: E402
from load_player import MAX_WAIT, PLAYERS, Player, Tally, open_tables, seat_players  # noqa: E402
from load_process import BotUnderTest, bot_under_test, database, pin_harness  # noqa: E402
from table_reading import RULES, shown_embed, without_pictures  # noqa: E402

import db  # noqa: E402
from bot.engine import Action, Card  # noqa: E402
from bot.engine.analysis import advise  # noqa: E402
from fakediscord.models import FakeChannel, FakeGuild, FakeMember  # noqa: E402
from fakediscord.records import FakeMessage  # noqa: E402
from tests.db.invariants import check_invariants  # noqa: E402

#: Guild settings for the bench: no bet is ever refused for chips, and no timer fires
#: while a round waits for a busy bot (players do everything).
BENCH_SETTINGS = {
    "starting_chips": 1_000_000,
    "bet_timer_s": 3600,
    "action_timer_s": 3600,
    "idle_close_s": 86_400,
}
Seats = list[tuple[FakeChannel, list[FakeMember]]]
Players = Callable[[Tally, range], list[Awaitable[None]]]


async def blackjack_run(
    args: argparse.Namespace, database_url: str, paced_rate: float, processes: int = 1
) -> list[Run]:
    """The blackjack bot: open T tables (memory measured), play ``--rounds`` rounds as fast as
    answered, ``--paced-rounds`` more at ``paced_rate`` a second, ``--overload-rounds`` at
    twice the closed loop's rate."""
    profiler = cProfile.Profile() if args.profile else None
    async with BenchDiscord(recommended_shards=processes) as fake:
        guilds = [
            fake.add_guild(f"Load {n}", shard=n, of=processes)
            if processes > 1
            else fake.add_guild("Load")
            for n in range(processes)
        ]
        seats = seat_players(fake, guilds, "table", args.tables)
        await _bench_settings(database_url, guilds, args.layout)
        async with bot_under_test(
            fake,
            "blackjack",
            args,
            database_url=database_url,
            processes=processes,
            profiler=profiler,
        ) as under_test:
            runs = await _blackjack_phases(args, fake, under_test, seats, paced_rate)
    if profiler is not None:
        profiler.dump_stats(args.profile)
        runs[0].notes += profile_summary(profiler, args.top)
    await check_invariants(database_url)
    runs[0].notes.append("chips: every balance is its ledger, no bet or payout twice (checked)")
    return runs


async def _bench_settings(database_url: str, guilds: list[FakeGuild], layout: str) -> None:
    store = await db.open_store(database_url)
    try:
        for guild in guilds:
            await store.set_guild_settings(guild.id, **BENCH_SETTINGS, layout=layout)
    finally:
        await store.close()


async def _blackjack_phases(
    args: argparse.Namespace,
    fake: BenchDiscord,
    under_test: BotUnderTest,
    seats: Seats,
    paced_rate: float,
) -> list[Run]:
    """Open the tables, then the closed loop and the paced and overloaded phases."""
    await under_test.command("memory-start")
    messages = await open_tables(fake, seats)
    memory = await under_test.command("memory-stop")
    # The basic-strategy chart is built on first use (about a second): not mid-phase.
    advise(
        RULES, [Card.parse("9s"), Card.parse("Tc")], Card.parse("6h"), [Action.HIT, Action.STAND]
    )

    def players(tally: Tally, played: range) -> list[Awaitable[None]]:
        return [
            Player(fake, tally, member, message, played, args.coach).run()
            for (_, members), message in zip(seats, messages, strict=True)
            for member in members
        ]

    where = f", {under_test.processes} processes" if under_test.processes > 1 else ""
    fast = Tally()
    closed = await measured(
        f"blackjack bot{where}", fake, under_test, fast, players(fast, range(1, args.rounds + 1))
    )
    closed.memory = (memory["traced"], memory["rss"])
    closed.sample = (without_pictures(shown_embed(messages[0])), len(messages[0].buttons()))
    later = await _paced_phases(
        args, fake, under_test, messages, players, (paced_rate, closed.rate)
    )
    return [closed, *later]


async def _paced_phases(
    args: argparse.Namespace,
    fake: BenchDiscord,
    under_test: BotUnderTest,
    messages: list[FakeMessage],
    players: Players,
    rates: tuple[float, float],
) -> list[Run]:
    """``--paced-rounds`` at the paced rate, then ``--overload-rounds`` at twice the closed
    loop's (``rates``: the paced rate, the closed loop's), each checked for consistency."""
    paced_rate, closed_rate = rates
    runs, start = [], args.rounds + 1
    for phase_rounds, rate, label in (
        (args.paced_rounds, paced_rate, "paced at {:,.0f} interactions/s offered"),
        (args.overload_rounds, 2 * closed_rate, "overload: {:,.0f}/s offered (2x)"),
    ):
        if not phase_rounds:
            continue
        tally = Tally(pacer=Pacer(rate))
        played = range(start, start + phase_rounds)
        run = await measured(
            f"blackjack bot, {label.format(rate)}", fake, under_test, tally, players(tally, played)
        )
        run.notes.append(await consistency(under_test, messages))
        runs.append(run)
        start += phase_rounds
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
