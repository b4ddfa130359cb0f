"""What makes a side bet: one ``SideBetSpec`` each, listed in ``bot.engine.side_bets.SPECS``.

Everything else reads the spec: the ``/bet`` option, the admin's setting, the rules
text, rendering, settlement and the journal's replay (``bot.tables``), the exact house
edge (``bot.engine.analysis``), ``simulate`` and ``python -m bot side-bets``. A bet's
words (its categories, its loss) are English catalog messages: ``N_`` marks them for
the catalogs, and the table service says them in the reader's language.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from bot.engine.cards import Card

#: A bet's category (index into its categories) from the spot's first two cards, the
#: dealer's cards (up card first, then the hole card and any drawn) and the dealer's
#: total; None when the bet lost.
Classify = Callable[[Card, Card, Sequence[Card], int], "int | None"]
#: The exact probability of each category off the top of a fresh shoe of ``decks``
#: decks (``dealer_hits_soft_17`` for bets the dealer's drawing decides).
Odds = Callable[[int, bool], tuple[Fraction, ...]]


def N_(words: str) -> str:
    """``words`` unchanged, marked for the message catalogs (said later by ``bot.i18n._``)."""
    return words


@dataclass(frozen=True, slots=True)
class SideBetSpec:
    """One side bet: its names, pay tables, when it settles, and its hooks."""

    #: The bet's id in the database, the journal and the JSON output ("21+3").
    key: str
    #: Its name as players see it: the casinos' name, the same in every language.
    shown: str
    #: The option that stakes it on ``/bet`` ("perfect_pairs"), and its description there.
    option: str
    describe: str
    #: Its winning categories in the order of a pay table's payouts (catalog messages).
    categories: tuple[str, ...]
    #: How a losing hand is said ("no pair"; a catalog message).
    loses: str
    #: The pay tables casinos use, named by their payouts; the first is the default.
    pay_tables: tuple[str, ...]
    #: How the pay tables are written, for the admin ("by cards, 3 to 8+"; "" when highest
    #: category first, the usual order).
    pay_order: str
    #: True when the deal decides it (paid with the deal, before anyone acts); False when
    #: it waits for the round's settlement.
    settles_at_deal: bool
    #: True when a live bet has the dealer draw to the rules whatever the players hold.
    dealer_plays_out: bool
    classify: Classify
    odds: Odds
