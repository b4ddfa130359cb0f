"""The published house edges of ``tests/data/house_edge_reference.csv`` and the rules of
each row: read by ``test_exact`` (the oracle) and ``bench/edges.py`` (the table)."""

from __future__ import annotations

import csv
from pathlib import Path

from bot.engine import Rules

REFERENCE = Path(__file__).parent.parent / "data" / "house_edge_reference.csv"


def basic_strategy_rows() -> list[dict[str, str]]:
    """The rows for basic strategy (total-dependent, fresh shoe), in file order."""
    with REFERENCE.open(newline="") as handle:
        return [row for row in csv.DictReader(handle) if row["strategy"].startswith("basic")]


def rules_of(row: dict[str, str]) -> Rules:
    """The rules of one row (an infinite deck is valued with ``infinite=True``)."""
    return Rules(
        decks=8 if row["decks"] == "inf" else int(row["decks"]),
        penetration=0,
        dealer_hits_soft_17=row["soft17"] == "H17",
        double_on="any",
        double_after_split=row["das"] == "yes",
        surrender="late" if row["late_surrender"] == "yes" else "none",
        max_hands=int(row["max_hands"]),
        resplit_aces=row["resplit_aces"] == "yes",
    )
