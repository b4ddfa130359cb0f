"""The tests' own layout (issue 38): shared helpers live in ``tests/support/`` (shoes, clocks,
fake worlds), each module of the tests is imported under one name (two names would make two
module objects in one session, each with its own state), and no test module is imported by
another (a fixture or helper two modules share belongs in a conftest or in support)."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent


def imported_modules() -> dict[Path, set[str]]:
    """Each Python file under tests/ and bench/, with the module names it imports."""
    found: dict[Path, set[str]] = {}
    for path in [*TESTS.rglob("*.py"), *(ROOT / "bench").rglob("*.py")]:
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module)
            elif isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
        found[path] = names
    return found


def test_no_test_module_imports_another() -> None:
    offenders = {
        f"{path.relative_to(ROOT)} imports {name}"
        for path, names in imported_modules().items()
        for name in names
        if name.rsplit(".", 1)[-1].startswith("test_")
    }
    assert offenders == set()


def test_each_module_of_the_tests_is_imported_under_one_name() -> None:
    helpers = {
        path: path.relative_to(ROOT).with_suffix("")
        for path in TESTS.rglob("*.py")
        if not path.name.startswith("test_") and path.name != "conftest.py"
    }
    forms: dict[Path, set[str]] = defaultdict(set)
    for names in imported_modules().values():
        for name in names:
            for path, dotted in helpers.items():
                if name in (".".join(dotted.parts), dotted.name):
                    forms[path].add(name)
    assert {p.relative_to(ROOT).as_posix(): f for p, f in forms.items() if len(f) > 1} == {}


def test_shoes_and_clocks_are_written_once_in_support() -> None:
    wanted = {"class ShoeQueue", "SPARE = ", "def stacked(", "class FakeClock"}
    where: dict[str, list[str]] = defaultdict(list)
    for path in TESTS.rglob("*.py"):
        for line in path.read_text(encoding="utf-8").splitlines():
            for start in wanted:
                if line.startswith(start):
                    where[start].append(path.relative_to(TESTS).as_posix())
    assert dict(where) == {
        "class ShoeQueue": ["support/shoes.py"],
        "SPARE = ": ["support/shoes.py"],
        "def stacked(": ["support/shoes.py"],
        "class FakeClock": ["support/clocks.py"],
    }
