"""The state of a round and the ways to read it; ``Round`` adds the deal and the actions."""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from bot.engine.cards import Card
from bot.engine.errors import NoSuchHand, NoSuchPlayer, RoundNotSettled
from bot.engine.events import Event, EventKind, RawEvent
from bot.engine.hand import Hand
from bot.engine.rules import BLACKJACK_PAYS, Rules
from bot.engine.seat import Seat, insurance_payout
from bot.engine.settlement import Settlement, build_events, build_settlement
from bot.engine.shoe import Shoe


class RoundPhase(StrEnum):
    """Where a round stands; see the module docstring."""

    INSURANCE = "insurance"
    PLAYING = "playing"
    SETTLED = "settled"


#: blackjack_pays -> (numerator, denominator); a dict lookup instead of a Fraction per round.
RATIOS: Final[dict[str, tuple[int, int]]] = {
    pays: (int(pays.split(":")[0]), int(pays.split(":")[1])) for pays in BLACKJACK_PAYS
}


# Enum members as constants: ``Enum.MEMBER`` costs a descriptor call in CPython 3.11.
_SETTLED: Final = RoundPhase.SETTLED
_PLAYING: Final = RoundPhase.PLAYING
_EV_CONTINUATION: Final = EventKind.CONTINUATION
_NO_CARDS: Final[tuple[Card, ...]] = ()


class RoundState:
    """Everything a round holds, and the read-only questions a table asks of it."""

    __slots__ = (
        "_live",
        "_log",
        "_moves",
        "_seat_of",
        "dealer",
        "dealer_plays_out",
        "phase",
        "rules",
        "seats",
        "shoe",
    )

    def __init__(self, rules: Rules, shoe: Shoe) -> None:
        """An empty round; ``Round.deal`` and ``Round.from_json`` fill it in."""
        self.rules = rules
        self.shoe = shoe
        self.seats: list[Seat] = []
        self._seat_of: dict[str, Seat] = {}
        self.dealer = Hand(0, 0, rules.naturals)
        #: The dealer draws to the rules even when no hand is left to beat (a Buster
        #: side bet is live): the hand is played out unless the dealer has a blackjack.
        self.dealer_plays_out = False
        self.phase = _PLAYING
        self._log: list[RawEvent] = []
        self._live = 0
        #: Actions applied so far: a ``Verdict`` is good only for the move it was judged at.
        self._moves = 0

    def _draw(self) -> Card:
        """The next card from the shoe (a continuation shoe's, logged, when it runs out)."""
        shoe = self.shoe
        continuation = shoe.continuation
        card = shoe.draw()
        # Asked of the shoe, not guessed: a lazily shuffled shoe (the simulator's) runs out
        # of shuffled cards many times a round without continuing.
        if shoe.continuation != continuation:
            self._log.append((_EV_CONTINUATION, "", 0, _NO_CARDS, 0, shoe.continuation, ""))
        return card

    def _seat(self, player_id: str) -> Seat:
        seat = self._seat_of.get(player_id)
        if seat is None:
            raise NoSuchPlayer(f"{player_id} has no hand in this round")
        return seat

    def _hand(self, seat: Seat, hand_index: int) -> Hand:
        if not 0 <= hand_index < len(seat.hands):
            raise NoSuchHand(f"{seat.player_id} has no hand {hand_index + 1}")
        return seat.hands[hand_index]

    # ------------------------------------------------------------- reading

    @property
    def is_finished(self) -> bool:
        return self.phase is _SETTLED

    @property
    def players(self) -> tuple[str, ...]:
        """Player ids in seat order."""
        return tuple(seat.player_id for seat in self.seats)

    def has_player(self, player_id: str) -> bool:
        """Whether the player holds hands in this round (``player_id in players``, without
        building the tuple: a snapshot asks it of every seat after each change)."""
        return player_id in self._seat_of

    def hands(self, player_id: str) -> tuple[Hand, ...]:
        """The player's hands in order (spots, with split hands after their spot)."""
        return tuple(self._seat(player_id).hands)

    def current_hand_index(self, player_id: str) -> int | None:
        """Index of the player's first unfinished hand, or None."""
        if self.phase is not RoundPhase.PLAYING:
            return None
        for index, hand in enumerate(self._seat(player_id).hands):
            if not hand.is_finished:
                return index
        return None

    def players_to_act(self) -> list[str]:
        """Players with a decision to make now, in seat order."""
        if self.phase is RoundPhase.INSURANCE:
            return [seat.player_id for seat in self.seats if not seat.insurance_decided]
        if self.phase is RoundPhase.PLAYING:
            return [
                seat.player_id
                for seat in self.seats
                if any(not hand.is_finished for hand in seat.hands)
            ]
        return []

    def insurance_stake(self, player_id: str) -> int:
        """Chips the player has on insurance (0 if none)."""
        return self._seat(player_id).insurance

    @property
    def dealer_up_card(self) -> Card:
        return self.dealer.cards[0]

    @property
    def dealer_cards_shown(self) -> tuple[Card, ...]:
        """The dealer's cards a player can see: the up card until the hole card is turned."""
        if self.phase is RoundPhase.SETTLED:
            return tuple(self.dealer.cards)
        return (self.dealer.cards[0],)

    @property
    def events(self) -> list[Event]:
        """Everything that happened so far, in order."""
        return self._events(0)

    def _events(self, start: int) -> list[Event]:
        return build_events(self._log, start, self.seats, self.dealer)

    def net(self, player_id: str) -> int:
        """Chips the player won (negative: lost) in the settled round, insurance included:
        ``settlement().player(player_id).net`` without building the settlement."""
        if self.phase is not _SETTLED:
            raise RoundNotSettled("the round is not settled yet")
        seat = self._seat(player_id)
        net = 0
        for hand in seat.hands:
            net += hand.payout - hand.stake
        if seat.insurance:
            net += insurance_payout(seat.insurance, self.dealer.natural) - seat.insurance
        return net

    def settlement(self) -> Settlement:
        """Each hand's outcome and payout, each player's insurance and totals."""
        if self.phase is not RoundPhase.SETTLED:
            raise RoundNotSettled("the round is not settled yet")
        return build_settlement(self.seats, self.dealer)
