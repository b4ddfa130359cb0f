"""Rounds per second: py21 1.6.0 (PyPI) against ``python -m bot simulate``, side by side.

    .venv/bin/pip install -e ".[bench]"     # py21 1.6.0 (and altair, which it imports)
    .venv/bin/python bench/engine_vs_py21.py [--rounds N] [--py21-rounds N] [--repeat R]
                                             [--no-compiled] [--profile N]

Both play the vegas-shoe game with one player, one hand a round, basic strategy and
no insurance: six decks reshuffled after 75% are dealt, S17, 3:2, double any two,
double after split, late surrender, split to four hands, one card to split aces, the
dealer checks for blackjack (py21 plays no hand against a dealer blackjack). py21
plays its own basic-strategy chart; ours is computed. py21 keeps a record of every
card and hand; the bench empties those lists every 10,000 rounds so memory stays flat.

Ours runs as the real command, ``simulate --preset vegas-shoe --hands N --workers 1
--json``, in a child process: once with the engine as it is in the source tree (pure
Python) and once compiled by mypyc (``BLACKJACK_COMPILE=1``, built into a temporary
directory, never into the source tree). Each side is timed over its rounds only
(start-up, imports and chart building excluded on both sides). The runs alternate
``--repeat`` times and the best rate of each counts, since the machine is shared.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SEED = "b1ac4ac0" * 8

#: py21 1.6.0's parameters (py21/rules.json) set to the vegas-shoe rules.
PY21_RULES = {
    "num_decks": 6,
    "shuffle_freq": 0.25,  # reshuffle when a quarter of the shoe is left
    "soft_stand": True,  # S17
    "stand_total": 17,
    "double_after_split": True,
    "blackjack_payout": 1.5,
    "payout": 1,
    "surrender_allowed": True,
    "surrender_after_split": False,
    "surrender_pct": 0.5,
    "max_split_hands": 3,  # three splits: four hands
    "hit_split_aces": False,
    "insurance_allowed": True,  # offered; the default player declines
    "burn": False,
    "min_bet": 10,
    "max_bet": 10_000,
}


def py21_rate(rounds: int) -> float:
    """py21's rounds per second over ``rounds`` rounds."""
    from py21.game import Game
    from py21.player import Player

    player = Player(10**15)
    game = Game([player], rules=PY21_RULES, seed=1)
    start = time.perf_counter()
    for index in range(rounds):
        game.play_round()
        if index % 10_000 == 9_999:
            del game.count_data[:], game.hit_results[:], player.history[:]
    return rounds / (time.perf_counter() - start)


def ours(rounds: int, site: Path | None) -> dict[str, object]:
    """Run ``simulate`` in a child process; ``site`` holds a compiled build to use."""
    command = [sys.executable, "-m", "bot", "simulate", "--preset", "vegas-shoe"]
    command += ["--hands", str(rounds), "--workers", "1", "--seed", SEED, "--json"]
    env = dict(os.environ)
    cwd = ROOT
    if site is not None:
        # The compiled build first on the path, and not the source tree's folder.
        env["PYTHONPATH"] = str(site)
        cwd = site
    result: dict[str, object] = json.loads(run_or_exit(command, cwd, env))
    return result


def run_or_exit(command: list[str], cwd: Path, env: dict[str, str]) -> str:
    """``command``'s stdout; if it fails, its own output and the command, and exit 1."""
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit(f"failed (exit {done.returncode}): {' '.join(command)} in {cwd}")
    return done.stdout


def build_compiled(work: Path) -> Path:
    """Compile the engine with setup.py's BLACKJACK_COMPILE hook into ``work``/site."""
    source = work / "src"
    site = work / "site"
    source.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.so")
    shutil.copytree(ROOT / "bot", source / "bot", ignore=ignore)
    env = dict(os.environ, BLACKJACK_COMPILE="1")
    command = [sys.executable, "setup.py", "-q", "build_ext"]
    command += ["--build-lib", str(site), "--build-temp", str(work / "build")]
    run_or_exit(command, source, env)
    # The compiled modules sit beside the package's sources (which the rest needs).
    shutil.copytree(source / "bot", site / "bot", ignore=ignore, dirs_exist_ok=True)
    return site


def profile(rounds: int) -> None:
    """Where the pure engine's time goes: cProfile of the simulator's loop."""
    sys.path.insert(0, str(ROOT))
    from bot.engine import preset
    from bot.engine.analysis import lookup_for, play_rounds

    rules = preset("vegas-shoe")
    lookup_for(rules)
    profiler = cProfile.Profile()
    profiler.runcall(play_rounds, rules, rounds, bytes.fromhex(SEED))
    stats = pstats.Stats(profiler)
    stats.sort_stats("tottime").print_stats(18)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1_000_000, help="rounds for ours")
    parser.add_argument("--py21-rounds", type=int, default=200_000, help="rounds for py21")
    parser.add_argument("--repeat", type=int, default=3, help="alternating runs of each")
    parser.add_argument("--no-compiled", action="store_true", help="skip the mypyc build")
    parser.add_argument("--profile", type=int, metavar="N", help="only profile N rounds")
    args = parser.parse_args()
    if args.profile:
        profile(args.profile)
        return 0

    with tempfile.TemporaryDirectory(prefix="bj-bench-") as tmp:
        site = None
        if not args.no_compiled:
            start = time.perf_counter()
            site = build_compiled(Path(tmp))
            print(f"compiled the engine with mypyc in {time.perf_counter() - start:.0f} s")
        py21: list[float] = []
        pure: list[float] = []
        compiled: list[float] = []
        results: dict[str, dict[str, object]] = {}
        for _ in range(args.repeat):
            py21.append(py21_rate(args.py21_rounds))
            results["pure"] = ours(args.rounds, None)
            pure.append(float(str(results["pure"]["rounds_per_second"])))
            if site is not None:
                results["compiled"] = ours(args.rounds, site)
                compiled.append(float(str(results["compiled"]["rounds_per_second"])))

    best_py21 = max(py21)
    print(f"py21 1.6.0:               {best_py21:>9,.0f} rounds/s  ({args.py21_rounds:,} rounds)")
    _line("ours, pure Python engine", pure, best_py21, args.rounds)
    if compiled:
        _line("ours, mypyc-compiled", compiled, best_py21, args.rounds)
        engine = results["compiled"]["engine"]
        same = all(
            results["pure"][key] == results["compiled"][key]
            for key in ("house_edge_pct", "std_error_pct")
        )
        print(f"compiled build loaded: {engine == 'compiled'}; same tally as pure: {same}")
    print(f"best of {args.repeat} alternating runs each")
    return 0


def _line(label: str, rates: list[float], py21: float, rounds: int) -> None:
    best = max(rates)
    print(f"{label + ':':<26}{best:>9,.0f} rounds/s  ({rounds:,} rounds)  ratio {best / py21:.1f}x")


if __name__ == "__main__":
    sys.exit(main())
