"""One blackjack hand: its cards, hard and soft totals, and what has happened to it."""

from __future__ import annotations

from bot.engine.cards import RANK_VALUES, Card


class Hand:
    """A player's (or the dealer's) hand.

    ``total`` is the best total (an ace counts 11 when that does not bust the hand) and
    ``is_soft`` says an ace is counted as 11. The round sets the flags; the totals are
    kept up to date card by card so reading them costs nothing.
    """

    __slots__ = (
        "_aces",
        "_hard",
        "_natural_ok",
        "cards",
        "doubled",
        "is_finished",
        "is_soft",
        "natural",
        "outcome",
        "payout",
        "rounded_down",
        "split",
        "split_aces",
        "spot",
        "stake",
        "surrendered",
        "total",
    )

    def __init__(
        self, stake: int = 0, spot: int = 0, naturals: bool = True, split: bool = False
    ) -> None:
        self.cards: list[Card] = []
        self._hard = 0
        self._aces = 0
        self.total = 0
        self.is_soft = False
        self.stake = stake
        self.spot = spot
        self.split = split
        self._natural_ok = naturals and not split
        #: Kept equal to ``is_blackjack`` card by card, so the round reads a plain attribute.
        self.natural = False
        self.split_aces = False
        self.doubled = False
        self.surrendered = False
        self.is_finished = False
        #: Set at settlement: an Outcome value, the chips returned, and whether a
        #: fraction of a chip was rounded down.
        self.outcome = ""
        self.payout = 0
        self.rounded_down = False

    @classmethod
    def of(cls, cards: list[Card], *, naturals: bool = True, split: bool = False) -> Hand:
        """A hand holding ``cards`` (handy in tests and renderers)."""
        hand = cls(naturals=naturals, split=split)
        for card in cards:
            hand.add(card)
        return hand

    def add(self, card: Card) -> None:
        """Take one card and update the totals."""
        self.cards.append(card)
        self.natural = False  # a natural has exactly two cards
        if card.rank == 1:
            self._aces += 1
        hard = self._hard + RANK_VALUES[card.rank]
        self._hard = hard
        if self._aces and hard <= 11:
            self.total = hard + 10
            self.is_soft = True
            if hard == 11 and len(self.cards) == 2:
                self.natural = self._natural_ok
        else:
            self.total = hard
            self.is_soft = False

    def take_two(self, first: Card, second: Card) -> None:
        """Take the two cards of the deal (one step instead of two ``add`` calls)."""
        self.cards = [first, second]
        one, two = first.rank, second.rank
        aces = (one == 1) + (two == 1)
        hard = RANK_VALUES[one] + RANK_VALUES[two]
        self._hard = hard
        self._aces = aces
        if aces and hard <= 11:
            self.total = hard + 10
            self.is_soft = True
            self.natural = hard == 11 and self._natural_ok
        else:
            self.total = hard
            self.is_soft = False
            self.natural = False

    def mark_split(self) -> Card:
        """Take the second card away for a split; this hand keeps the first card."""
        moved = self.cards.pop()
        kept = self.cards
        self.cards = []
        self._hard = self._aces = self.total = 0
        self.is_soft = False
        self.split = True
        self._natural_ok = False
        self.natural = False
        for card in kept:
            self.add(card)
        return moved

    @property
    def is_blackjack(self) -> bool:
        """A two-card 21 on an unsplit hand, at a table where naturals count."""
        return self.natural

    @property
    def is_bust(self) -> bool:
        return self.total > 21

    @property
    def is_pair(self) -> bool:
        """Two cards of the same blackjack value."""
        cards = self.cards
        return len(cards) == 2 and RANK_VALUES[cards[0].rank] == RANK_VALUES[cards[1].rank]

    def describe(self) -> str:
        """Cards and total, e.g. ``"A♠ 6♥ (soft 17)"``."""
        cards = " ".join(str(card) for card in self.cards)
        soft = "soft " if self.is_soft and self.total < 21 else ""
        return f"{cards} ({soft}{self.total})"

    def __repr__(self) -> str:
        return f"Hand({self.describe()}, stake={self.stake})"
