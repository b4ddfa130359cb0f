"""Our basic-strategy house edges against the published ones, with the CPU each took.

    .venv/bin/python bench/edges.py

Every basic-strategy (total-dependent, fresh shoe) row of
``tests/data/house_edge_reference.csv`` (sources named there), then each preset's
edge. Prints a Markdown table: ours, published, the difference, CPU seconds (the
edge alone; the rule sets share the dealer's odds, so later rows can be quicker).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import PRESETS
from bot.engine.analysis.edge import house_edge
from tests.engine.edge_reference import basic_strategy_rows, rules_of


def main() -> None:
    rows = basic_strategy_rows()
    print("| rule set | ours (%) | published (%) | difference | CPU s |")
    print("| --- | --- | --- | --- | --- |")
    for row in rows:
        infinite = row["decks"] == "inf"
        started = time.process_time()
        ours = house_edge(rules_of(row), infinite=infinite).house_edge_pct
        cpu = time.process_time() - started
        published = float(row["house_edge_pct"])
        surrender = "LS" if row["late_surrender"] == "yes" else "no surrender"
        name = f"{row['decks']}D {row['soft17']} {surrender}"
        print(f"| {name} | {ours:.5f} | {published} | {ours - published:+.5f} | {cpu:.1f} |")
    for preset, rules in PRESETS.items():
        started = time.process_time()
        ours = house_edge(rules).house_edge_pct
        print(f"| preset {preset} | {ours:.5f} | | | {time.process_time() - started:.1f} |")


if __name__ == "__main__":
    main()
