"""Comparisons of ``bench/load.py``: the closed loop alternated inside one bot process
(A B A B, so the machine's drift falls on both sides), with and without the coach
(``--coach-compare``) or on the two layouts (``--layouts``); and one bot process against N
(``--processes N``)."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from load_blackjack import Phases, Stage, blackjack_run, goal_phases
from load_phase import Run
from load_process import database

#: Goals: the coach's cost (issue 41), Components V2 against the embed (issue 43), N
#: processes' CPU per interaction against one's (issue 43).
COACH_GOAL, LAYOUT_GOAL, PROCESSES_GOAL = 1.05, 1.10, 1.1


def verdict(ok: bool) -> str:
    """A goal met or missed, as the summaries print it."""
    return "PASS" if ok else "MISS"


def coach_phases(args: argparse.Namespace) -> Phases:
    """A round to warm up, then ``--pairs`` times: ``--rounds`` without the coach, then as
    many with it (each player asks ``/blackjack coach`` once a round), on the same tables."""

    async def phases(stage: Stage) -> list[Run]:
        await stage.warm_up(range(1, 2))
        runs = []
        for n in range(2 * args.pairs):
            side = "with" if n % 2 else "without"
            played = range(2 + n * args.rounds, 2 + (n + 1) * args.rounds)
            label = f"blackjack bot, {side} the coach ({n // 2 + 1} of {args.pairs})"
            runs.append(await stage.closed(label, played, coach=bool(n % 2)))
        return runs

    return phases


def layout_phases(args: argparse.Namespace) -> Phases:
    """A round to warm up at each group, then ``--pairs`` times: ``--rounds`` at the embed
    layout's tables, then as many at the Components V2 layout's (two groups of
    ``--tables`` in one bot process)."""

    async def phases(stage: Stage) -> list[Run]:
        for group in (0, 1):
            await stage.warm_up(range(1, 2), group=group)
        runs = []
        for n in range(2 * args.pairs):
            group, pair = n % 2, n // 2
            played = range(2 + pair * args.rounds, 2 + (pair + 1) * args.rounds)
            label = f"blackjack bot, {LAYOUTS[group]} layout ({pair + 1} of {args.pairs})"
            runs.append(await stage.closed(label, played, group=group))
        return runs

    return phases


LAYOUTS = ("embed", "components")


def pooled(runs: list[Run], cpu: Callable[[Run], float], count: Callable[[Run], int]) -> float:
    """CPU seconds per counted interaction over several runs, in milliseconds."""
    return sum(map(cpu, runs)) / max(1, sum(map(count, runs))) * 1000


def coach_lines(runs: list[Run]) -> list[str]:
    """Each sub-phase's CPU per interaction, the coach's calls counted and not, the grading
    worker's CPU a round; the ratios with / without."""
    out = ["the coach's cost (issue 41), closed loop alternated in one bot process:"]
    for run in runs:
        calls = run.tally.kinds["coach"]
        grading = _grading(run) / max(1, run.rounds) * 1000
        out.append(
            f"  {run.label}: {run.cpu_ms:.2f} ms an interaction ({run.tally.interactions},"
            f" {calls} of them /blackjack coach), {_play_cpu(run):.2f} ms per play"
            f" ({run.tally.interactions - calls}); grading worker {grading:.2f} ms a round"
            f" ({run.rounds} rounds)"
        )
    off, on = runs[0::2], runs[1::2]
    every = pooled(on, _cpu, _all) / pooled(off, _cpu, _all)
    plays = pooled(on, _cpu, _plays) / pooled(off, _cpu, _plays)
    graded = pooled(on, _cpu_and_grading, _all) / pooled(off, _cpu_and_grading, _all)
    pairs = ", ".join(f"{b.cpu_ms / a.cpu_ms:.3f}" for a, b in zip(off, on, strict=True))
    return [
        *out,
        f"  {verdict(every <= COACH_GOAL)}  CPU per interaction, with / without the coach,"
        f" its calls counted as interactions: {every:.3f} (each pair {pairs};"
        f" goal <= {COACH_GOAL})",
        f"  {verdict(plays <= COACH_GOAL)}  the same per play (its calls not counted): {plays:.3f}",
        f"  with the grading worker's CPU added to the bot's: {graded:.3f}",
    ]


def layout_lines(runs: list[Run]) -> list[str]:
    """Each sub-phase's CPU per interaction and rate; the ratio components / embed."""
    out = ["the layouts (issue 43), closed loop alternated in one bot process:"]
    out += [
        f"  {run.label}: {run.cpu_ms:.2f} ms an interaction, {run.rate:,.0f} interactions/s"
        for run in runs
    ]
    embed, components = runs[0::2], runs[1::2]
    ratio = pooled(components, _cpu, _all) / pooled(embed, _cpu, _all)
    pairs = ", ".join(f"{b.cpu_ms / a.cpu_ms:.3f}" for a, b in zip(embed, components, strict=True))
    out.append(
        f"  {verdict(ratio <= LAYOUT_GOAL)}  CPU per interaction, components / embed:"
        f" {ratio:.3f} (each pair {pairs}; goal <= {LAYOUT_GOAL})"
    )
    return out


def _cpu(run: Run) -> float:
    return sum(run.cpu)


def _grading(run: Run) -> float:
    return sum(s for kind, s in run.children.items() if "grading" in kind)


def _cpu_and_grading(run: Run) -> float:
    return sum(run.cpu) + _grading(run)


def _all(run: Run) -> int:
    return run.tally.interactions


def _plays(run: Run) -> int:
    return run.tally.interactions - run.tally.kinds["coach"]


def _play_cpu(run: Run) -> float:
    return sum(run.cpu) / max(1, _plays(run)) * 1000


async def scale_out(args: argparse.Namespace) -> None:
    """One process, then ``--processes`` shard processes on one PostgreSQL server, closed loop."""
    rates, cpu = [], []
    for processes in (1, args.processes):
        with database(args, f"scale{processes}") as url:
            no_more = argparse.Namespace(**{**vars(args), "paced_rounds": 0, "overload_rounds": 0})
            runs = await blackjack_run(no_more, url, goal_phases(0.0), processes=processes)
        closed = runs[0]
        print("\n".join(closed.lines(args.tables)), flush=True)
        rates.append(closed.rate)
        cpu.append(sum(closed.cpu) / max(closed.tally.interactions, 1))  # all bot processes
    n = args.processes
    print(f"throughput, {n} processes / 1: {rates[1] / rates[0]:.2f} (goal >= 1.8)")
    # Where the machine has fewer free cores than bot processes (the fake, the driver and
    # PostgreSQL share them), the measured ratio shows the machine. The bots' own CPU per
    # interaction shows what N processes with a core each would give: N times one, less
    # what sharding costs each click (PostgreSQL contention, shard routing).
    ratio = cpu[1] / cpu[0]
    print(
        f"{verdict(ratio <= PROCESSES_GOAL)}  bot CPU per interaction (event loop + other"
        f" threads, every process), 1 process {cpu[0] * 1000:.2f} ms, {n} processes"
        f" {cpu[1] * 1000:.2f} ms: {n} / 1 = {ratio:.2f} (goal <= {PROCESSES_GOAL});"
        f" with a core each, {n} processes' throughput / 1's would be {n / ratio:.2f}"
    )
