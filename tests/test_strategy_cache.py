"""Charts and edges survive a restart: bot/strategy_cache.py writes them under a directory."""

from __future__ import annotations

from pathlib import Path

from bot.engine import preset
from bot.strategy_cache import StrategyCache, cache_directory, rules_key


def test_a_new_cache_reads_what_an_earlier_one_computed(tmp_path: Path) -> None:
    rules = preset("vegas-shoe")
    first = StrategyCache(tmp_path)
    assert first.cached(rules) is None
    chart, edge = first.compute(rules)
    assert (tmp_path / f"strategy-{rules_key(rules)}.json").is_file()
    found = StrategyCache(tmp_path).cached(rules)  # a restart: nothing in memory
    assert found is not None
    assert found[0].orders == chart.orders
    assert found[1] == edge
    # Bet limits do not change the chart: the same entry; the deck count does.
    assert StrategyCache(tmp_path).cached(rules.replace(min_bet=5, max_bet=50)) is not None
    assert StrategyCache(tmp_path).cached(rules.replace(decks=8)) is None


def test_an_unreadable_file_is_computed_again(tmp_path: Path) -> None:
    rules = preset("vegas-shoe")
    (tmp_path / f"strategy-{rules_key(rules)}.json").write_text("{not json", encoding="utf-8")
    assert StrategyCache(tmp_path).cached(rules) is None


def test_the_bot_keeps_charts_beside_its_sqlite_file() -> None:
    assert cache_directory("sqlite:///var/bj/chips.sqlite3") == Path.cwd() / "var/bj/strategy"
    assert cache_directory("sqlite:////srv/chips.sqlite3") == Path("/srv/strategy")
    assert cache_directory("sqlite:///:memory:") is None
    assert cache_directory("postgresql://db/bj") == Path.cwd() / "data/strategy"
