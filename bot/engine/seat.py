"""A player's place at the table."""

from __future__ import annotations

from typing import Final

from bot.engine.hand import Hand

#: Insurance pays 2:1: the one place the side bet's odds are written.
INSURANCE_PAYS: Final = 2


class Seat:
    """One player's place at the table: their hands (spots and split hands, in
    order) and their insurance decision."""

    __slots__ = ("hands", "insurance", "insurance_decided", "player_id", "timed_out")

    def __init__(self, player_id: str, hands: list[Hand]) -> None:
        self.player_id = player_id
        self.hands = hands
        #: Chips on the insurance side bet (0 when declined or not offered).
        self.insurance = 0
        self.insurance_decided = True
        #: Timed out (or left) during insurance: stand every hand as soon as play starts.
        self.timed_out = False


def insurance_cost(seat: Seat) -> int:
    """Half of each of the seat's stakes, rounded down."""
    return sum(hand.stake // 2 for hand in seat.hands)


def insurance_payout(stake: int, dealer_blackjack: bool) -> int:
    """What an insurance bet of ``stake`` returns: the stake and its 2:1 winnings when the
    dealer has blackjack, else nothing."""
    return (INSURANCE_PAYS + 1) * stake if dealer_blackjack else 0
