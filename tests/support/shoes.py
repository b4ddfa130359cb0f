"""Stacked shoes: a test deals exactly the cards it names (STYLE.md: "tests deal from a
stacked shoe"), then seeded real shoes."""

from __future__ import annotations

from collections import deque

from bot.engine import Rules, Shoe, StackedShoe, parse_cards

#: Chips a new account starts with (the guild default).
START_CHIPS = 1000
#: Cards that finish nothing on their own, so a stacked shoe lasts past the round (and the
#: cut card is not reached).
SPARE = " ".join(["2c"] * 30)


def stacked(text: str, seed: int = 1) -> StackedShoe:
    """A shoe dealing exactly ``text`` ("8s Th Ac ..."), with its own seed so that
    each shoe has its own commitment and can be revealed like a real one."""
    shoe = StackedShoe(parse_cards(text))
    shoe.seed = bytes([seed]) * 32
    return shoe


class ShoeQueue:
    """A shoe factory: the stacked shoes a test queued, then seeded real shoes."""

    def __init__(self) -> None:
        self.queue: deque[Shoe] = deque()
        self.made = 0

    def add(self, text: str) -> None:
        """The next table (or reshuffle) deals exactly ``text`` ("8s Th Ac ...")."""
        self.queue.append(stacked(text, seed=len(self.queue) + 100))

    def __call__(self, rules: Rules) -> Shoe:
        self.made += 1
        if self.queue:
            return self.queue.popleft()
        return Shoe(rules.decks, rules.penetration, bytes([self.made]) * 32)


# Alice 8 8 (splits, doubles the first hand), Bob 10 6 (surrenders), Carol A K (blackjack);
# the dealer shows an ace (insurance offered, everyone declines), holds a 5 and draws a 2: 18.
THREE_PLAYER_ROUND = "8s Th Ac Ad 8h 6h Kc 5d 3s Td Kh " + SPARE
