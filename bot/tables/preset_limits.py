"""A table's rules: the preset, with bet limits from the host and the guild's settings."""

from __future__ import annotations

import db
from bot.bet_amount import bet_range
from bot.engine import PRESETS, Rules, RulesError, preset
from bot.i18n import _
from bot.tables.errors import BetRefused, TableError


def table_rules(
    name: str, settings: db.GuildSettings, min_bet: int | None, max_bet: int | None
) -> Rules:
    """The preset ``name`` with the table's limits.

    A preset's own fixed limits (reno-1972: 2 to 2) win over the guild's; the
    guild's defaults are kept inside the preset's range; limits the host asks
    for must lie inside it, or the table is refused with the range in words.
    """
    try:
        rules = preset(name)
    except RulesError:
        raise TableError(
            _(
                "No preset called {preset}; choose one of {presets}.",
                preset=repr(name),
                presets=", ".join(sorted(PRESETS)),
            )
        ) from None
    low, high = rules.min_bet, rules.max_bet
    outside = (
        (min_bet, _("The {preset} table takes {range}; a minimum of {amount} is outside that.")),
        (max_bet, _("The {preset} table takes {range}; a maximum of {amount} is outside that.")),
    )
    for asked, refusal in outside:
        if asked is not None and not low <= asked <= high:
            raise BetRefused(refusal.filled(preset=name, range=bet_range(low, high), amount=asked))
    chosen_min = min_bet if min_bet is not None else min(max(settings.min_bet, low), high)
    chosen_max = max_bet if max_bet is not None else min(max(settings.max_bet, low), high)
    if min_bet is not None and max_bet is None:
        chosen_max = max(chosen_max, chosen_min)
    if max_bet is not None and min_bet is None:
        chosen_min = min(chosen_min, chosen_max)
    if chosen_min > chosen_max:
        raise BetRefused(
            _(
                "The minimum bet ({minimum}) cannot be above the maximum ({maximum}).",
                minimum=chosen_min,
                maximum=chosen_max,
            )
        )
    return rules.replace(min_bet=chosen_min, max_bet=chosen_max)
