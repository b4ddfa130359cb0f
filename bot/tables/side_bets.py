"""Side bets at a table: which are on, what a player may stake, and how each one ended.

A table takes its side bets from the server's settings when it opens (as it takes
its rules): each bet that is on, its pay table, and the side-bet limits. A pay
table that would give the player the edge at the table's decks is left off.

A player's side bets ride on each of their spots (the same amount on every spot,
like the main bet). Their results come from the round's cards only, so a round
replayed from its journal gives the same results. Each bet's spec (``bot.engine.SPECS``)
classifies its hands and says when it settles: a bet the deal decides (21+3, Perfect
Pairs) is settled with the deal, in the transaction that journals it: paid before
anyone acts, and not refunded if the round is voided later. The others (Buster, Lucky
Ladies) are paid with the round's settlement, in the same transaction as the hands'.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final

import db
from bot.engine import (
    KNOWN_PAY_TABLES,
    SIDE_BET_CATEGORIES,
    SIDE_BETS,
    SPECS,
    Card,
    Event,
    PayTable,
    PayTableError,
    Round,
    Rules,
    parse_pay_table,
)
from bot.engine.analysis import side_bet_edge
from bot.i18n import Figure, Text, _, joined

#: Each bet's name as players see it (the casinos' names, the same in every language).
SHOWN: Final[dict[str, str]] = {key: spec.shown for key, spec in SPECS.items()}
_DEAL: Final = "deal"
#: The side bets the deal decides, settled (paid and recorded) with the deal itself.
SETTLED_AT_DEAL: Final = frozenset(key for key, spec in SPECS.items() if spec.settles_at_deal)


def category_words(words: str) -> Text:
    """A winning category (the engine's words, a catalog message) in the reader's language."""
    return _(words)


#: A server's maximum side-bet house edge, in percent, until its admin sets one.
DEFAULT_MAX_EDGE_PCT: Final = db.GuildSettings().side_max_edge_pct


@dataclass(frozen=True, slots=True)
class SideBetRules:
    """The side bets a table offers: each bet that is on, by name, with its pay table."""

    tables: Mapping[str, PayTable] = field(default_factory=dict)
    min_bet: int = 1
    max_bet: int = 1_000
    #: The bets the server has on that this table leaves off, their house edge here being
    #: above ``max_edge_pct``: the pay table of each, to say so in the table's rules.
    left_off: Mapping[str, PayTable] = field(default_factory=dict)
    max_edge_pct: int = DEFAULT_MAX_EDGE_PCT

    def to_dict(self) -> dict[str, Any]:
        return {
            "tables": {bet: table.name for bet, table in self.tables.items()},
            "min": self.min_bet,
            "max": self.max_bet,
            "left_off": {bet: table.name for bet, table in self.left_off.items()},
            "max_edge": self.max_edge_pct,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> SideBetRules:
        if not data:
            return NO_SIDE_BETS
        tables = {bet: parse_pay_table(bet, name) for bet, name in data["tables"].items()}
        # A table saved before the maximum edge existed left nothing off for it.
        left_off = {
            bet: parse_pay_table(bet, name) for bet, name in data.get("left_off", {}).items()
        }
        max_edge = int(data.get("max_edge", DEFAULT_MAX_EDGE_PCT))
        return cls(tables, int(data["min"]), int(data["max"]), left_off, max_edge)


NO_SIDE_BETS: Final = SideBetRules()


def pay_table_refusal(bet: str, name: str, rules: Rules) -> Text | None:
    """Why ``name`` cannot be ``bet``'s pay table at a table of ``rules`` (it is not one of
    the bet's pay tables, or the house would keep no edge), or None: a clause without its
    full stop, to end a sentence such as "Nothing changed: ..."."""
    try:
        table = parse_pay_table(bet, name)
    except PayTableError:
        categories = SIDE_BET_CATEGORIES[bet]
        return _(
            "{bet}: {pays} is not a pay table of it: give one payout to 1 for every winning "
            "hand, or one for each of its {count} ({hands}), like {example}",
            bet=SHOWN[bet],
            pays=repr(name),
            count=len(categories),
            hands=joined([category_words(words) for words in categories]),
            example=KNOWN_PAY_TABLES[bet][-1],
        )
    edge = side_bet_edge(table, rules.decks, rules.dealer_hits_soft_17)
    if edge > 0:
        return None
    if edge == 0:
        return _(
            "{bet} paying {pays} is an even game: the house would keep nothing, so it cannot "
            "be offered",
            bet=SHOWN[bet],
            pays=table.name,
        )
    return _(
        "{bet} paying {pays} gives the player an edge of {edge}% at {decks}, so it cannot be "
        "offered",
        bet=SHOWN[bet],
        pays=table.name,
        edge=Figure(float(-edge * 100), "0.00"),
        decks=_("1 deck") if rules.decks == 1 else _("{count} decks", count=rules.decks),
    )


def edge_pct(table: PayTable, rules: Rules) -> Fraction:
    """The pay table's exact house edge at ``rules``, in percent."""
    return 100 * side_bet_edge(table, rules.decks, rules.dealer_hits_soft_17)


def side_bet_rules(settings: db.GuildSettings, rules: Rules) -> SideBetRules:
    """The side bets a new table of ``rules`` offers under the server's settings: each that
    is on, but one that would favour the player here, or whose house edge here is above the
    server's maximum (left off, and said so in the table's rules)."""
    tables: dict[str, PayTable] = {}
    left_off: dict[str, PayTable] = {}
    for bet in SIDE_BETS:
        name = settings.side_pay_table(bet)
        if name is None or pay_table_refusal(bet, name, rules) is not None:
            continue
        table = parse_pay_table(bet, name)
        if edge_pct(table, rules) > settings.side_max_edge_pct:
            left_off[bet] = table
        else:
            tables[bet] = table
    return SideBetRules(
        tables, settings.side_min_bet, settings.side_max_bet, left_off, settings.side_max_edge_pct
    )


def side_bet_refusal(offered: SideBetRules, stakes: Mapping[str, int]) -> Text | None:
    """Why these side-bet stakes (per spot) cannot be placed at the table, or None."""
    for bet, stake in stakes.items():
        if bet not in offered.tables:
            return _("{bet} is not offered at this table.", bet=SHOWN[bet])
        if not offered.min_bet <= stake <= offered.max_bet:
            return _(
                "A {bet} bet is {low} to {high} chips a hand at this table.",
                bet=SHOWN[bet],
                low=offered.min_bet,
                high=offered.max_bet,
            )
    return None


def best_side_win(offered: SideBetRules, stakes: Mapping[str, int], spots: int) -> int:
    """The most these side bets could return (for the chip limit's headroom)."""
    return spots * sum(
        stake + math.floor(stake * max(offered.tables[bet].pays)) for bet, stake in stakes.items()
    )


@dataclass(frozen=True, slots=True)
class SideBetOutcome:
    """How one side bet on one spot ended."""

    player_id: str
    spot: int
    bet: str
    pay_table: str
    stake: int
    #: The winning category's words ("straight"), or None: the bet lost.
    category: str | None
    #: Chips won besides the stake (0 when it lost).
    winnings: int

    @property
    def payout(self) -> int:
        """Every chip returned for the bet, its stake included."""
        return self.stake + self.winnings if self.category is not None else 0

    def text(self) -> Text:
        """``"21+3: straight, wins 90"``, or ``"Perfect Pairs: no pair, loses 10"``."""
        spec = SPECS[self.bet]
        if self.category is not None:
            return _(
                "{bet}: {category}, wins {amount}",
                bet=spec.shown,
                category=category_words(self.category),
                amount=self.winnings,
            )
        return _(
            "{bet}: {loss}, loses {amount}",
            bet=spec.shown,
            loss=category_words(spec.loses),
            amount=self.stake,
        )


def _first_cards(events: Sequence[Event]) -> dict[tuple[str, int], tuple[Card, Card]]:
    """Each spot's first two cards, from the round's deal events."""
    return {
        (event.player, event.hand): (event.cards[0], event.cards[1])
        for event in events
        if event.kind == _DEAL
    }


def _outcome(
    player_id: str, spot: int, table: PayTable, stake: int, category: int | None
) -> SideBetOutcome:
    if category is None:
        return SideBetOutcome(player_id, spot, table.bet, table.name, stake, None, 0)
    words = SIDE_BET_CATEGORIES[table.bet][category]
    winnings = table.winnings(stake, category)
    return SideBetOutcome(player_id, spot, table.bet, table.name, stake, words, winnings)


def side_bet_outcomes(
    round_: Round,
    offered: SideBetRules,
    stakes: Mapping[str, Mapping[str, int]],
    *,
    settled: bool,
) -> list[SideBetOutcome]:
    """The outcome of every side bet of the round, seat by seat and spot by spot.

    A bet its spec settles at the deal is known from the deal; the others only once
    the round is ``settled`` (before, they are left out).
    """
    firsts = _first_cards(round_.events)
    dealer = round_.dealer
    outcomes: list[SideBetOutcome] = []
    for player_id, bets in stakes.items():
        spots = sorted(spot for pid, spot in firsts if pid == player_id)
        for spot in spots:
            first, second = firsts[(player_id, spot)]
            for bet in SIDE_BETS:
                stake = bets.get(bet, 0)
                spec = SPECS[bet]
                if not stake or bet not in offered.tables or not (settled or spec.settles_at_deal):
                    continue
                category = spec.classify(first, second, dealer.cards, dealer.total)
                outcomes.append(_outcome(player_id, spot, offered.tables[bet], stake, category))
    return outcomes


def side_bet_results(outcomes: Sequence[SideBetOutcome]) -> list[db.SideBetResult]:
    """The store's records of the outcomes."""
    return [
        db.SideBetResult(
            user_id=int(outcome.player_id),
            spot=outcome.spot,
            bet=outcome.bet,
            pay_table=outcome.pay_table,
            category=outcome.category,
            wagered=outcome.stake,
            payout=outcome.payout,
        )
        for outcome in outcomes
    ]


def outcome_line(outcome: SideBetOutcome, name: str, spots: Mapping[str, int]) -> Text:
    """``"alice: 21+3: straight, wins 90"`` (``"alice (hand 2): ..."`` when the player plays
    more than one spot)."""
    if spots.get(outcome.player_id, 1) > 1:
        return _(
            "{player} (hand {hand}): {outcome}",
            player=name,
            hand=outcome.spot + 1,
            outcome=outcome.text(),
        )
    return _("{player}: {outcome}", player=name, outcome=outcome.text())


def outcome_lines(
    outcomes: Sequence[SideBetOutcome], names: Mapping[str, str], spots: Mapping[str, int]
) -> dict[str, list[Text]]:
    """One line per side bet (``outcome_line``), by player id."""
    lines: dict[str, list[Text]] = {}
    for outcome in outcomes:
        name = names.get(outcome.player_id, outcome.player_id)
        lines.setdefault(outcome.player_id, []).append(outcome_line(outcome, name, spots))
    return lines


def outcome_news(
    outcomes: Sequence[SideBetOutcome], names: Mapping[str, str], spots: Mapping[str, int]
) -> list[Text]:
    """The side bets as the table's news: each win on its line, each player's losses
    summed on one (``"alice: side bets lost 20"``), not one line per losing bet."""
    news: list[Text] = []
    lost: dict[str, int] = {}
    for outcome in outcomes:
        if outcome.category is None:
            lost[outcome.player_id] = lost.get(outcome.player_id, 0) + outcome.stake
            continue
        name = names.get(outcome.player_id, outcome.player_id)
        news.append(outcome_line(outcome, name, spots))
    for player_id, amount in lost.items():
        name = names.get(player_id, player_id)
        news.append(_("{player}: side bets lost {amount}", player=name, amount=amount))
    return news


def rules_lines(offered: SideBetRules, rules: Rules) -> list[str]:
    """The side bets a table offers, with pay tables and exact house edges, for /blackjack rules
    (catalog messages: said in the reader's language)."""
    lines: list[str] = []
    for bet, table in offered.tables.items():
        lines.append(
            _(
                "{bet} pays {pays} to 1 (house edge {edge}%)",
                bet=SHOWN[bet],
                pays=table.name,
                edge=Figure(float(edge_pct(table, rules)), "0.00"),
            )
        )
    if lines:
        lines.append(
            _(
                "Side bets are {low} to {high} chips a hand.",
                low=offered.min_bet,
                high=offered.max_bet,
            )
        )
    for bet, table in offered.left_off.items():
        lines.append(
            _(
                "{bet} paying {pays} is not offered at this table: its house edge here "
                "({edge}%) is above this server's maximum ({most}%).",
                bet=SHOWN[bet],
                pays=table.name,
                edge=Figure(float(edge_pct(table, rules)), "0.00"),
                most=offered.max_edge_pct,
            )
        )
    return lines
