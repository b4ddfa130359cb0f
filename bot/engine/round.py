"""One round of blackjack: the deal, insurance, the players' decisions, the dealer, settlement.

Phases (``Round.phase``):

- ``INSURANCE``: the dealer shows an ace and the table offers insurance; every
  player decides once (INSURANCE or NO_INSURANCE) for all of their hands. Taking
  insurance on a blackjack is even money.
- ``PLAYING``: players act at the same time, each on their own first unfinished
  hand. When no hand is left to play the dealer plays at once (only if some hand is
  still live) and the round settles, all inside the call that finished the last hand.
- ``SETTLED``: ``settlement()`` is available; nothing else can happen.

A peeking dealer (US hole card) checks for blackjack on an ace or a ten up before anyone
acts (after insurance), and a blackjack ends the round at once; without the peek a dealer
blackjack, shown at the end, takes doubles and splits too. A 21 stands by itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.engine.actions import Action
from bot.engine.cards import RANK_VALUES, Card
from bot.engine.dealer_play import dealer_turn, settle
from bot.engine.events import Event, EventKind, Note
from bot.engine.hand import Hand
from bot.engine.legality import (
    DECLINE_BIT,
    INSURE_BIT,
    LEGAL_SETS,
    Verdict,
    check_bets,
    hand_mask,
    locate,
    may_split,
)
from bot.engine.round_state import RoundPhase, RoundState
from bot.engine.rules import Rules
from bot.engine.seat import Seat, insurance_cost
from bot.engine.serialise import round_from_json, round_to_dict, round_to_json
from bot.engine.shoe import Shoe

# Enum members bound to module names: in CPython 3.11 ``Enum.MEMBER`` costs a descriptor
# call each time, and a round reads them on every card (the simulator's profile showed it).
_DOUBLE: Final = Action.DOUBLE
_HIT: Final = Action.HIT
_INSURANCE: Final = Action.INSURANCE
_NO_INSURANCE: Final = Action.NO_INSURANCE
_SPLIT: Final = Action.SPLIT
_STAND: Final = Action.STAND
_INSURING: Final = RoundPhase.INSURANCE
_PLAYING: Final = RoundPhase.PLAYING
_EV_DEAL: Final = EventKind.DEAL
_EV_DEALER_NATURAL: Final = EventKind.DEALER_NATURAL
_EV_DEALER_UP: Final = EventKind.DEALER_UP
_EV_DECLINE_INSURANCE: Final = EventKind.DECLINE_INSURANCE
_EV_DOUBLE: Final = EventKind.DOUBLE
_EV_HIT: Final = EventKind.HIT
_EV_INSURANCE_OFFERED: Final = EventKind.INSURANCE_OFFERED
_EV_INSURE: Final = EventKind.INSURE
_EVEN_MONEY: Final = Note.EVEN_MONEY
_INSURED: Final = Note.INSURANCE
_TIMED_OUT: Final = Note.TIMED_OUT
_EV_NATURAL: Final = EventKind.NATURAL
_EV_PEEK: Final = EventKind.PEEK
_EV_SPLIT: Final = EventKind.SPLIT
_EV_STAND: Final = EventKind.STAND
_EV_SURRENDER: Final = EventKind.SURRENDER
_EV_TWENTY_ONE: Final = EventKind.TWENTY_ONE
_NO_CARDS: Final[tuple[Card, ...]] = ()


class Round(RoundState):
    """The state machine of one round. Build it with ``Round.deal``."""

    __slots__ = ()

    # ----------------------------------------------------------------- the deal

    @classmethod
    def deal(
        cls,
        rules: Rules,
        shoe: Shoe,
        bets: Sequence[tuple[str, Sequence[int]]],
        *,
        dealer_plays_out: bool = False,
    ) -> Round:
        """Seat the players in order, take one stake per spot and deal in casino order.

        ``dealer_plays_out``: the dealer draws to the rules even when every hand has
        busted, surrendered or has a blackjack (a Buster side bet is live)."""
        check_bets(rules, bets)
        self = cls(rules, shoe)
        self.dealer_plays_out = dealer_plays_out
        up = self._deal_cards(self._seat_players(bets))
        if rules.insurance and up.rank == 1:
            self._log.append((_EV_INSURANCE_OFFERED, "", 0, _NO_CARDS, 0, 0, ""))
            self.phase = _INSURING
            for seat in self.seats:
                # A player whose half stakes round down to nothing has nothing to insure.
                seat.insurance_decided = insurance_cost(seat) == 0
            self._after_insurance_decision()
        else:
            self._start_play()
        return self

    def _seat_players(self, bets: Sequence[tuple[str, Sequence[int]]]) -> int:
        """Seat the players in order, a hand per stake; how many hands in all."""
        naturals = self.rules.naturals
        count = 0
        for player_id, stakes in bets:
            # A plain loop: in CPython 3.11 a list comprehension is a function call.
            hands: list[Hand] = []
            for stake in stakes:
                hands.append(Hand(stake, len(hands), naturals))
            seat = Seat(player_id, hands)
            self.seats.append(seat)
            self._seat_of[player_id] = seat
            count += len(hands)
        return count

    def _deal_cards(self, count: int) -> Card:
        """Deal ``count`` hands in casino order: a first card to every spot, the dealer's up
        card, a second card to every spot, the hole card. The up card."""
        need = 2 * count + 2
        shoe = self.shoe
        position = shoe.position
        if shoe.size - position >= need:
            order = shoe.cards  # the usual case: read the cards straight from the shoe
            shoe.position = position + need
        else:
            order = [self._draw() for _ in range(need)]
            position = 0
        up = order[position + count]
        hole = order[position + need - 1]
        seconds = position + count + 1
        log = self._log.append
        live = 0
        for seat in self.seats:
            player_id = seat.player_id
            for index, hand in enumerate(seat.hands):
                first, second = order[position], order[seconds]
                position += 1
                seconds += 1
                hand.take_two(first, second)
                total = hand.total
                log((_EV_DEAL, player_id, index, (first, second), total, hand.stake, ""))
                if total == 21:
                    hand.is_finished = True
                    kind = _EV_NATURAL if hand.natural else _EV_TWENTY_ONE
                    log((kind, player_id, index, (first, second), 21, 0, ""))
                else:
                    live += 1
        self.dealer.take_two(up, hole)
        self._live = live
        log((_EV_DEALER_UP, "", 0, (up,), 0, 0, ""))
        return up

    def _after_insurance_decision(self) -> None:
        for seat in self.seats:
            if not seat.insurance_decided:
                return
        self.phase = _PLAYING
        self._start_play()

    def _start_play(self) -> None:
        dealer = self.dealer
        rules = self.rules
        up = RANK_VALUES[dealer.cards[0].rank]
        if rules.dealer_peeks and (up == 1 or (up == 10 and not rules.peek_ace_only)):
            if dealer.natural:
                self._log.append((_EV_DEALER_NATURAL, "", 0, tuple(dealer.cards), 21, 0, ""))
                settle(self)
                return
            self._log.append((_EV_PEEK, "", 0, _NO_CARDS, 0, 0, ""))
        for seat in self.seats:
            if seat.timed_out:
                self._stand_every_hand(seat)  # may bring the dealer in, and settle
        if self._live == 0 and self.phase is _PLAYING:
            dealer_turn(self)

    # ------------------------------------------------------------- legality

    def legal_actions(self, player_id: str, hand_index: int | None = None) -> frozenset[Action]:
        """What the player may do now: on their current hand, or on hand ``hand_index``
        (that hand's own options; ``act`` always acts on the first unfinished hand)."""
        seat = self._seat(player_id)
        phase = self.phase
        if phase is _PLAYING:
            if hand_index is None:
                for hand in seat.hands:
                    if not hand.is_finished:
                        return LEGAL_SETS[hand_mask(self.rules, seat, hand)]
                return LEGAL_SETS[0]
            hand = self._hand(seat, hand_index)
            if hand.is_finished:
                return LEGAL_SETS[0]
            return LEGAL_SETS[hand_mask(self.rules, seat, hand)]
        if phase is _INSURING and not seat.insurance_decided:
            return LEGAL_SETS[INSURE_BIT | DECLINE_BIT]
        return LEGAL_SETS[0]

    def judge(self, player_id: str, action: Action | str) -> Verdict:
        """May the player do ``action`` now? Legal, with the chips it costs; or refused,
        with the reason and the engine's words. ``play`` applies a legal verdict."""
        found = locate(self, player_id, action)
        if isinstance(found, Verdict):
            return found
        seat, hand, checked = found
        cost = 0
        if checked is _INSURANCE:
            cost = insurance_cost(seat)
        elif hand is not None and (checked is _DOUBLE or checked is _SPLIT):
            cost = hand.stake
        return Verdict(player_id, checked, cost=cost, move=self._moves)

    def cost(self, player_id: str, action: Action | str) -> int:
        """The extra chips ``action`` needs now (raises like ``act`` if it is illegal)."""
        verdict = self.judge(player_id, action)
        if verdict.refusal is not None:
            raise verdict.error()
        return verdict.cost

    # ------------------------------------------------------------- actions

    def act(self, player_id: str, action: Action | str) -> list[Event]:
        """Apply ``action`` (an Action, or its value such as ``"hit"``) to the player's
        first unfinished hand (or their insurance decision); return the events it caused."""
        start = len(self._log)
        self.apply(player_id, action)
        return self._events(start)

    def play(self, verdict: Verdict) -> list[Event]:
        """Apply a legal ``verdict`` from ``judge`` without judging again (one check per
        action); a verdict from an earlier state of the round is judged again by ``act``."""
        if verdict.refusal is not None:
            raise verdict.error()
        action = verdict.action
        assert action is not None
        if verdict.move != self._moves:
            return self.act(verdict.player_id, action)
        start = len(self._log)
        self._moves += 1
        seat = self._seat_of[verdict.player_id]
        hand = None
        if action is not _INSURANCE and action is not _NO_INSURANCE:
            hand = next(hand for hand in seat.hands if not hand.is_finished)
        self._do(seat, hand, action)
        return self._events(start)

    def apply(self, player_id: str, action: Action | str) -> None:
        """``act`` without building the events (the simulator's hot path)."""
        self._moves += 1
        if self.phase is _PLAYING and (action is _HIT or action is _STAND):
            # Fast path for the two commonest decisions; anything unusual goes the long way.
            seat_ = self._seat_of.get(player_id)
            if seat_ is not None:
                for index, hand_ in enumerate(seat_.hands):
                    if not hand_.is_finished:
                        if action is _STAND:
                            hand_.is_finished = True
                            self._log.append((_EV_STAND, player_id, index, _NO_CARDS,
                                              hand_.total, 0, ""))  # fmt: skip
                            self._finish()
                            return
                        if not hand_.split_aces or self.rules.hit_split_aces:
                            self._hit(seat_, hand_, index)
                            return
                        break
        found = locate(self, player_id, action)
        if isinstance(found, Verdict):
            raise found.error()
        seat, hand, checked = found
        self._do(seat, hand, checked)

    def _do(self, seat: Seat, hand: Hand | None, action: Action) -> None:
        """Carry out a legal action on the seat's current hand (or its insurance decision)."""
        if hand is None:
            self._decide_insurance(seat, action is _INSURANCE)
            return
        player_id = seat.player_id
        index = seat.hands.index(hand)
        if action is _HIT:
            self._hit(seat, hand, index)
        elif action is _STAND:
            self._log.append((_EV_STAND, player_id, index, _NO_CARDS, hand.total, 0, ""))
            hand.is_finished = True
            self._finish()
        elif action is _DOUBLE:
            hand.stake *= 2
            hand.doubled = True
            card = self._draw()
            hand.add(card)
            hand.is_finished = True
            self._log.append((_EV_DOUBLE, player_id, index, (card,), hand.total,
                              hand.stake, ""))  # fmt: skip
            self._finish()
        elif action is _SPLIT:
            self._split(seat, hand, index)
        else:
            hand.surrendered = True
            hand.is_finished = True
            self._log.append((_EV_SURRENDER, player_id, index, _NO_CARDS,
                              hand.total, hand.stake // 2, ""))  # fmt: skip
            self._finish()

    def _hit(self, seat: Seat, hand: Hand, index: int) -> None:
        shoe = self.shoe
        position = shoe.position
        if position < shoe.size:
            shoe.position = position + 1
            card = shoe.cards[position]
        else:
            card = self._draw()
        hand.add(card)
        total = hand.total
        self._log.append((_EV_HIT, seat.player_id, index, (card,), total, 0, ""))
        if total >= 21:
            hand.is_finished = True
            self._finish()

    def _split(self, seat: Seat, hand: Hand, index: int) -> None:
        rules = self.rules
        moved = hand.mark_split()
        twin = Hand(hand.stake, hand.spot, rules.naturals, split=True)
        twin.add(moved)
        aces = moved.rank == 1
        seat.hands.insert(index + 1, twin)
        self._live += 1
        for split_hand in (hand, twin):
            split_hand.split_aces = aces
            split_hand.add(self._draw())
        # The two hands are the event's cards (``events.split_hands``).
        self._log.append((_EV_SPLIT, seat.player_id, index, (*hand.cards, *twin.cards),
                          0, hand.stake, ""))  # fmt: skip
        for split_hand in (hand, twin):
            if split_hand.total == 21 or (
                aces and not rules.hit_split_aces and not may_split(rules, seat, split_hand)
            ):
                split_hand.is_finished = True
                self._finish()

    def _decide_insurance(self, seat: Seat, take: bool) -> None:
        seat.insurance_decided = True
        if take:
            seat.insurance = insurance_cost(seat)
            even_money = all(hand.natural for hand in seat.hands)
            note = _EVEN_MONEY if even_money else _INSURED
            self._log.append((_EV_INSURE, seat.player_id, 0, _NO_CARDS, 0, seat.insurance, note))
        else:
            self._log.append((_EV_DECLINE_INSURANCE, seat.player_id, 0, _NO_CARDS, 0, 0, ""))
        self._after_insurance_decision()

    def stand_all(self, player_id: str) -> list[Event]:
        """Time a player out: decline insurance and stand every unfinished hand (at
        once, or as soon as play starts if others are still deciding on insurance)."""
        start = len(self._log)
        seat = self._seat(player_id)
        self._moves += 1
        if self.phase is _INSURING:
            seat.timed_out = True
            if not seat.insurance_decided:
                self._decide_insurance(seat, False)
        if self.phase is _PLAYING:
            self._stand_every_hand(seat)
        return self._events(start)

    def _stand_every_hand(self, seat: Seat) -> None:
        for index, hand in enumerate(seat.hands):
            if not hand.is_finished and self.phase is _PLAYING:
                hand.is_finished = True
                self._log.append((_EV_STAND, seat.player_id, index, _NO_CARDS,
                                  hand.total, 0, _TIMED_OUT))  # fmt: skip
                self._finish()

    def _finish(self) -> None:
        """One hand fewer to play; the last one brings the dealer in."""
        self._live -= 1
        if self._live == 0:
            dealer_turn(self)

    # ------------------------------------------------------------- serialising

    def to_json(self) -> str:
        """The whole round (rules, shoe position, hands, events) as JSON."""
        return round_to_json(self)

    @classmethod
    def from_json(cls, text: str) -> Round:
        """Restore a round saved with ``to_json``; it compares equal to the original."""
        return round_from_json(text, cls)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RoundState):
            return NotImplemented
        return round_to_dict(self) == round_to_dict(other)

    __hash__ = None  # type: ignore[assignment]
