"""A table's rules: the preset, with bet limits from the host and the guild's settings."""

from __future__ import annotations

import db
from bot.bet_amount import bet_range
from bot.engine import Rules, RulesError, preset
from bot.tables.errors import BetRefused, TableError
from bot.tables.refusals import sentence


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
    except RulesError as error:
        raise TableError(sentence(str(error))) from None
    low, high = rules.min_bet, rules.max_bet
    for asked, what in ((min_bet, "minimum"), (max_bet, "maximum")):
        if asked is not None and not low <= asked <= high:
            raise BetRefused(
                f"The {name} table takes {bet_range(low, high)}; "
                f"a {what} of {asked:,} is outside that."
            )
    chosen_min = min_bet if min_bet is not None else min(max(settings.min_bet, low), high)
    chosen_max = max_bet if max_bet is not None else min(max(settings.max_bet, low), high)
    if min_bet is not None and max_bet is None:
        chosen_max = max(chosen_max, chosen_min)
    if max_bet is not None and min_bet is None:
        chosen_min = min(chosen_min, chosen_max)
    if chosen_min > chosen_max:
        raise BetRefused(
            f"The minimum bet ({chosen_min:,}) cannot be above the maximum ({chosen_max:,})."
        )
    return rules.replace(min_bet=chosen_min, max_bet=chosen_max)
