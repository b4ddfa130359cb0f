"""How the coach words a graded decision: one line with the cards, the choice made, its
value and the best's (or the runner-up's, when the choice was the best), then every
choice's value. "Double hard 11 (5♥ 6♦) against a 6: +68.3% against +34.1% for a hit."

Values are in percent of the bet, as the Hint writes them (``advice._PERCENT``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final

import db
from bot.engine import Action, Card
from bot.i18n import Figure, Text, _, joined, n_
from bot.tables.advice import ACTIONS, PERCENT, card_name, hand_name

#: Each choice as the coach's line starts with it.
_CHOSEN: Final[dict[Action, Text]] = {
    Action.HIT: _("Hit"),
    Action.STAND: _("Stand"),
    Action.DOUBLE: _("Double"),
    Action.SPLIT: _("Split"),
    Action.SURRENDER: _("Surrender"),
    Action.INSURANCE: _("Insurance"),
    Action.NO_INSURANCE: _("No insurance"),
}
#: A cost is stored in millionths of the bet; a line shows percent.
_PPM_PER_PERCENT: Final = 10_000


def _percent(value: float) -> Figure:
    return Figure(value * 100, PERCENT)


def decision_line(record: db.DecisionRecord) -> Text:
    """One graded decision, in a line and the values of every legal choice."""
    detail: dict[str, Any] = json.loads(record.detail)
    values = {Action(name): float(value) for name, value in detail["values"].items()}
    cards = [Card.parse(text) for text in detail["cards"]]
    chosen, best = Action(record.chosen), Action(record.best)
    others = [action for action in values if action != chosen]
    words = {
        "choice": _CHOSEN[chosen],
        "hand": hand_name(cards),
        "cards": " ".join(detail["cards"]),
        "up": card_name(Card.parse(detail["up"])),
        "value": _percent(values[chosen]),
    }
    if record.cost_ppm:
        head = _(
            "{choice} {hand} ({cards}) against {up}: {value}% against {best_value}% for "
            "{best}, {cost}% of the bet given away.",
            best=ACTIONS[best],
            best_value=_percent(values[best]),
            cost=Figure(record.cost_ppm / _PPM_PER_PERCENT, "0.0"),
            **words,
        )
    elif others:
        runner_up = max(others, key=lambda action: values[action])
        head = _(
            "{choice} {hand} ({cards}) against {up}: {value}% against {other_value}% for "
            "{other}, the best choice.",
            other=ACTIONS[runner_up],
            other_value=_percent(values[runner_up]),
            **words,
        )
    else:
        head = _("{choice} {hand} ({cards}) against {up}: the only choice.", **words)
    ranked = sorted(values, key=lambda action: -values[action])
    worth = joined(
        [
            _("{action} {percent}%", action=ACTIONS[action], percent=_percent(values[action]))
            for action in ranked
        ]
    )
    return _("{head}\n-# {worth}", head=head, worth=worth)


def round_review(records: Sequence[db.DecisionRecord]) -> Text:
    """The player's last graded round, decision by decision."""
    if not records:
        return _(
            "The coach has no graded round of yours here yet: play a round, and ask again "
            "once it is settled."
        )
    best = sum(1 for record in records if not record.cost_ppm)
    given = sum(record.cost_ppm * record.stake for record in records) / 1_000_000
    summary = n_(
        "Your last round: {best} of {count} decision the best, {given} chips given away "
        "on average.",
        "Your last round: {best} of {count} decisions the best, {given} chips given away "
        "on average.",
        len(records),
        best=best,
        count=len(records),
        given=Figure(given, "0.00"),
    )
    lines = [decision_line(record) for record in records]
    return _("{summary}\n{lines}", summary=summary, lines=joined(lines, "\n"))


def teach_note(records: Sequence[db.DecisionRecord]) -> Text:
    """Teach mode's note after a round: each decision that cost more than 2% of the bet."""
    lines = [decision_line(record) for record in records]
    return n_(
        "The coach, on your last round: {count} decision cost more than 2% of the bet.\n{lines}",
        "The coach, on your last round: {count} decisions cost more than 2% of the bet.\n{lines}",
        len(records),
        count=len(records),
        lines=joined(lines, "\n"),
    )
