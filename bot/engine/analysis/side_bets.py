"""Exact house edges of the side bets in ``bot.engine.side_bets``, over a fresh shoe.

Every figure is a ``Fraction``: the probability of each category counted exactly,
off the top of a fresh shoe of ``decks`` decks, with no other card known (the
convention of published side-bet tables). The house edge of a pay table is
``1 - sum(p * (pays + 1))``, the share of each chip staked the player loses on
average; at or below zero the table gives the player the edge.

- 21+3 and Perfect Pairs by counting combinations of three and two cards.
- Buster by following the dealer's drawing process card by card (the Round's own
  draw rule, ``dealer_must_hit``), so it depends on the soft-17 rule: the
  probability that the dealer busts with 3, 4, ... 8 or more cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb

from bot.engine.dealer_play import dealer_must_hit
from bot.engine.rules import Rules
from bot.engine.side_bets import (
    BUSTER,
    KNOWN_PAY_TABLES,
    PERFECT_PAIRS,
    SIDE_BETS,
    TWENTY_ONE_PLUS_THREE,
    PayTable,
    parse_pay_table,
)


@cache
def twenty_one_plus_three_odds(decks: int) -> tuple[Fraction, ...]:
    """Probability of each 21+3 category (``SIDE_BET_CATEGORIES`` order) for three cards."""
    n = decks
    total = comb(52 * n, 3)
    suited_trips = 52 * comb(n, 3)
    trips = 13 * comb(4 * n, 3) - suited_trips
    straight_flush = 12 * 4 * n**3
    straight = 12 * (4 * n) ** 3 - straight_flush
    # Three cards of one suit, less the straight flushes and suited trips among them.
    flush = 4 * (comb(13 * n, 3) - 12 * n**3 - 13 * comb(n, 3))
    counts = (suited_trips, straight_flush, trips, straight, flush)
    return tuple(Fraction(count, total) for count in counts)


@cache
def perfect_pairs_odds(decks: int) -> tuple[Fraction, ...]:
    """Probability of each Perfect Pairs category for two cards of the shoe."""
    n = decks
    total = comb(52 * n, 2)
    perfect = 52 * comb(n, 2)
    # Each colour has two suits: one card of each.
    coloured = 13 * 2 * n * n
    mixed = 13 * (2 * n) * (2 * n)
    return tuple(Fraction(count, total) for count in (perfect, coloured, mixed))


@cache
def buster_odds(decks: int, dealer_hits_soft_17: bool) -> tuple[Fraction, ...]:
    """Probability that the dealer busts with 3, 4, 5, 6, 7 and 8 or more cards."""
    rules = Rules(decks=decks, penetration=0, dealer_hits_soft_17=dealer_hits_soft_17)
    shoe = [4 * decks] * 9 + [16 * decks]
    memo: dict[tuple[int, ...], tuple[Fraction, ...]] = {}
    nothing = (Fraction(0),) * 6

    def draw(hard: int, ace: bool, cards: int, left: int) -> tuple[Fraction, ...]:
        total, soft = (hard + 10, True) if ace and hard <= 11 else (hard, False)
        if total > 21:
            return tuple(Fraction(int(k == min(cards, 8) - 3)) for k in range(6))
        if cards >= 2 and not dealer_must_hit(total, soft, rules):
            return nothing
        key = tuple(shoe)
        cached = memo.get(key)
        if cached is not None:
            return cached
        result = [Fraction(0)] * 6
        for index in range(10):
            count = shoe[index]
            if not count:
                continue
            shoe[index] = count - 1
            sub = draw(hard + index + 1, ace or index == 0, cards + 1, left - 1)
            shoe[index] = count
            p = Fraction(count, left)
            for k in range(6):
                if sub[k]:
                    result[k] += p * sub[k]
        memo[key] = tuple(result)
        return memo[key]

    return draw(0, False, 0, sum(shoe))


def category_odds(bet: str, decks: int, dealer_hits_soft_17: bool) -> tuple[Fraction, ...]:
    """Probability of each of ``bet``'s categories, in the order of its pay tables."""
    if bet == TWENTY_ONE_PLUS_THREE:
        return twenty_one_plus_three_odds(decks)
    if bet == PERFECT_PAIRS:
        return perfect_pairs_odds(decks)
    if bet == BUSTER:
        return buster_odds(decks, dealer_hits_soft_17)
    raise ValueError(f"there is no side bet called {bet!r}")


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
