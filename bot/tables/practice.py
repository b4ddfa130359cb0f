"""The counting trainer at a practice table: the Hi-Lo count of the table's shoe, and the
count quiz asked when a shoe is replaced (what was its final running count?).

Hi-Lo counts each card seen: +1 for a 2 to 6, 0 for a 7 to 9, -1 for a ten or an ace. The
running count is the sum since the shuffle over the cards the players have seen (the
dealer's hole card counts once it is turned); the true count is the running count per
deck left to deal (the unseen cards, the hole card among them, over 52).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from bot.engine import Card, Shoe
from bot.i18n import Figure, Text, _
from bot.tables.table import Table

#: A card's Hi-Lo tag by its value (the ace is 1).
HI_LO: Final[tuple[int, ...]] = (0, -1, 1, 1, 1, 1, 1, 0, 0, 0, -1)
#: A Count asked of a table that is not a practice table.
NOT_PRACTICE: Final = _(
    "This is not a practice table: open one with /blackjack start practice:True."
)
#: Cards in a deck.
DECK_SIZE: Final = 52


@dataclass(frozen=True, slots=True)
class Count:
    """The Hi-Lo count of a shoe as the players have seen it."""

    running: int
    #: Cards not seen yet: those left to deal, and the hole card while it is face down.
    unseen: int

    @property
    def decks_left(self) -> float:
        return self.unseen / DECK_SIZE

    @property
    def true_count(self) -> float:
        """The running count per deck left (0 when none is left)."""
        return self.running / self.decks_left if self.unseen else 0.0


def hi_lo(cards: list[Card]) -> int:
    """The Hi-Lo count of ``cards``."""
    return sum(HI_LO[card.value] for card in cards)


def table_count(table: Table) -> Count:
    """The count of the table's shoe now: every card dealt since the shuffle but a hole
    card still face down."""
    shoe = table.shoe
    seen = list(shoe.cards[: shoe.position])
    hidden: list[Card] = []
    round_ = table.round
    if round_ is not None and not round_.is_finished:
        hidden = list(round_.dealer.cards[len(round_.dealer_cards_shown) :])
    return Count(hi_lo(seen) - hi_lo(hidden), shoe.cards_left + len(hidden))


def count_text(count: Count) -> Text:
    """The Count button's answer."""
    return _(
        "Hi-Lo running count: {running}. Decks left: {decks}. True count: {true}.",
        running=Figure(count.running, "+0;\u22120"),
        decks=Figure(count.decks_left, "0.0"),
        true=Figure(count.true_count, "+0.0;\u22120.0"),
    )


#: The line a practice table shows when it replaces its shoe.
QUIZ_ASKED: Final = _(
    "Count quiz: what was the Hi-Lo running count when that shoe ended? Answer with the Quiz "
    "button."
)
NO_QUIZ: Final = _("No count quiz is open at this table: one is asked when the shoe is replaced.")
NOT_A_COUNT: Final = _("Answer with a whole number from -200 to 200, such as +3 or -2.")
#: The largest running count the quiz takes (a shoe of 8 decks counts at most 160 either way).
MOST_COUNT: Final = 200
_COUNT: Final = re.compile(r"[+-]?\d{1,3}")


def quiz_of(finished: Shoe) -> tuple[str, int]:
    """The quiz on a finished shoe: its commitment and its final running count."""
    return finished.commitment, hi_lo(list(finished.cards[: finished.position]))


def read_count(text: str) -> int | None:
    """A count as a player writes it ("+3", "-2", "−2", "0"), or None."""
    written = text.strip().replace("\u2212", "-")
    if _COUNT.fullmatch(written) is None or abs(int(written)) > MOST_COUNT:
        return None
    return int(written)


def quiz_verdict(answer: int, running: int) -> Text:
    """What the quiz says to an answer."""
    shown = {"running": Figure(running, "+0;\u22120"), "answer": Figure(answer, "+0;\u22120")}
    if answer == running:
        return _("Right: the running count was {running}.", **shown)
    return _("The running count was {running}; you said {answer}.", **shown)
