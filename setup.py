"""Opt-in compiled engine: ``BLACKJACK_COMPILE=1 pip install .`` compiles the hot
modules of ``bot.engine`` with mypyc (about four times the rounds per second).

Everything else about the package is in pyproject.toml; without the variable this
file adds nothing and the install is pure Python. The compiled modules are the
same source, so they behave identically (the engine tests pass against them).

Compiling needs mypy (which ships mypyc) and a C compiler where the wheel is
built. An editable install (``pip install -e .``) is never compiled: compiled
.so files next to the .py files would keep running the old code after an edit.
"""

from __future__ import annotations

import os
import sys

from setuptools import setup

#: The modules a round runs through, and the simulator's (under bot/engine/). The
#: strategy and edge computations (analysis/ev, strategy, edge) run once per rule set
#: and stay interpreted.
COMPILED_MODULES = (
    "actions",
    "cards",
    "dealer_play",
    "errors",
    "events",
    "fresh_shoe",
    "hand",
    "legality",
    "round",
    "round_state",
    "rules",
    "seat",
    "settlement",
    "shoe",
    "analysis/chart_lookup",
    "analysis/simulate",
)


def compiled_extensions() -> list[object]:
    """mypyc extensions when BLACKJACK_COMPILE=1, else none."""
    if os.environ.get("BLACKJACK_COMPILE", "") not in ("1", "true", "yes"):
        return []
    if any(command in sys.argv for command in ("develop", "editable_wheel")):
        raise SystemExit(
            "BLACKJACK_COMPILE=1 is for a regular install (pip install .), not an editable "
            "one: compiled modules beside the sources would shadow every later edit."
        )
    try:
        from mypyc.build import mypycify
    except ImportError:
        raise SystemExit(
            "BLACKJACK_COMPILE=1 needs mypy (it ships mypyc) in the build environment: "
            "pip install mypy, then pip install --no-build-isolation ."
        ) from None
    paths = [f"bot/engine/{name}.py" for name in COMPILED_MODULES]
    return list(mypycify(paths, opt_level="3"))


setup(ext_modules=compiled_extensions())
