"""The dealer's play and the settlement that ends a round.

Written out card by card (no method call per card): it runs once a round, and the
simulator plays millions of rounds.
"""

from __future__ import annotations

from typing import Final

from bot.engine.cards import Card
from bot.engine.events import EventKind
from bot.engine.round_state import RATIOS, RoundPhase, RoundState
from bot.engine.rules import Rules
from bot.engine.seat import insurance_payout
from bot.engine.settlement import settle_hand

# Enum members bound to module names: ``Enum.MEMBER`` costs a descriptor call in CPython 3.11.
_SETTLED: Final = RoundPhase.SETTLED
_EV_DEALER_BUSTS: Final = EventKind.DEALER_BUSTS
_EV_DEALER_HIT: Final = EventKind.DEALER_HIT
_EV_DEALER_STANDS: Final = EventKind.DEALER_STANDS
_EV_INSURANCE_RESULT: Final = EventKind.INSURANCE_RESULT
_EV_RESULT: Final = EventKind.RESULT
_EV_REVEAL: Final = EventKind.REVEAL
_NO_CARDS: Final[tuple[Card, ...]] = ()


def dealer_must_hit(total: int, soft: bool, rules: Rules) -> bool:
    """Whether the dealer draws on ``total``: below 17 always, soft 17 when the rules say so."""
    return total < 17 or (total == 17 and soft and rules.dealer_hits_soft_17)


def dealer_turn(round_: RoundState) -> None:
    """The hole card turned, the dealer drawn to the rules (when any hand is still live,
    or the round says the dealer plays out), then settlement."""
    dealer = round_.dealer
    log = round_._log.append
    log((_EV_REVEAL, "", 0, (dealer.cards[1],), dealer.total, 0, ""))
    live = round_.dealer_plays_out and not dealer.natural
    if not (dealer.natural or live):
        for seat in round_.seats:
            for hand in seat.hands:
                if not (hand.surrendered or hand.total > 21 or hand.natural):
                    live = True
    if live:
        rules = round_.rules
        shoe = round_.shoe
        while dealer_must_hit(dealer.total, dealer.is_soft, rules):
            position = shoe.position
            if position < shoe.size:
                shoe.position = position + 1
                card = shoe.cards[position]
            else:
                card = round_._draw()
            dealer.add(card)
            log((_EV_DEALER_HIT, "", 0, (card,), dealer.total, 0, ""))
        if dealer.total > 21:
            log((_EV_DEALER_BUSTS, "", 0, _NO_CARDS, dealer.total, 0, ""))
        else:
            log((_EV_DEALER_STANDS, "", 0, _NO_CARDS, dealer.total, 0, ""))
    settle(round_)


def settle(round_: RoundState) -> None:
    """Settle every hand and insurance bet against the dealer; the round is over."""
    dealer = round_.dealer
    dealer_blackjack = dealer.natural
    numerator, denominator = RATIOS[round_.rules.blackjack_pays]
    log = round_._log.append
    for seat in round_.seats:
        for index, hand in enumerate(seat.hands):
            settle_hand(hand, dealer, dealer_blackjack, numerator, denominator)
            log((_EV_RESULT, seat.player_id, index, _NO_CARDS, hand.total,
                 hand.payout, ""))  # fmt: skip
        if seat.insurance:
            payout = insurance_payout(seat.insurance, dealer_blackjack)
            log((_EV_INSURANCE_RESULT, seat.player_id, 0, _NO_CARDS, 0, payout, ""))
    round_.phase = _SETTLED
