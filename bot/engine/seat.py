"""A player's place at the table."""

from __future__ import annotations

from bot.engine.hand import Hand


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
