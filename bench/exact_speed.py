"""Seconds to work out a chart and edge from nothing, per rule set, side by side.

    .venv/bin/python bench/exact_speed.py [--repeat R] [--compare-recursion]
    .venv/bin/python bench/exact_speed.py --compiled      # and on the mypyc build
    .venv/bin/python bench/exact_speed.py --against DIR   # and on the engine in DIR/bot
    .venv/bin/python bench/exact_speed.py --loop-stall ["2D H17" ...]   # the event loop

For each rule set: the chart (``chart_for``) and the house edge of a fresh shoe
(``house_edge``), every cache emptied first, so the figure is what a table's first
Hint waits for in the worker; wall-clock seconds and the process's CPU seconds.
``--compare-recursion`` also times the same work with the dealer's odds from
``final_odds`` (one recursion per shoe) instead of the dealer graph, in the same run,
for the ratio. ``--compiled`` builds the engine with setup.py's mypyc hook (as
bench/engine_vs_py21.py does, into a temporary folder) and times every rule set in
two child processes, pure then compiled, alternating. ``--against DIR`` does the
same with the ``bot`` package in DIR instead of a compiled one (an older commit's:
``git archive c256198 bot | tar -x -C DIR``), with the CPU ratio. ``--loop-stall`` works out a
chart and edge (1D S17 unless named) in the bot's strategy worker (``bot.tables.advice``)
while the event loop ticks every 5 ms, once with the work in the worker's thread and
once in its worker process (``bot.strategy_process``), and prints the longest a tick
came late each time, beside the same ticks with the loop idle.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bot.engine import BUILD, Rules
from bot.engine.analysis import chart_for, exact, exact_play, house_edge, strategy
from bot.engine.analysis.dealer_odds import final_odds

RULE_SETS = {
    "1D S17": Rules(decks=1, penetration=0),
    "1D H17": Rules(decks=1, penetration=0, dealer_hits_soft_17=True),
    "2D S17": Rules(decks=2, penetration=0),
    "2D H17": Rules(decks=2, penetration=0, dealer_hits_soft_17=True),
    "6D S17": Rules(decks=6, penetration=0),
    "8D H17": Rules(decks=8, penetration=0, dealer_hits_soft_17=True),
}
TICK = 0.005
ROOT = Path(__file__).resolve().parent.parent


def _empty_caches() -> None:
    exact_play.dealer_table.cache_clear()
    strategy.chart_for.cache_clear()
    strategy._chart_for_key.cache_clear()


def _recursion_stand(self: exact.DealerTable, key: int, left: list[int], total: int) -> float:
    from bot.engine.analysis.dealer_graph import (
        stand_class,
        worth,
    )  # (not in older engines: --against)

    memo = self._memo[stand_class(total)]
    found = memo.get(key)
    if found is None:
        odds = final_odds(self.up, left, self.rules, after_peek=self.peeked)
        cls = stand_class(total)
        found = memo[key] = sum(worth(cls, outcome) * p for outcome, p in enumerate(odds))
    return found


def seconds(rules: Rules) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, edge %) of a chart and edge from empty caches."""
    _empty_caches()
    start, cpu = time.perf_counter(), time.process_time()
    chart_for(rules)
    edge = house_edge(rules).house_edge_pct
    return time.perf_counter() - start, time.process_time() - cpu, edge


def _child(name: str, site: Path | None) -> dict[str, object]:
    """One rule set timed in a fresh process, on the engine in ``site`` if given."""
    env = dict(os.environ)
    if site is not None:
        env["PYTHONPATH"] = str(site)
    command = [sys.executable, __file__, "--only", name]
    out = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    result: dict[str, object] = json.loads(out.stdout)
    return result


def side_by_side(site: Path, label: str, repeat: int) -> None:
    """Every rule set in two child processes, this engine then the one in ``site``."""
    for name in RULE_SETS:
        for _ in range(repeat):
            ours, other = _child(name, None), _child(name, site)
            # The same engine (compiled) agrees to 1e-9; an older one may not (its edge shown).
            moved = float(str(ours["edge"])) - float(str(other["edge"]))
            if label == "compiled":
                assert abs(moved) < 1e-9, f"{name}: the compiled edge differs by {moved}"
            ratio = float(str(ours["cpu"])) / float(str(other["cpu"]))
            print(
                f"{name}: this engine {ours['seconds']:6.2f} s (CPU {ours['cpu']:5.2f} s), "
                f"{label} ({other['build']}) {other['seconds']:6.2f} s "
                f"(CPU {other['cpu']:5.2f} s); CPU this / {label} {ratio:.2f}"
                + ("" if abs(moved) < 1e-9 else f"; edge {moved:+.6f} points from {label}'s"),
                flush=True,
            )


def compiled(repeat: int) -> None:
    sys.path.insert(0, str(Path(__file__).parent))
    from engine_vs_py21 import build_compiled

    with tempfile.TemporaryDirectory(prefix="bj-exact-") as tmp:
        side_by_side(build_compiled(Path(tmp)), "compiled", repeat)


async def _longest_late(stop: Callable[[], bool]) -> float:
    """The longest a 5 ms tick of the event loop came late, until ``stop()``."""
    loop = asyncio.get_running_loop()
    worst = 0.0
    while not stop():
        start = loop.time()
        await asyncio.sleep(TICK)
        worst = max(worst, loop.time() - start - TICK)
    return worst


async def loop_stall(rules: Rules) -> None:
    """The loop's longest late tick while the bot's strategy worker works out ``rules``
    in its thread, then in a child process, then with nothing to do."""
    sys.path.insert(0, str(ROOT))  # the project's db package, not bench/db.py
    from bot.strategy_process import StrategyPool
    from bot.tables.advice import Advice

    loop = asyncio.get_running_loop()
    name = f"{rules.decks}D {'H17' if rules.dealer_hits_soft_17 else 'S17'}"
    took = 0.0
    for where, worker in (("worker thread", None), ("child process", StrategyPool())):
        _empty_caches()
        advice = Advice(None, worker=worker)
        start = loop.time()
        advice.warm(rules)
        done = asyncio.ensure_future(advice.settle())
        late = await _longest_late(done.done)
        took = max(took, loop.time() - start)
        advice.close()
        print(
            f"{name} in the {where} ({loop.time() - start:.2f} s): longest tick late "
            f"{late * 1000:.1f} ms",
            flush=True,
        )
    end = loop.time() + took
    idle = await _longest_late(lambda: loop.time() >= end)
    print(f"idle loop for {took:.2f} s: longest tick late {idle * 1000:.1f} ms", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--compare-recursion", action="store_true")
    parser.add_argument("--compiled", action="store_true")
    parser.add_argument("--against", type=Path, metavar="DIR")
    parser.add_argument("--loop-stall", nargs="*", choices=RULE_SETS, metavar="RULES")
    parser.add_argument("--only", choices=RULE_SETS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.only:
        took, cpu, edge = seconds(RULE_SETS[args.only])
        print(json.dumps({"seconds": took, "cpu": cpu, "edge": edge, "build": BUILD}))
        return
    if args.loop_stall is not None:
        for name in args.loop_stall or ["1D S17"]:
            asyncio.run(loop_stall(RULE_SETS[name]))
        return
    if args.compiled:
        compiled(args.repeat)
        return
    if args.against:
        side_by_side(args.against, "against", args.repeat)
        return
    graph_stand = exact.DealerTable.stand
    for name, rules in RULE_SETS.items():
        for _ in range(args.repeat):
            took, cpu, edge = seconds(rules)
            line = f"{name}: {took:6.2f} s (CPU {cpu:5.2f} s)  edge {edge:+.4f}%"
            if args.compare_recursion and rules.decks <= exact_play.EXACT_MAX_DECKS:
                exact.DealerTable.stand = _recursion_stand  # type: ignore[method-assign]
                try:
                    slow, _, _ = seconds(rules)
                finally:
                    exact.DealerTable.stand = graph_stand  # type: ignore[method-assign]
                line += f"  (recursion {slow:6.2f} s, graph/recursion {took / slow:.2f})"
            print(line, flush=True)


if __name__ == "__main__":
    main()
