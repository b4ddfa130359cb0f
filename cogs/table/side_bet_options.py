"""``/bet``'s side-bet options: one per bet of the registry (``bot.engine.SPECS``).

Each spec names its option (``SideBetSpec.option``) and describes it
(``SideBetSpec.describe``); :func:`side_bet_options` adds them to the command's
callback, which takes them as ``**side``. discord.py builds a command's options from
its callback's signature (``inspect.signature``, which honours a function's
``__signature__``), so the options are keyword parameters written there, then renamed
and described with ``app_commands.rename`` and ``app_commands.describe``.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Coroutine, Mapping
from typing import Any, Final, Optional, TypeVar

from discord import app_commands

from bot.engine import MAX_BET_CEILING, SPECS, SideBetSpec

#: A command callback.
Callback = TypeVar("Callback", bound=Callable[..., Coroutine[Any, Any, None]])

#: Each option's parameter name (a Python identifier) and its bet's spec.
SIDE_OPTIONS: Final[dict[str, SideBetSpec]] = {
    "side_" + re.sub(r"\W", "_", spec.key): spec for spec in SPECS.values()
}
#: A stake a hand, 1 to the largest bet a table takes; optional.
_STAKE: Final = Optional[app_commands.Range[int, 1, MAX_BET_CEILING]]  # noqa: UP045


def side_bet_options(callback: Callback) -> Callback:
    """``callback`` (whose last parameter is ``**side``) with one option per side bet."""
    signature = inspect.signature(callback)
    kept = [p for p in signature.parameters.values() if p.kind is not p.VAR_KEYWORD]
    added = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=_STAKE)
        for name in SIDE_OPTIONS
    ]
    callback.__signature__ = signature.replace(parameters=kept + added)  # type: ignore[attr-defined]
    renamed = app_commands.rename(**{name: spec.option for name, spec in SIDE_OPTIONS.items()})
    described = app_commands.describe(
        **{name: spec.describe for name, spec in SIDE_OPTIONS.items()}
    )
    return described(renamed(callback))


def side_stakes(side: Mapping[str, int | None]) -> dict[str, int]:
    """The stakes given, by bet key (``{"21+3": 10}``), from the options' parameters."""
    return {SIDE_OPTIONS[name].key: stake for name, stake in side.items() if stake is not None}
