"""Exact house edges of the side bets in ``bot.engine.side_bets``, over a fresh shoe.

Every figure is a ``Fraction``: the probability of each category counted exactly,
off the top of a fresh shoe of ``decks`` decks, with no other card known (the
convention of published side-bet tables). The house edge of a pay table is
``1 - sum(p * (pays + 1))``, the share of each chip staked the player loses on
average; at or below zero the table gives the player the edge.

Each bet's probabilities come from its spec's odds hook (``SideBetSpec.odds``): 21+3,
Perfect Pairs and Lucky Ladies count combinations of cards; Buster follows the
dealer's drawing card by card, so it depends on the soft-17 rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from bot.engine.rules import Rules
from bot.engine.side_bet_buster import buster_odds
from bot.engine.side_bet_three_card import perfect_pairs_odds, twenty_one_plus_three_odds
from bot.engine.side_bets import KNOWN_PAY_TABLES, SIDE_BETS, SPECS, PayTable, parse_pay_table

__all__ = [
    "SideBetEdge",
    "buster_odds",
    "category_odds",
    "edge_of",
    "known_edges",
    "perfect_pairs_odds",
    "player_favourable",
    "side_bet_edge",
    "twenty_one_plus_three_odds",
]


def category_odds(bet: str, decks: int, dealer_hits_soft_17: bool) -> tuple[Fraction, ...]:
    """Probability of each of ``bet``'s categories, in the order of its pay tables (the
    bet's own odds hook)."""
    spec = SPECS.get(bet)
    if spec is None:
        raise ValueError(f"there is no side bet called {bet!r}")
    return spec.odds(decks, dealer_hits_soft_17)


def side_bet_edge(table: PayTable, decks: int, dealer_hits_soft_17: bool) -> Fraction:
    """The house edge of ``table`` as a share of the stake (negative: the player's edge)."""
    odds = category_odds(table.bet, decks, dealer_hits_soft_17)
    return 1 - sum((p * (pay + 1) for p, pay in zip(odds, table.pays, strict=True)), Fraction(0))


@dataclass(frozen=True, slots=True)
class SideBetEdge:
    """One pay table's exact house edge at a number of decks and soft-17 rule."""

    bet: str
    pay_table: str
    decks: int
    dealer_hits_soft_17: bool
    house_edge: Fraction

    @property
    def house_edge_pct(self) -> float:
        return float(self.house_edge * 100)

    def to_dict(self) -> dict[str, object]:
        return {
            "bet": self.bet,
            "pay_table": self.pay_table,
            "decks": self.decks,
            "soft17": "hit" if self.dealer_hits_soft_17 else "stand",
            "house_edge_pct": self.house_edge_pct,
            "house_edge": f"{self.house_edge.numerator}/{self.house_edge.denominator}",
        }


def edge_of(table: PayTable, decks: int, dealer_hits_soft_17: bool) -> SideBetEdge:
    return SideBetEdge(
        table.bet,
        table.name,
        decks,
        dealer_hits_soft_17,
        side_bet_edge(table, decks, dealer_hits_soft_17),
    )


def known_edges(decks: int, dealer_hits_soft_17: bool) -> list[SideBetEdge]:
    """The house edge of every known pay table of every side bet."""
    return [
        edge_of(parse_pay_table(bet, name), decks, dealer_hits_soft_17)
        for bet in SIDE_BETS
        for name in KNOWN_PAY_TABLES[bet]
    ]


def player_favourable(table: PayTable, rules: Rules, bet_name: str | None = None) -> str | None:
    """Why ``table`` cannot be offered at a table of ``rules`` (the player would have the
    edge, or none), or None when the house keeps an edge. ``bet_name``: the bet as the
    sentence names it (default its id, ``perfect-pairs``)."""
    edge = side_bet_edge(table, rules.decks, rules.dealer_hits_soft_17)
    if edge > 0:
        return None
    bet = bet_name or table.bet
    pays = table.name
    figure = f"{float(-edge * 100):.2f}%"
    if edge < 0 and rules.decks == 1:
        return (
            f"{bet} paying {pays} gives the player an edge of {figure} at 1 deck, "
            "so it cannot be offered."
        )
    if edge < 0:
        return (
            f"{bet} paying {pays} gives the player an edge of {figure} at {rules.decks} decks, "
            "so it cannot be offered."
        )
    return (
        f"{bet} paying {pays} is an even game: the house would keep nothing, "
        "so it cannot be offered."
    )
