"""The summary at the end of ``bench/load.py``: each phase's CPU per interaction as a ratio
to the table-sized floor's (which runs last), issue 43's goals with their figures, and the
budget table by section (``BENCH_SECTIONS``)."""

from __future__ import annotations

import argparse
import math
import os
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import sections
from load_compare import verdict
from load_kit import percentile
from load_phase import Run

#: Issue 43's goals: CPU per interaction against the table-sized floor's; throughput
#: against the floor's and the table-sized floor's; the bot's own time p99 at half the
#: floor's rate (ms); requests per interaction (every phase); database transactions per
#: interaction (closed loop and overload, paced).
CPU_GOAL, FLOOR_GOAL, RICH_GOAL, P99_GOAL_MS = 1.4, 0.5, 0.7, 50.0
REQUESTS_GOAL, TRANSACTIONS_GOAL, PACED_TRANSACTIONS_GOAL = 1.05, 0.3, 0.5


def cpu_lines(runs: list[Run], rich: Run) -> list[str]:
    """Each phase's CPU per interaction (event loop + other threads) and its ratio to the
    table-sized floor's, measured in the same run."""
    out = [
        "CPU per interaction (bot's event loop + other threads) against the table-sized"
        f" floor's {rich.cpu_ms:.2f} ms:"
    ]
    for run in runs:
        label = run.label.split(":", 1)[0]
        workers = sum(run.children.values()) / max(1, run.tally.interactions) * 1000
        out.append(
            f"  {label}: {run.cpu_ms:.2f} ms = {run.cpu_ms / rich.cpu_ms:.2f}x"
            + (f" (and {workers:.2f} ms in the bot's worker processes)" if run.children else "")
        )
    return out


def goal_lines(args: argparse.Namespace, floor: Run, blackjack: list[Run], rich: Run) -> list[str]:
    """Issue 43's goals, each with this run's figure and PASS or MISS (n/a where the run's
    options leave the goal unmeasured, ---- where its phase did not run)."""
    closed = blackjack[0]
    later = iter(blackjack[1:])
    paced = next(later) if args.paced_rounds else None
    overload = next(later) if args.overload_rounds else None
    ratio = rich.cpu_ms
    out = ["issue 43's goals in this run:"]
    if args.in_process:
        out.append("  n/a   CPU per interaction: in-process, it holds the fake's and the driver's")
    else:
        out.append(_goal("CPU per interaction, closed loop", closed.cpu_ms / ratio, CPU_GOAL, "x"))
        out.append(_goal("CPU per interaction, paced", _cpu(paced) / ratio, CPU_GOAL, "x"))
    if args.floor_rate:
        out.append("  n/a   throughput: the floors were paced (--floor-rate)")
    else:
        out.append(_at_least("throughput / floor", closed.rate / floor.rate, FLOOR_GOAL))
        out.append(_at_least("throughput / table-sized floor", closed.rate / rich.rate, RICH_GOAL))
    out.append(_p99(args, paced, floor))
    if overload is None:
        out.append("  ----  answers over 3 s at twice capacity: phase not run")
    else:
        late = overload.late
        out.append(f"  {verdict(late == 0)}  answers over 3 s at twice capacity: {late} (goal 0)")
    out.append(_current(paced, overload))
    out.append(
        _each("REST requests per interaction", blackjack, lambda r: r.requests, REQUESTS_GOAL)
    )
    out.append(
        _each(
            "database transactions per interaction",
            blackjack,
            lambda r: r.transactions,
            TRANSACTIONS_GOAL,
            {id(paced): PACED_TRANSACTIONS_GOAL},
        )
    )
    return out


def _cpu(run: Run | None) -> float:
    return math.nan if run is None else run.cpu_ms


def _goal(what: str, figure: float, most: float, unit: str) -> str:
    if math.isnan(figure):
        return f"  ----  {what}: phase not run"
    return f"  {verdict(figure <= most)}  {what}: {figure:.2f}{unit} (goal <= {most}{unit})"


def _at_least(what: str, figure: float, least: float) -> str:
    return f"  {verdict(figure >= least)}  {what}: {figure:.2f} (goal >= {least})"


def _p99(args: argparse.Namespace, paced: Run | None, floor: Run) -> str:
    what = "bot's own time p99, paced"
    if paced is None:
        return f"  ----  {what}: phase not run"
    p99 = percentile(sorted(paced.latency), 0.99) * 1000
    figure = f"{what}: {p99:.1f} ms (goal < {P99_GOAL_MS:g} ms"
    if args.paced_rate or args.floor_rate:
        return f"  n/a   {figure} at half the floor's rate, {floor.rate / 2:,.0f}/s)"
    return f"  {verdict(p99 < P99_GOAL_MS)}  {figure})"


def _current(paced: Run | None, overload: Run | None) -> str:
    checked = [
        (name, run.current)
        for name, run in (("paced", paced), ("overload", overload))
        if run is not None and run.current is not None
    ]
    if not checked:
        return "  ----  tables showing their newest state: no phase checked them"
    ok = all(current[0] == current[1] for _, current in checked)
    figures = ", ".join(f"{name} {c[0]} of {c[1]}" for name, c in checked)
    return f"  {verdict(ok)}  tables showing their newest state: {figures}"


def _each(
    what: str,
    runs: list[Run],
    counts: Callable[[Run], Counter[str]],
    most: float,
    other: dict[int, float] | None = None,
) -> str:
    """A per-interaction count's goal in every blackjack phase (``other``: a phase's own
    goal, by the run's id)."""
    figures, ok = [], True
    for run, name in zip(runs, _names(runs), strict=True):
        goal = (other or {}).get(id(run), most)
        figure = run.per_interaction(counts(run))
        ok = ok and figure <= goal
        figures.append(f"{name} {figure:.2f} (<= {goal})")
    return f"  {verdict(ok)}  {what}: {', '.join(figures)}"


def _names(runs: list[Run]) -> list[str]:
    """Each blackjack phase's short name: closed loop, paced, overload."""
    return [
        "closed loop" if n == 0 else "overload" if "overload" in run.label else "paced"
        for n, run in enumerate(runs)
    ]


def sections_offset() -> int:
    """``BENCH_SECTIONS``: where this run's phases will begin in its file (it is appended to)."""
    path = os.environ.get("BENCH_SECTIONS")
    return Path(path).stat().st_size if path and Path(path).exists() else 0


def budget_lines(runs: list[Run], rich: Run, offset: int) -> list[str]:
    """``BENCH_SECTIONS``: each blackjack phase's CPU by section, beside the table-sized
    floor's CPU an interaction (the budget: ``CPU_GOAL`` times it)."""
    path = os.environ.get("BENCH_SECTIONS")
    if not path:
        return []
    phases = sections.read(path, offset)
    floor_us = rich.cpu_ms * 1000
    out = [
        f"CPU by section ({path}), per interaction; the table-sized floor's {floor_us:.0f} us"
        f" (loop + other threads), the budget {CPU_GOAL}x it: {CPU_GOAL * floor_us:.0f} us"
    ]
    if len(phases) != len(runs):
        return [*out, f"  {len(phases)} phases recorded for {len(runs)} run: not shown"]
    for run, phase in zip(runs, phases, strict=True):
        title = f"{run.label.split(':', 1)[0]} (loop + other threads {run.cpu_ms * 1000:.0f} us)"
        out += sections.phase_lines(phase, title, floor_us)
    return out
