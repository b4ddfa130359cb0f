"""A decision timer that plays instead of standing: basic strategy plays a late player's
hands, each decision journaled as the player's own would be, so a replayed round plays them
again card for card. A game mode whose late hands must still be played (a tournament's)
uses it; a cash table stands them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import db
from bot.engine.analysis import infinite_lookup
from bot.i18n import Text, _
from bot.tables.journal import apply_decision, decision
from bot.tables.journal import names as seat_names
from bot.tables.table import Table


def play_by_chart(
    table: Table, late: Iterable[str], free: Mapping[str, int], now: float
) -> tuple[list[db.TableAction], list[Text]]:
    """Play every hand of the ``late`` players (engine ids) by basic strategy, within the
    chips each has ``free``: the journal rows, applied to the table's round already, and a
    line for each player saying so (added to the table's events)."""
    round_ = table.round
    assert round_ is not None
    lookup = infinite_lookup(table.rules)
    rows: list[db.TableAction] = []
    notices: list[Text] = []
    names = seat_names(table)
    for pid in late:
        left = free[pid]
        while pid in round_.players_to_act():
            cards = round_.hands(pid)[round_.current_hand_index(pid) or 0].cards
            legal = {a for a in round_.legal_actions(pid) if round_.judge(pid, a).cost <= left}
            action = lookup.advise(list(cards), round_.dealer_up_card, legal)
            left -= round_.judge(pid, action).cost
            rows.append(decision(table, pid, action, now))
            apply_decision(table, rows[-1])
        for seat in table.seats:
            if seat.pid == pid:
                seat.deadline = None
        notices.append(
            _("{player} did not act in time: basic strategy played their hand.", player=names[pid])
        )
    table.events.extend(notices)
    return rows, notices
