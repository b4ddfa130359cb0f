"""Settling a round: each hand's outcome and whole-chip payout, and the totals."""

from __future__ import annotations

from enum import StrEnum
from typing import Final, NamedTuple

from bot.engine.cards import Card
from bot.engine.events import Event, EventKind, RawEvent
from bot.engine.hand import Hand
from bot.engine.seat import Seat, insurance_payout


class Outcome(StrEnum):
    """How a hand ended. ``payout`` is always the chips returned, stake included."""

    WIN = "win"  # payout 2 x stake
    LOSE = "lose"  # payout 0 (includes losing to a dealer blackjack, surrendered or not)
    PUSH = "push"  # payout = stake
    BLACKJACK = "blackjack"  # payout = stake + stake x blackjack ratio, rounded down
    SURRENDER = "surrender"  # payout = half the stake, rounded down (no dealer blackjack)
    BUST = "bust"  # payout 0, even if the dealer busts later


_WIN: Final = Outcome.WIN
_LOSE: Final = Outcome.LOSE
_PUSH: Final = Outcome.PUSH
_BLACKJACK: Final = Outcome.BLACKJACK
_SURRENDER: Final = Outcome.SURRENDER
_BUST: Final = Outcome.BUST


def settle_hand(
    hand: Hand, dealer: Hand, dealer_blackjack: bool, numerator: int, denominator: int
) -> None:
    """Set ``hand.outcome``, ``hand.payout`` and ``hand.rounded_down`` against the dealer."""
    stake = hand.stake
    total = hand.total
    if total > 21:
        hand.outcome, hand.payout = _BUST, 0
    elif dealer_blackjack:
        # With the peek a dealer blackjack ends the round before anyone acts; without
        # it, the blackjack takes doubles, splits and a surrendered hand alike.
        if hand.natural:
            hand.outcome, hand.payout = _PUSH, stake
        else:
            hand.outcome, hand.payout = _LOSE, 0
    elif hand.surrendered:
        hand.outcome, hand.payout, hand.rounded_down = _SURRENDER, stake // 2, stake % 2 == 1
    elif hand.natural:
        won = stake * numerator
        hand.outcome, hand.payout = _BLACKJACK, stake + won // denominator
        hand.rounded_down = won % denominator != 0
    else:
        dealer_total = dealer.total
        if dealer_total > 21 or total > dealer_total:
            hand.outcome, hand.payout = _WIN, 2 * stake
        elif total == dealer_total:
            hand.outcome, hand.payout = _PUSH, stake
        else:
            hand.outcome, hand.payout = _LOSE, 0


def result_note(hand: Hand, dealer: Hand) -> str:
    """The result line of a hand: ``"19 beats 18: wins, 20 back"``."""
    outcome, payout = hand.outcome, hand.payout
    rounded = " (a fraction of a chip was rounded down)" if hand.rounded_down else ""
    if outcome == Outcome.SURRENDER:
        return f"surrendered: {payout:,} back{rounded}"
    if outcome == Outcome.BUST:
        return f"busts with {hand.total}: loses {hand.stake:,}"
    if outcome == Outcome.BLACKJACK:
        return f"blackjack: wins {payout - hand.stake:,}, {payout:,} back{rounded}"
    if dealer.natural:
        if outcome == Outcome.PUSH:
            return "blackjack against dealer blackjack: push, stake back"
        return f"dealer blackjack: loses {hand.stake:,}"
    if outcome == Outcome.WIN:
        against = "dealer busts" if dealer.total > 21 else f"{hand.total} beats {dealer.total}"
        return f"{against}: wins {hand.stake:,}, {payout:,} back"
    if outcome == Outcome.PUSH:
        return f"{hand.total} ties {dealer.total}: push, {payout:,} back"
    return f"{hand.total} loses to {dealer.total}: loses {hand.stake:,}"


class HandResult(NamedTuple):
    """One hand's result. ``payout`` is the chips returned for it, stake included."""

    player_id: str
    hand_index: int
    spot: int
    cards: tuple[Card, ...]
    total: int
    stake: int
    outcome: Outcome
    payout: int
    #: A fraction of a chip was rounded down (3:2 or 6:5 on an odd stake, surrender).
    rounded_down: bool
    text: str

    @property
    def net(self) -> int:
        return self.payout - self.stake


class InsuranceResult(NamedTuple):
    """A player's insurance side bet: ``payout`` is 3 x stake when the dealer had a natural."""

    player_id: str
    stake: int
    won: bool
    payout: int


class PlayerResult(NamedTuple):
    """A player's totals for the round: ``staked`` counts every chip put on the table
    (bets, doubles, splits, insurance); ``returned`` every chip paid back."""

    player_id: str
    staked: int
    returned: int

    @property
    def net(self) -> int:
        return self.returned - self.staked


class Settlement(NamedTuple):
    """Everything a table needs to pay a finished round."""

    dealer_cards: tuple[Card, ...]
    dealer_total: int
    dealer_blackjack: bool
    hands: tuple[HandResult, ...]
    insurance: tuple[InsuranceResult, ...]
    players: tuple[PlayerResult, ...]

    @property
    def dealer_bust(self) -> bool:
        return self.dealer_total > 21

    def player(self, player_id: str) -> PlayerResult:
        """The totals of one player."""
        for result in self.players:
            if result.player_id == player_id:
                return result
        raise KeyError(player_id)

    def hands_of(self, player_id: str) -> tuple[HandResult, ...]:
        """The results of one player's hands, in order."""
        return tuple(result for result in self.hands if result.player_id == player_id)


def build_settlement(seats: list[Seat], dealer: Hand) -> Settlement:
    """The settlement of a settled round's seats against the dealer's hand."""
    hands: list[HandResult] = []
    insurance: list[InsuranceResult] = []
    players: list[PlayerResult] = []
    for seat in seats:
        staked = returned = 0
        for index, hand in enumerate(seat.hands):
            hands.append(HandResult(seat.player_id, index, hand.spot, tuple(hand.cards),
                                    hand.total, hand.stake, Outcome(hand.outcome),
                                    hand.payout, hand.rounded_down,
                                    result_note(hand, dealer)))  # fmt: skip
            staked += hand.stake
            returned += hand.payout
        if seat.insurance:
            won = dealer.natural
            payout = insurance_payout(seat.insurance, won)
            insurance.append(InsuranceResult(seat.player_id, seat.insurance, won, payout))
            staked += seat.insurance
            returned += payout
        players.append(PlayerResult(seat.player_id, staked, returned))
    return Settlement(tuple(dealer.cards), dealer.total, dealer.natural, tuple(hands),
                      tuple(insurance), tuple(players))  # fmt: skip


def build_events(log: list[RawEvent], start: int, seats: list[Seat], dealer: Hand) -> list[Event]:
    """Events from the round's stored log, from position ``start`` on, with their text."""
    seat_of = {seat.player_id: seat for seat in seats}
    several = {seat.player_id for seat in seats if len(seat.hands) > 1}
    events = []
    for kind, player, hand, cards, total, amount, note in log[start:]:
        who = f"{player} (hand {hand + 1})" if player in several else player or "dealer"
        if kind is EventKind.RESULT:
            note = result_note(seat_of[player].hands[hand], dealer)
        elif kind is EventKind.INSURANCE_RESULT:
            stake = seat_of[player].insurance
            note = f"wins {2 * stake:,}" if amount else f"loses {stake:,}"
        if kind is EventKind.INSURE or kind is EventKind.DECLINE_INSURANCE:
            who = player
        events.append(Event(kind, player, hand, cards, total, amount, note, who))
    return events
