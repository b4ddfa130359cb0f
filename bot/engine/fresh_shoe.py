"""A fresh, fully shuffled shoe every round, shuffled only as far as it is dealt.

The simulator's ``--penetration 0`` plays every round from a newly shuffled
shoe. A full shuffle of 312 cards costs far more than the round dealt from it,
yet a round deals only five or six cards. Fisher–Yates from the top (the
shuffle of ``bot.engine.shoe``) fixes position ``n - 1`` with its first step,
``n - 2`` with its second, and so on: after ``k`` steps the last ``k``
positions already hold exactly what the full shuffle would put there. So this
shoe deals from the bottom up and runs one shuffle step per card dealt.

Its first shoe is the shoe of ``bot.engine.shoe.shuffled_order(seed, decks)``
dealt in reverse (reversing a uniformly shuffled shoe leaves it uniformly
shuffled). ``reshuffle()`` starts the next shoe from a fresh ordered shoe and
draws its shuffle steps from the same 16-bit number stream, where the previous
shoe stopped, so every shoe is an exact, independent uniform shuffle and the
whole sequence is a function of the seed.
"""

from __future__ import annotations

from typing import Any, Final

from bot.engine.cards import DECK, Card
from bot.engine.shoe import _LIMITS, SEED_BYTES, Shoe, ShoeError, _Stream

#: Blocks of the number stream fetched at once (16 numbers each).
_BLOCKS: Final = 16
#: Cards shuffled into place when a shoe starts: one spot's deal. Later cards are
#: shuffled as the Round draws them.
_FIRST: Final = 4


class FreshShoe(Shoe):
    """A shoe shuffled lazily, one Fisher–Yates step per card; ``reshuffle()`` per round."""

    __slots__ = ("_block", "_fresh", "_next", "_order", "_step", "_stream", "_words")

    def __init__(self, decks: int, seed: bytes) -> None:
        if not isinstance(seed, bytes) or len(seed) != SEED_BYTES:
            raise ShoeError(f"a shoe seed is {SEED_BYTES} bytes")
        if not 1 <= decks <= 8:
            raise ShoeError(f"a shoe has 1 to 8 decks, not {decks}")
        self.seed = seed
        self.decks = decks
        self.penetration = 0.0
        self.continuation = 0
        self._cut = 0
        self._stream = _Stream(seed)
        self._block = 0
        self._words: tuple[int, ...] = ()
        self._next = 0
        self._fresh: list[Card] = list(DECK) * decks
        self._start()

    def reshuffle(self) -> None:
        """Start the next shoe: a fresh ordered shoe, shuffled with the stream's next numbers."""
        self.continuation = 0
        self._start()

    def _start(self) -> None:
        self._order = self._fresh.copy()
        self._step = len(self._order) - 1
        #: The cards dealt so far and the ones shuffled into place for the next draws.
        self.cards = []
        self.position = 0
        self.size = 0
        for _ in range(_FIRST):
            self._shuffle_one()

    def _shuffle_one(self) -> None:
        """One Fisher–Yates step: fix the next position from the bottom and append its card."""
        order = self._order
        i = self._step
        if i > 0:
            bound = i + 1
            limit = _LIMITS[bound]
            while True:
                if self._next == len(self._words):
                    self._words = self._stream.words(self._block, _BLOCKS)
                    self._block += _BLOCKS
                    self._next = 0
                x = self._words[self._next]
                self._next += 1
                if x < limit:  # larger numbers are skipped so the choice is exactly uniform
                    break
            j = x % bound
            order[i], order[j] = order[j], order[i]
        self.cards.append(order[i])
        self._step = i - 1
        self.size += 1

    def draw(self) -> Card:
        """Deal the next card, shuffling it into place first; an empty shoe starts another."""
        if self.position == self.size:
            if self._step < 0:
                # Every card of this shoe is out: go on with the next shoe of the stream.
                continuation = self.continuation + 1
                self._start()
                self.continuation = continuation
            else:
                self._shuffle_one()
        position = self.position
        self.position = position + 1
        return self.cards[position]

    @property
    def cut_card_reached(self) -> bool:
        """Always: the next round gets a fresh shoe."""
        return True

    def to_dict(self) -> dict[str, Any]:
        """A lazily shuffled shoe is a simulator's: it is described, not restorable."""
        return {"kind": "fresh", "seed": self.seed.hex(), "decks": self.decks}
