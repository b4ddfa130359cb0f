"""``python -m bot simulate``: play rounds of basic strategy through the Round, measure the edge.

Each worker process plays its share of the rounds with its own seed derived
from the run's seed (``bot.engine.analysis.simulate.worker_seed``), so the same seed and
worker count give the same result. The first line of the result is printed as the
run starts; progress goes to stderr: a bar on a terminal once a run has taken a second,
elsewhere a line every 10 seconds (bot/cli/progress.py). Killed (SIGTERM),
the run stops its workers; killed outright (SIGKILL), its workers see their parent gone
at their next progress report and stop themselves.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import queue
import secrets
import signal
import sys
import time
from collections.abc import Callable, Sequence
from multiprocessing.context import ForkContext, SpawnContext
from multiprocessing.process import BaseProcess
from typing import Any

from bot.cli.progress import progress_for
from bot.cli.rule_flags import add_rule_flags, rules_or_exit
from bot.cli.seed_flag import add_seed_flag
from bot.engine import (
    BUILD,
    PRESETS,
    SEED_BYTES,
    SIDE_BETS,
    PayTable,
    Rules,
    default_pay_table,
    parse_pay_table,
)
from bot.engine.analysis import (
    Tally,
    lookup_for,
    play_worker,
    side_bet_edge,
    split_rounds,
    stake_for,
)

MAX_WORKERS = 64
#: Exit status after Ctrl-C (128 + SIGINT, as shells report it), and after SIGTERM.
INTERRUPTED = 130
TERMINATED = 128 + signal.SIGTERM


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_rule_flags(parser)
    parser.add_argument(
        "--hands", type=int, required=True, metavar="N", help="rounds to play (one hand each)"
    )
    add_seed_flag(
        parser, "the run's seed, to repeat a run (default: a random one, printed with the result)"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="W",
        help="processes to split the rounds over; each worker deals its own shoes, so a seed "
        "repeats its result only with the same number of workers",
    )
    parser.add_argument(
        "--side-bets",
        action="store_true",
        help="also stake each side bet (each at its first known "
        "pay table) every round, and measure their edges beside the exact ones",
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")


def run(args: argparse.Namespace) -> int:
    rules = rules_or_exit(args)
    if args.hands < 1:
        return _error(f"--hands must be at least 1, not {args.hands}")
    if not 1 <= args.workers <= MAX_WORKERS:
        return _error(f"--workers must be 1 to {MAX_WORKERS}, not {args.workers}")
    seed: bytes = args.seed if args.seed is not None else secrets.token_bytes(SEED_BYTES)
    seed_hex = seed.hex()

    if not args.json:
        # Say what runs before it runs: a long run is not a silent one.
        print(_heading(args.hands, args.preset, rules), flush=True)
    lookup_for(rules)  # build the chart before the clock starts (and before workers fork)
    bar = progress_for(args.hands, sys.stderr)
    played = [0]

    def progress(done: int) -> None:
        played[0] = done
        bar.update(done)

    start = time.perf_counter()
    signal.signal(signal.SIGTERM, _exit_terminated)
    side_bets = tuple(default_pay_table(bet) for bet in SIDE_BETS) if args.side_bets else ()
    try:
        tally = simulate(rules, args.hands, seed, args.workers, progress, side_bets)
    except KeyboardInterrupt:
        bar.close()
        print(
            f"Stopped (Ctrl-C) after about {played[0]:,} of {args.hands:,} rounds: "
            f"no result. The seed was {seed_hex}.",
            file=sys.stderr,
        )
        return INTERRUPTED
    seconds = time.perf_counter() - start
    bar.close()
    result = _result(rules, args, tally, seed_hex, seconds)
    if args.json:
        print(json.dumps(result))
    else:
        print(_text(result))
    return 0


def _exit_terminated(signum: int, frame: object) -> None:
    """SIGTERM (``kill PID``): unwind, so ``simulate`` stops its workers on the way out."""
    raise SystemExit(TERMINATED)


def simulate(
    rules: Rules,
    rounds: int,
    seed: bytes,
    workers: int,
    progress: Callable[[int], None] | None = None,
    side_bets: tuple[PayTable, ...] = (),
) -> Tally:
    """Play ``rounds`` rounds split over ``workers`` processes (in this one when 1)."""
    shares = split_rounds(rounds, workers)
    if workers == 1:
        return play_worker(rules, rounds, seed, 0, progress=progress, side_bets=side_bets)
    # fork: the workers inherit the chart built above instead of building it again.
    context: ForkContext | SpawnContext
    if "fork" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("fork")
    else:
        context = multiprocessing.get_context("spawn")
    messages: multiprocessing.Queue[tuple[str, int, Any]] = context.Queue()
    processes = [
        context.Process(
            target=_worker,
            args=(rules.to_dict(), share, seed, index, messages, os.getpid(), side_bets),
            daemon=True,
        )
        for index, share in enumerate(shares)
    ]
    try:
        _start_deaf_to_ctrl_c(processes)
        tallies = _collect(messages, processes, progress)
    except BaseException:  # Ctrl-C, SIGTERM's SystemExit, a worker's failure
        for process in processes:
            if process.pid is not None:
                process.terminate()
        raise
    finally:
        for process in processes:
            if process.pid is None:
                continue  # never started
            process.join(timeout=5)
            if process.is_alive():
                process.terminate()
    total = tallies[0]
    for index in range(1, workers):
        total = total.merge(tallies[index])
    return total


def _collect(
    messages: multiprocessing.Queue[tuple[str, int, Any]],
    processes: Sequence[BaseProcess],
    progress: Callable[[int], None] | None,
) -> dict[int, Tally]:
    """Each worker's tally, by index, as they send them; their progress told on the way."""
    done = [0] * len(processes)
    tallies: dict[int, Tally] = {}
    while len(tallies) < len(processes):
        try:
            kind, index, payload = messages.get(timeout=0.5)
        except queue.Empty:
            _check_alive(processes, tallies)
            continue
        if kind == "progress":
            done[index] = payload
            if progress is not None:
                progress(sum(done))
        elif kind == "error":
            raise RuntimeError(f"simulation worker {index} failed: {payload}")
        else:
            tallies[index] = payload
    return tallies


def _start_deaf_to_ctrl_c(processes: Sequence[BaseProcess]) -> None:
    """Start the workers with SIGINT blocked: they inherit the blocked signal (through fork
    and exec alike) and never see Ctrl-C, which the terminal sends to the whole process
    group; the parent alone answers it, and stops them. A Ctrl-C pressed meanwhile waits
    for the parent (delivered when it unblocks), it is not lost. SIGTERM is blocked too
    meanwhile: its handler's SystemExit, raised inside a fork hook, would be ignored; each
    worker unblocks it for itself."""
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no process groups to worry about
        for process in processes:
            process.start()
        return
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        for process in processes:
            process.start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def _worker(
    rules_dict: dict[str, Any],
    rounds: int,
    seed: bytes,
    index: int,
    messages: multiprocessing.Queue[tuple[str, int, Any]],
    parent: int,
    side_bets: tuple[PayTable, ...],
) -> None:
    """One worker process: play its share, report progress and the tally on ``messages``.

    It stops at its next progress report once its parent is gone (killed outright, it could
    not stop the workers itself). ``parent`` is its pid as the parent read it: a worker
    that read it itself could read its new parent's, if the old one died as it was forked."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's handler, inherited by fork
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})

    def progress(done: int) -> None:
        if os.getppid() != parent:
            os._exit(TERMINATED)
        messages.put(("progress", index, done))

    try:
        tally = play_worker(
            Rules.from_dict(rules_dict),
            rounds,
            seed,
            index,
            progress=progress,
            side_bets=side_bets,
        )
    except Exception as exc:  # reported to the parent, which stops the run with it
        messages.put(("error", index, f"{type(exc).__name__}: {exc}"))
        return
    messages.put(("tally", index, tally))


def _check_alive(processes: Sequence[BaseProcess], tallies: dict[int, Tally]) -> None:
    for index, process in enumerate(processes):
        if index not in tallies and not process.is_alive() and process.exitcode not in (0, None):
            raise RuntimeError(f"simulation worker {index} died (exit code {process.exitcode})")


def _result(
    rules: Rules, args: argparse.Namespace, tally: Tally, seed_hex: str, seconds: float
) -> dict[str, Any]:
    low, high = tally.ci95_pct
    return {
        "house_edge_pct": tally.house_edge_pct,
        "std_error_pct": tally.std_error_pct,
        "ci95_pct": [low, high],
        "rounds": tally.rounds,
        "stake": stake_for(rules),
        "seconds": seconds,
        "rounds_per_second": tally.rounds / seconds if seconds > 0 else None,
        "workers": args.workers,
        "engine": BUILD,
        "seed": seed_hex,
        "rules": rules.to_dict(),
        "side_bets": [
            {
                "bet": bet,
                "pay_table": table,
                "house_edge_pct": side.house_edge_pct,
                "std_error_pct": side.std_error_pct,
                "exact_house_edge_pct": float(
                    100
                    * side_bet_edge(
                        parse_pay_table(bet, table), rules.decks, rules.dealer_hits_soft_17
                    )
                ),
            }
            for bet, table, side in tally.side_bets
        ],
    }


def _heading(rounds: int, preset_name: str, rules: Rules) -> str:
    """The result's first line, printed as the run starts: what is played."""
    changed = "" if PRESETS[preset_name] == rules else ", with rule flags"
    shoe = (
        "a fresh shoe every round"
        if rules.penetration == 0
        else f"cut card at {rules.penetration:.0%}"
    )
    return (
        f"{rounds:,} rounds of basic strategy, one spot of {stake_for(rules)} "
        f"chips: {preset_name}{changed}, {rules.decks} deck{'s' if rules.decks > 1 else ''}, "
        f"{shoe}"
    )


def _text(result: dict[str, Any]) -> str:
    """The result's lines after its heading."""
    low, high = result["ci95_pct"]
    workers = result["workers"]
    return "\n".join(
        [
            f"House edge: {result['house_edge_pct']:.3f}% "
            f"± {result['house_edge_pct'] - low:.3f} (95% confidence: {low:.3f}% to {high:.3f}%; "
            f"standard error {result['std_error_pct']:.3f})",
            f"Speed: {result['rounds_per_second']:,.0f} rounds/s ({result['seconds']:.1f} s, "
            f"{workers} worker{'s' if workers > 1 else ''}, {result['engine']} engine)",
            *(
                f"{side['bet']} paying {side['pay_table']}: house edge "
                f"{side['house_edge_pct']:.3f}% (standard error {side['std_error_pct']:.3f}; "
                f"exactly {side['exact_house_edge_pct']:.3f}% off the top of a fresh shoe)"
                for side in result["side_bets"]
            ),
            f"Seed: {result['seed']}",
        ]
    )


def _error(message: str) -> int:
    print(f"python -m bot: error: {message}", file=sys.stderr)
    return 2
