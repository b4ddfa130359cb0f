"""docs/ARCHITECTURE.md names modules that exist, and the names it gives in them."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAP = ROOT / "docs" / "ARCHITECTURE.md"
#: A path in backquotes: `bot/tables/flow.py`, `bot/locales/`, `docs/TRANSLATING.md`.
PATH = re.compile(r"`((?:[\w.]+/)+[\w.]*)`")
#: A module followed by a name in it: `bot/tables/flow.py` `RoundFlow.apply`.
NAMED = re.compile(r"`((?:\w+/)+\w+\.py)` `(\w+)(?:\.(\w+))?`")


def test_every_path_the_map_names_exists() -> None:
    text = MAP.read_text(encoding="utf-8")
    paths = set(PATH.findall(text))
    assert len(paths) > 30  # the click walk alone names more
    missing = sorted(path for path in paths if not (ROOT / path).exists())
    assert missing == []


def test_every_name_the_map_gives_in_a_module_is_defined_there() -> None:
    text = MAP.read_text(encoding="utf-8").replace("\n   ", " ")
    pairs = NAMED.findall(text)
    assert len(pairs) > 10
    wrong = []
    for path, name, member in pairs:
        source = (ROOT / path).read_text(encoding="utf-8")
        for word in filter(None, (name, member)):
            if not re.search(rf"\b(?:class|def|async def) {word}\b|^{word}\b", source, re.M):
                wrong.append(f"{path} {word}")
    assert wrong == []


def test_the_map_stays_short() -> None:
    assert len(MAP.read_text(encoding="utf-8").splitlines()) <= 200
