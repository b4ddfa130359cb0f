"""Basic strategy, computed from expected values for any rules, and ``advise``.

The chart is total-dependent: one decision per hard total, soft total and
pair against each up card. Each decision is the action with the best value
averaged over the two-card hands that make the total, each valued with those
two cards and the up card out of the shoe (``bot.engine.analysis.ev``). A cell lists the
actions best first, so when the first is not allowed (a third card, a split
hand) the next allowed one is the fallback: the chart codes ``Dh``, ``Ds``,
``Uh``, ``Us``, ``Ph``, ``Ps``, ``Uph`` stop at the first hit or stand.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from bot.engine.actions import Action
from bot.engine.analysis.chart_lookup import ChartLookup
from bot.engine.analysis.ev import (
    DOUBLE_TOTALS,
    HandValue,
    HitRule,
    Play,
    ShoeModel,
    hand_state,
    split_value,
)
from bot.engine.analysis.exact_play import UpCard, exact_shoe
from bot.engine.cards import Card
from bot.engine.rules import Rules

#: Up cards in chart order (value 1 is the ace).
UP_CARDS: Final = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)
HARD_ROWS: Final = tuple(range(5, 22))
SOFT_ROWS: Final = tuple(range(13, 22))
PAIR_ROWS: Final = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)

LETTERS: Final[dict[Action, str]] = {
    Action.HIT: "H",
    Action.STAND: "S",
    Action.DOUBLE: "D",
    Action.SPLIT: "P",
    Action.SURRENDER: "U",
}
#: Ties go to the simpler action.
_TIE_ORDER: Final = (Action.STAND, Action.HIT, Action.DOUBLE, Action.SPLIT, Action.SURRENDER)

Cell = tuple[str, int, int]
"""(section, row, up card): section "hard", "soft" or "pair"; row a total or a pair's value."""


def value_name(value: int) -> str:
    """How the charts write a card value: A, 2-9, T."""
    return "A" if value == 1 else "T" if value == 10 else str(value)


@dataclass(frozen=True, slots=True)
class Chart:
    """Basic strategy for one rule set: each cell's actions, best first."""

    rules: Rules
    orders: dict[Cell, tuple[Action, ...]]

    def order(self, section: str, row: int, up: int) -> tuple[Action, ...]:
        """The actions of a cell, best first."""
        return self.orders[(section, row, up)]

    def code(self, section: str, row: int, up: int) -> str:
        """The chart code of a cell: its best action, then fallbacks up to a hit or stand."""
        letters = []
        gone: set[Action] = set()
        for action in self.order(section, row, up):
            if action in gone:
                continue
            letters.append(LETTERS[action])
            if action in (Action.HIT, Action.STAND):
                break
            gone |= self._gone_without(action, section, row)
        return letters[0] + "".join(letters[1:]).lower()

    def _gone_without(self, action: Action, section: str, row: int) -> set[Action]:
        """Actions that cannot be allowed either when ``action`` is not.

        A first two-card hand may do anything the rules offer, so a missing
        double means a third card or a split hand, and a missing split means a
        split hand at the hand limit: neither may surrender, and the split hand
        doubles only with double after split (split aces only if they may be hit).
        """
        if action == Action.DOUBLE:
            return {Action.SURRENDER}
        if action == Action.SPLIT:
            rules = self.rules
            doubles = rules.double_after_split and (row != 1 or rules.hit_split_aces)
            return {Action.SURRENDER} if doubles else {Action.SURRENDER, Action.DOUBLE}
        return set()

    def rows(self) -> list[tuple[str, str, list[str]]]:
        """(section, label, codes by up card) in the published charts' order."""
        out: list[tuple[str, str, list[str]]] = []
        for total in HARD_ROWS:
            out.append(("hard", f"hard {total}", self._codes("hard", total)))
        for total in SOFT_ROWS:
            out.append(
                ("soft", f"soft {total} (A,{value_name(total - 11)})", self._codes("soft", total))
            )
        for value in PAIR_ROWS:
            name = value_name(value)
            out.append(("pair", f"pair {name},{name}", self._codes("pair", value)))
        return out

    def _codes(self, section: str, row: int) -> list[str]:
        return [self.code(section, row, up) for up in UP_CARDS]

    def to_csv(self) -> str:
        """The chart in the format of the published basic_strategy_*.csv files."""
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(["section", "player_hand", *(value_name(up) for up in UP_CARDS)])
        for section, label, codes in self.rows():
            writer.writerow([section, label, *codes])
        return buffer.getvalue()

    def to_text(self) -> str:
        """A readable chart with a legend."""
        header = "player hand       " + " ".join(f"{value_name(up):<3}" for up in UP_CARDS)
        lines = [header.rstrip()]
        section = ""
        for row_section, label, codes in self.rows():
            if row_section != section:
                section = row_section
                lines.append("")
            lines.append(f"{label:<17} " + " ".join(f"{code:<3}" for code in codes).rstrip())
        lines += [
            "",
            "H hit, S stand, D double, P split, U surrender; later letters are the",
            "fallback when the first is not allowed (Dh: double, else hit).",
        ]
        return "\n".join(lines) + "\n"

    def hit_rule(self, up: int) -> HitRule:
        """Hit or stand for hands of three or more cards against ``up``, as the chart says."""
        hard = {total: self._hits("hard", total, up) for total in range(2, 22)}
        soft = {total: self._hits("soft", total, up) for total in range(11, 22)}

        def hits(total: int, is_soft: bool) -> bool:
            return soft[total] if is_soft else hard[total]

        return hits

    def _hits(self, section: str, total: int, up: int) -> bool:
        low = HARD_ROWS[0] if section == "hard" else SOFT_ROWS[0]
        for action in self.order(section, max(total, low), up):
            if action in (Action.HIT, Action.STAND):
                return action == Action.HIT
        return True  # pragma: no cover - every cell holds a hit and a stand

    def choose(self, section: str, row: int, up: int, legal: Collection[Action]) -> Action:
        """The first action of a cell that ``legal`` allows."""
        for action in self.orders[(section, row, up)]:
            if action in legal:
                return action
        raise ValueError(f"none of the actions {sorted(legal)} is in the chart's cell")


def strategy_rules(rules: Rules) -> Rules:
    """``rules`` with every field that cannot change a decision set to one value (a cache key)."""
    return rules.replace(
        penetration=0,
        blackjack_pays="3:2" if rules.naturals else "1:1",
        insurance=False,
        max_spots=1,
        max_players=1,
        min_bet=1,
        max_bet=1,
    )


@lru_cache(maxsize=64)
def chart_for(rules: Rules) -> Chart:
    """Basic strategy for ``rules`` and its shoe's deck count (cached per rule set)."""
    return _chart_for_key(strategy_rules(rules))


@lru_cache(maxsize=32)
def _chart_for_key(rules: Rules) -> Chart:
    return build_chart(ShoeModel(rules))


def build_chart(model: ShoeModel) -> Chart:
    """Basic strategy from the expected values of ``model`` (the model's rules and shoe)."""
    rules = model.rules
    orders: dict[Cell, tuple[Action, ...]] = {}
    for up in UP_CARDS:
        exact = UpCard(rules, up) if exact_shoe(model) else None
        for total in range(4, 22):
            orders[("hard", total, up)] = _rank(
                _row_values(model, exact, up, _hard_hands(total), total)
            )
        for total in range(12, 22):
            hands = [(1, total - 11)] if total > 12 else [(1, 1)]
            orders[("soft", total, up)] = _rank(_row_values(model, exact, up, hands, total))
        for value in PAIR_ROWS:
            orders[("pair", value, up)] = _rank(
                _row_values(model, exact, up, [(value, value)], 0, pair=True)
            )
    return Chart(rules, orders)


def _hard_hands(total: int) -> list[tuple[int, int]]:
    """Two-card hard hands making ``total``: non-pairs, else the pair, else none."""
    hands = [(a, total - a) for a in range(2, 11) if a < total - a <= 10]
    if not hands and total % 2 == 0 and 2 <= total // 2 <= 10:
        hands = [(total // 2, total // 2)]
    return hands


def _rank(values: dict[Action, float]) -> tuple[Action, ...]:
    return tuple(sorted(values, key=lambda action: (-values[action], _TIE_ORDER.index(action))))


def _row_values(
    model: ShoeModel,
    exact: UpCard | None,
    up: int,
    hands: list[tuple[int, int]],
    total: int,
    *,
    pair: bool = False,
) -> dict[Action, float]:
    """Each action's value averaged over ``hands`` (weighted by their odds)."""
    if not hands:
        # Hard 21 takes three cards: value it with only the up card gone.
        return option_values(model, model.generic(up).play(), up, total, False, pair=None)
    sums: dict[Action, float] = {}
    weight = 0.0
    for first, second in hands:
        if exact is not None:
            w = exact.odds(first, second)
            values = exact.chart_options((first, second), pair=pair)
        else:
            w = model.pair_odds(up, first, second)
            play = model.situation(up, first, second).play()
            hand_total, soft = hand_state((first, second))
            values = option_values(model, play, up, hand_total, soft, pair=first if pair else None)
        weight += w
        for action, value in values.items():
            sums[action] = sums.get(action, 0.0) + w * value
    return {action: value / weight for action, value in sums.items()}


def option_values(
    model: ShoeModel, play: Play, up: int, total: int, soft: bool, *, pair: int | None
) -> dict[Action, float]:
    """Value of each action the rules offer on a first two-card hand, each played at its best."""
    rules = model.rules
    values = {Action.STAND: play.stand(total), Action.HIT: play.hit(total, soft)}
    if rules.hit_stand_only:
        return values
    if total in DOUBLE_TOTALS[rules.double_on]:
        values[Action.DOUBLE] = play.double(total, soft)
    if rules.surrender == "late":
        values[Action.SURRENDER] = play.surrender()
    if pair is not None and rules.split_by != "none":
        values[Action.SPLIT] = split_value(model, up, pair, play, _best_split_hand(rules))
    return values


def _best_split_hand(rules: Rules) -> HandValue:
    doubles = DOUBLE_TOTALS[rules.double_on] if rules.double_after_split else frozenset()

    def finish(play: Play, first: int, second: int, still_pair: bool) -> float:
        total, soft = hand_state((first, second))
        if first == 1 and not rules.hit_split_aces:
            return play.stand(total)
        best = max(play.stand(total), play.hit(total, soft))
        if total in doubles:
            best = max(best, play.double(total, soft))
        return best

    return finish


def advise(
    rules: Rules,
    hand_cards: Sequence[Card],
    dealer_up: Card,
    legal: Collection[Action],
) -> Action:
    """The basic-strategy action for a hand, falling back as the chart says when needed.

    ``legal`` is what the Round allows now; when it is the insurance question,
    the answer is no (basic strategy never insures). A split hand uses the same
    chart: what a split takes away (surrender, a double without DAS, a further
    split) is missing from ``legal``, and the cell's fallback covers it.
    """
    global _last_lookup
    last = _last_lookup
    if last is None or last[0] is not rules:
        # One identity check per call: the simulator passes the same Rules every time.
        last = _last_lookup = (rules, lookup_for(rules))
    return last[1].advise(hand_cards, dealer_up, legal)


@lru_cache(maxsize=64)
def lookup_for(rules: Rules) -> ChartLookup:
    """The chart of ``rules`` as a fast lookup: ``lookup_for(rules).advise(hand, up, legal)``."""
    chart = chart_for(rules)
    return ChartLookup(chart.orders, by_rank=chart.rules.split_by == "rank")


_last_lookup: tuple[Rules, ChartLookup] | None = None


@lru_cache(maxsize=32)
def infinite_lookup(rules: Rules) -> ChartLookup:
    """The infinite-deck chart of ``rules`` as a lookup: a few milliseconds to build, so
    it can answer while the rules' own chart is still being worked out."""
    chart = build_chart(ShoeModel(strategy_rules(rules), infinite=True))
    return ChartLookup(chart.orders, by_rank=chart.rules.split_by == "rank")


__all__ = [
    "Chart",
    "advise",
    "build_chart",
    "chart_for",
    "infinite_lookup",
    "lookup_for",
    "strategy_rules",
]
