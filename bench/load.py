"""Load and latency: T blackjack tables of 5 players through the fake Discord, against two floors.

    .venv/bin/python bench/load.py [--tables 200] [--rounds 6] [--paced-rounds 2]
        [--paced-rate N] [--overload-rounds 2] [--database-url URL] [--processes N]
        [--in-process] [--profile FILE] [--profile-floor FILE] [--coach] [--bet-again]
        [--coach-compare | --layouts] [--pairs 2]

The fake Discord (aiohttp server and gateway) and the driver run in this process; the
bot under test runs in a process of its own (``bench/load_bot.py``), so the throughput
and CPU per interaction are the bot's own. ``--in-process`` runs the bot in this
process and event loop instead, for ``--profile``.

1. The floor: a minimal bot whose one button is answered with one type-7 edit
   (``"Presses: n"``) and nothing else, pressed by the same 5 players a table, each
   pressing again as soon as answered: the throughput discord.py allows.
2. The blackjack bot, closed loop: every player acts as soon as the table lets them
   (``/bet``, then each decision by basic strategy, No insurance when asked, read from
   the table message as a player would) for ``--rounds`` rounds: its throughput. With
   ``--bet-again`` a player bets by the table's Bet again button wherever it is offered.
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

The summary at the end (``bench/load_summary.py``) gives each phase's CPU per interaction
(the bot's event loop thread and its other threads) as a ratio to the rich floor's, issue
43's goals each with its figure and PASS or MISS, and with ``BENCH_SECTIONS`` set, the
CPU by section of each blackjack phase beside the rich floor's (``bench/sections.py``).
``--coach-compare`` and ``--layouts`` replace steps 2-4 with the closed loop alternated in
one bot process (``bench/load_compare.py``): without and with the coach, or at embed and
at Components V2 tables, ``--pairs`` times, and print the ratio.

The bot's own time is measured inside the bot: from discord.py beginning to read
the gateway frame that carries INTERACTION_CREATE, to aiohttp having sent the
headers of the bot's callback request. The fake's ManualClock is never advanced, so
its 3 s window cannot close; the real times measured here are checked against 3 s.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

from load_blackjack import Phases, blackjack_run, goal_phases  # noqa: E402
from load_compare import (  # noqa: E402
    coach_lines,
    coach_phases,
    layout_lines,
    layout_phases,
    scale_out,
)
from load_floor import FLOOR_BUTTON  # noqa: E402
from load_kit import BenchDiscord, Pacer, profile_summary  # noqa: E402
from load_phase import Run, measured  # noqa: E402
from load_player import MAX_WAIT, PLAYERS, Tally, seat_players  # noqa: E402
from load_process import bot_under_test, database, pin_harness  # noqa: E402
from load_summary import budget_lines, cpu_lines, goal_lines, sections_offset  # noqa: E402

from fakediscord.models import FakeMember  # noqa: E402
from fakediscord.records import FakeMessage  # noqa: E402


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
    """Floor first (its rate paces the latency phase), then the blackjack bot, the rich
    floor, and the summary: each phase against the rich floor, the goals, the budget."""
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
    offset = sections_offset()
    floor = await floor_run(args, presses)
    print("\n".join(floor.lines(args.tables)), flush=True)
    paced_rate = args.paced_rate or args.floor_rate or floor.rate / 2
    phases, layouts = _phases(args, paced_rate)
    with database(args, "load") as url:
        runs = await blackjack_run(args, url, phases, layouts=layouts)
    print(f"store: {url.split(':')[0]}")
    for run in runs:
        print("\n".join(run.lines(args.tables)), flush=True)
    rich = await floor_run(args, presses, runs[0].sample)
    print("\n".join(rich.lines(args.tables)))
    print("\n".join(summary(args, floor, runs, rich, offset)))


def _phases(args: argparse.Namespace, paced_rate: float) -> tuple[Phases, tuple[str, ...]]:
    """What the blackjack bot plays, and the layouts of its groups of tables."""
    if args.coach_compare:
        return coach_phases(args), ()
    if args.layouts:
        return layout_phases(args), ("embed", "components")
    return goal_phases(paced_rate), ()


def summary(
    args: argparse.Namespace, floor: Run, runs: list[Run], rich: Run, offset: int
) -> list[str]:
    """The lines printed once the table-sized floor's figures are known."""
    out = ["", "summary"]
    if args.in_process:
        out.append("in-process: the CPU figures hold the fake's and the driver's, no ratios")
    else:
        out += cpu_lines([floor, *runs, rich], rich)
    if args.coach_compare:
        out += coach_lines(runs)
    elif args.layouts:
        out += layout_lines(runs)
    else:
        out += goal_lines(args, floor, runs, rich)
    return [*out, *budget_lines(runs, rich, offset), "done"]


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
        "--bet-again",
        action="store_true",
        help="players bet by the table's Bet again button where offered, /bet otherwise",
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
    compare = parser.add_mutually_exclusive_group()
    compare.add_argument(
        "--coach-compare",
        action="store_true",
        help="the closed loop without and with the coach, alternated in one bot process",
    )
    compare.add_argument(
        "--layouts",
        action="store_true",
        help="the closed loop at embed and at components tables, alternated in one bot process",
    )
    parser.add_argument(
        "--pairs", type=int, default=2, help="--coach-compare, --layouts: A B pairs (2: A B A B)"
    )
    args = parser.parse_args(argv)
    if (args.coach_compare or args.layouts) and (args.processes > 1 or args.coach):
        parser.error("--coach-compare and --layouts compare in one process, the coach per phase")
    if args.pairs < 1:
        parser.error("--pairs: at least 1")
    if (args.profile or args.profile_floor) and not args.in_process:
        parser.error("--profile needs --in-process (the profiler runs in this process)")
    if args.pin and args.in_process:
        parser.error("--pin puts the bot in a process of its own: not with --in-process")
    return args


if __name__ == "__main__":
    asyncio.run(main(parse_args()))
