"""The house edge of basic strategy, computed without simulation.

Every first deal (up card, two player cards) is weighted by its odds and
played by the chart of ``bot.engine.analysis.strategy``: the first decision from the
cell of the two-card hand, later hits and stands from the cells of the totals
reached, split hands from their own cells with what a split hand may do.
Insurance is never taken. Exact on an infinite deck; on a finite shoe it uses
the per-round model of ``bot.engine.analysis.ev`` (a fresh shoe every round, the three
dealt cards removed). Payouts are exact fractions of the bet: the Round's
rounding down of half chips is not part of the edge.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.engine.actions import Action
from bot.engine.analysis.dealer_odds import full_shoe
from bot.engine.analysis.ev import (
    DOUBLE_TOTALS,
    HandValue,
    HitRule,
    Play,
    ShoeModel,
    hand_state,
    split_value,
)
from bot.engine.analysis.exact_play import UpCard, exact_shoe, first_decision
from bot.engine.analysis.strategy import Chart, build_chart, chart_for
from bot.engine.rules import Rules


@dataclass(frozen=True, slots=True)
class HouseEdge:
    """The house edge of basic strategy under one rule set."""

    rules: Rules
    #: Average loss per round, in percent of the first bet.
    house_edge_pct: float
    #: True for an infinite deck (exact); False for the rules' shoe (per-round model).
    infinite: bool

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of ``python -m bot edge --json``."""
        return {"house_edge_pct": self.house_edge_pct, "rules": self.rules.to_dict()}


def house_edge(rules: Rules, *, infinite: bool = False) -> HouseEdge:
    """The house edge of basic strategy for ``rules`` (its deck count, or an infinite deck)."""
    model = ShoeModel(rules, infinite=infinite)
    # A finite shoe's chart is the cached one the simulator plays (worked out once).
    chart = build_chart(model) if infinite else chart_for(rules)
    if exact_shoe(model):
        return HouseEdge(rules, -100.0 * exact_player_value(rules, chart), infinite)
    player = 0.0
    for up in range(1, 11):
        round_value = _Rounds(model, chart, up)
        for first in range(1, 11):
            for second in range(first, 11):
                odds = model.pair_odds(up, first, second)
                player += model.up_odds(up) * odds * round_value.value(first, second)
    return HouseEdge(rules, -100.0 * player, infinite)


def exact_player_value(rules: Rules, chart: Chart) -> float:
    """The player's average result per round playing ``chart``, every card out as dealt."""
    player = 0.0
    full = full_shoe(rules.decks)
    in_shoe = sum(full)
    for up in range(1, 11):
        position = UpCard(rules, up, chart.hit_rule(up))

        def choose(section: str, row: int, legal: set[Action], up: int = up) -> Action:
            return chart.choose(section, row, up, legal)

        for first in range(1, 11):
            for second in range(first, 11):
                odds = position.odds(first, second)
                if odds:
                    value = position.round_value(first, second, choose)
                    player += full[up - 1] / in_shoe * odds * value
    return player


class _Rounds:
    """Values of the rounds that start with one up card, played by the chart."""

    def __init__(self, model: ShoeModel, chart: Chart, up: int) -> None:
        self.model = model
        self.rules = model.rules
        self.chart = chart
        self.up = up
        self.hits: HitRule = chart.hit_rule(up)
        self.doubles = DOUBLE_TOTALS[self.rules.double_on]
        self.split_doubles = self.doubles if self.rules.double_after_split else frozenset()
        self.finish: HandValue = self._finish_split_hand

    def value(self, first: int, second: int) -> float:
        """Value of a round whose first two cards are ``first`` and ``second``."""
        model, rules, up = self.model, self.rules, self.up
        sit = model.situation(up, first, second)
        if rules.naturals and first == 1 and second == 10:
            return (1.0 - sit.p_blackjack) * float(rules.blackjack_ratio)
        play = sit.play(self.hits)
        if first != second or rules.split_by == "none":
            value = self._first_decision(play, first, second, pair=False)
        elif rules.split_by == "rank" and first == 10:
            same = model.same_rank_odds(up)
            value = same * self._first_decision(play, first, second, pair=True)
            value += (1.0 - same) * self._first_decision(play, first, second, pair=False)
        else:
            value = self._first_decision(play, first, second, pair=True)
        if rules.dealer_peeks:
            # The peek settles a dealer blackjack before anyone acts: only the bet is lost.
            return -sit.p_blackjack + (1.0 - sit.p_blackjack) * value
        return value

    def _first_decision(self, play: Play, first: int, second: int, *, pair: bool) -> float:
        rules = self.rules
        total, soft = hand_state((first, second))
        section, row, legal = first_decision(rules, first, second, pair=pair)
        action = self.chart.choose(section, row, self.up, legal)
        if action == Action.SPLIT:
            return split_value(self.model, self.up, first, play, self.finish)
        return self._take(play, action, total, soft)

    def _finish_split_hand(self, play: Play, first: int, second: int, still_pair: bool) -> float:
        rules = self.rules
        total, soft = hand_state((first, second))
        if first == 1 and not rules.hit_split_aces:
            return play.stand(total)
        legal = {Action.HIT, Action.STAND}
        if total in self.split_doubles:
            legal.add(Action.DOUBLE)
        if still_pair:
            section, row = "pair", first
        else:
            section, row = ("soft" if soft else "hard"), total
        return self._take(play, self.chart.choose(section, row, self.up, legal), total, soft)

    @staticmethod
    def _take(play: Play, action: Action, total: int, soft: bool) -> float:
        if action == Action.STAND:
            return play.stand(total)
        if action == Action.HIT:
            return play.hit(total, soft)
        if action == Action.DOUBLE:
            return play.double(total, soft)
        if action == Action.SURRENDER:
            return play.surrender()
        raise ValueError(f"cannot value {action} here")  # pragma: no cover
