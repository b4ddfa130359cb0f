"""Charts and edges kept across restarts: one small JSON file per rule set.

The engine does no I/O: this module stores what ``bot.engine`` computed (a
chart's cell orders and the house edge) under the bot's data directory, keyed
by the rule fields that change them, and reads it back on the next start.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path

from bot.engine import Action, Rules
from bot.engine.analysis import Chart, chart_for, house_edge, strategy_rules

#: Bump when the computation changes, so old files are not read as new ones.
VERSION = 3


def rules_key(rules: Rules) -> str:
    """A file-name-safe key of the rule fields a chart or an edge depends on."""
    fields = rules.replace(penetration=0, min_bet=1, max_bet=1, max_spots=1, max_players=1)
    text = json.dumps({"v": VERSION, **fields.to_dict()}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def cache_directory(database_url: str) -> Path | None:
    """Where the bot keeps charts: beside its SQLite file, else under ./data (None for a
    database in memory: nothing is kept). Absolute, as of the folder the bot starts in: a
    chart written later lands there whatever the folder is then."""
    if database_url.startswith("sqlite:///"):
        path = database_url.removeprefix("sqlite:///").split("?")[0]
        if not path or ":memory:" in path:
            return None
        return Path(path).absolute().parent / "strategy"
    return Path("data").absolute() / "strategy"


def chart_and_edge(rules: Rules) -> tuple[Chart, float]:
    """The chart of ``rules`` and its house edge on a fresh shoe (seconds of CPU)."""
    return chart_for(rules), house_edge(rules.replace(penetration=0)).house_edge_pct


class StrategyCache:
    """Chart and edge per rule set: in memory, and as files under ``directory``."""

    def __init__(self, directory: Path | None) -> None:
        self.directory = directory
        self._memory: dict[str, tuple[Chart, float]] = {}

    def cached(self, rules: Rules) -> tuple[Chart, float] | None:
        """The stored chart and edge of ``rules``, or None (never computes)."""
        key = rules_key(rules)
        found = self._memory.get(key)
        if found is None and self.directory is not None:
            found = self._read(self.directory / f"strategy-{key}.json", rules)
            if found is not None:
                self._memory[key] = found
        return found

    def compute(
        self,
        rules: Rules,
        work: Callable[[Rules], tuple[Chart, float]] = chart_and_edge,
    ) -> tuple[Chart, float]:
        """The chart and edge of ``rules``: stored, or worked out by ``work`` and stored
        (blocking)."""
        found = self.cached(rules)
        if found is None:
            found = work(rules)
            self.store(rules, *found)
        return found

    def store(self, rules: Rules, chart: Chart, edge: float) -> None:
        """Keep the chart and edge of ``rules`` (in memory, and on disk if kept there)."""
        key = rules_key(rules)
        self._memory[key] = (chart, edge)
        if self.directory is not None:
            self._write(self.directory / f"strategy-{key}.json", chart, edge)

    @staticmethod
    def _write(path: Path, chart: Chart, edge: float) -> None:
        orders = [[*cell, [a.value for a in actions]] for cell, actions in chart.orders.items()]
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps({"edge": edge, "orders": orders}), encoding="utf-8")
        temporary.replace(path)

    @staticmethod
    def _read(path: Path, rules: Rules) -> tuple[Chart, float] | None:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            orders = {
                (str(section), int(row), int(up)): tuple(Action(a) for a in actions)
                for section, row, up, actions in data["orders"]
            }
            return Chart(strategy_rules(rules), orders), float(data["edge"])
        except (OSError, ValueError, KeyError, TypeError):
            return None  # missing or unreadable: computed again
