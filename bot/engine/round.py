"""One round of blackjack: the deal, insurance, the players' decisions, the dealer, settlement.

Phases (``Round.phase``):

- ``INSURANCE``: the dealer shows an ace and the table offers insurance; every
  player decides once (INSURANCE or NO_INSURANCE) for all of their hands. Taking
  insurance on a blackjack is even money.
- ``PLAYING``: players act at the same time, each on their own first unfinished
  hand. When no hand is left to play the dealer plays at once (only if some hand is
  still live) and the round settles, all inside the call that finished the last hand.
- ``SETTLED``: ``settlement()`` is available; nothing else can happen.

A peeking dealer (US hole card) checks for blackjack on an ace or a ten up before
anyone acts (after insurance); a dealer blackjack ends the round at once. Without
the peek the hole card is only turned over at the end, so a dealer blackjack then
takes doubles and splits too. A hand that reaches 21 stands by itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.engine.actions import Action
from bot.engine.cards import Card
from bot.engine.dealer_odds import dealer_must_hit
from bot.engine.errors import (
    ActionNotAllowed,
    NotYourTurn,
    RoundOver,
)
from bot.engine.events import Event
from bot.engine.hand import Hand
from bot.engine.hotnames import (
    ACTION_BITS,
    DECLINE_BIT,
    DOUBLE_ACTION,
    DOUBLE_BIT,
    EV_CONTINUATION,
    EV_DEAL,
    EV_DEALER_BUSTS,
    EV_DEALER_HIT,
    EV_DEALER_NATURAL,
    EV_DEALER_STANDS,
    EV_DEALER_UP,
    EV_DECLINE_INSURANCE,
    EV_DOUBLE,
    EV_HIT,
    EV_INSURANCE_OFFERED,
    EV_INSURANCE_RESULT,
    EV_INSURE,
    EV_NATURAL,
    EV_PEEK,
    EV_RESULT,
    EV_REVEAL,
    EV_SPLIT,
    EV_STAND,
    EV_SURRENDER,
    EV_TWENTY_ONE,
    HIT_ACTION,
    HIT_BIT,
    INSURANCE,
    INSURANCE_ACTION,
    INSURE_BIT,
    LEGAL_SETS,
    NO_INSURANCE_ACTION,
    PLAYING,
    SETTLED,
    SPLIT_ACTION,
    SPLIT_BIT,
    STAND_ACTION,
    STAND_BIT,
    SURRENDER_BIT,
)
from bot.engine.legality import DOUBLE_TOTALS, check_bets, why_not
from bot.engine.round_state import RATIOS, RoundState
from bot.engine.rules import Rules
from bot.engine.seat import Seat, insurance_cost
from bot.engine.settlement import settle_hand
from bot.engine.shoe import Shoe

_NO_CARDS: Final[tuple[Card, ...]] = ()


class Round(RoundState):
    """The state machine of one round. Build it with ``Round.deal``."""

    __slots__ = ()

    # ----------------------------------------------------------------- the deal

    @classmethod
    def deal(cls, rules: Rules, shoe: Shoe, bets: Sequence[tuple[str, Sequence[int]]]) -> Round:
        """Seat the players in order, take one stake per spot and deal in casino order."""
        check_bets(rules, bets)
        self = cls(rules, shoe)
        naturals = rules.naturals
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
        # Casino order: a first card to every spot, the dealer's up card, a second card
        # to every spot, the hole card.
        need = 2 * count + 2
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
                log((EV_DEAL, player_id, index, (first, second), total, hand.stake, ""))
                if total == 21:
                    hand.is_finished = True
                    kind = EV_NATURAL if hand.natural else EV_TWENTY_ONE
                    log((kind, player_id, index, (first, second), 21, 0, ""))
                else:
                    live += 1
        self.dealer.take_two(up, hole)
        self._live = live
        log((EV_DEALER_UP, "", 0, (up,), 0, 0, ""))
        if rules.insurance and up.rank == 1:
            log((EV_INSURANCE_OFFERED, "", 0, _NO_CARDS, 0, 0, ""))
            self.phase = INSURANCE
            for seat in self.seats:
                # A player whose half stakes round down to nothing has nothing to insure.
                seat.insurance_decided = insurance_cost(seat) == 0
            self._after_insurance_decision()
        else:
            self._start_play()
        return self

    def _draw(self) -> Card:
        shoe = self.shoe
        continuation = shoe.continuation
        card = shoe.draw()
        # Asked of the shoe, not guessed: a lazily shuffled shoe (the simulator's) runs out
        # of shuffled cards many times a round without continuing.
        if shoe.continuation != continuation:
            self._log.append((EV_CONTINUATION, "", 0, _NO_CARDS, 0, shoe.continuation, ""))
        return card

    def _after_insurance_decision(self) -> None:
        for seat in self.seats:
            if not seat.insurance_decided:
                return
        self.phase = PLAYING
        self._start_play()

    def _start_play(self) -> None:
        dealer = self.dealer
        rules = self.rules
        up_rank = dealer.cards[0].rank
        if rules.dealer_peeks and (up_rank == 1 or (up_rank >= 10 and not rules.peek_ace_only)):
            if dealer.natural:
                self._log.append((EV_DEALER_NATURAL, "", 0, tuple(dealer.cards), 21, 0, ""))
                self._settle()
                return
            self._log.append((EV_PEEK, "", 0, _NO_CARDS, 0, 0, ""))
        for seat in self.seats:
            if seat.timed_out:
                self._stand_every_hand(seat)  # may bring the dealer in, and settle
        if self._live == 0 and self.phase is PLAYING:
            self._dealer_turn()

    # ------------------------------------------------------------- legality

    def _mask(self, seat: Seat, hand: Hand) -> int:
        """The legal actions of an unfinished hand, as bits."""
        rules = self.rules
        cards = hand.cards
        if hand.split_aces and not rules.hit_split_aces:
            # Split aces took their one card; only a resplit of a new ace is left.
            return STAND_BIT | SPLIT_BIT if self._may_split(seat, hand) else STAND_BIT
        if len(cards) != 2 or rules.hit_stand_only:
            return HIT_BIT | STAND_BIT
        mask = HIT_BIT | STAND_BIT
        doubles = DOUBLE_TOTALS[rules.double_on]
        if hand.total in doubles and (not hand.split or rules.double_after_split):
            mask |= DOUBLE_BIT
        if self._may_split(seat, hand):
            mask |= SPLIT_BIT
        if rules.surrender == "late" and not hand.split:
            mask |= SURRENDER_BIT
        return mask

    def _may_split(self, seat: Seat, hand: Hand) -> bool:
        rules = self.rules
        first, second = hand.cards[0].rank, hand.cards[1].rank
        if rules.split_by == "value":
            if min(first, 10) != min(second, 10):
                return False
        elif rules.split_by != "rank" or first != second:
            return False
        if first == 1 and hand.split and not rules.resplit_aces:
            return False
        spot = hand.spot
        return sum(1 for other in seat.hands if other.spot == spot) < rules.max_hands

    def legal_actions(self, player_id: str, hand_index: int | None = None) -> frozenset[Action]:
        """What the player may do now: on their current hand, or on hand ``hand_index``
        (that hand's own options; ``act`` always acts on the first unfinished hand)."""
        seat = self._seat(player_id)
        phase = self.phase
        if phase is PLAYING:
            if hand_index is None:
                for hand in seat.hands:
                    if not hand.is_finished:
                        return LEGAL_SETS[self._mask(seat, hand)]
                return LEGAL_SETS[0]
            hand = self._hand(seat, hand_index)
            return LEGAL_SETS[0] if hand.is_finished else LEGAL_SETS[self._mask(seat, hand)]
        if phase is INSURANCE and not seat.insurance_decided:
            return LEGAL_SETS[INSURE_BIT | DECLINE_BIT]
        return LEGAL_SETS[0]

    def cost(self, player_id: str, action: Action | str) -> int:
        """The extra chips ``action`` needs now (raises like ``act`` if it is illegal)."""
        seat, hand, action = self._check(player_id, action)
        if action is INSURANCE_ACTION:
            return insurance_cost(seat)
        if hand is not None and (action is DOUBLE_ACTION or action is SPLIT_ACTION):
            return hand.stake
        return 0

    def _check(self, player_id: str, action: Action | str) -> tuple[Seat, Hand | None, Action]:
        """The seat, hand and action ``action`` applies to, or the reason it is illegal."""
        if not isinstance(action, Action):
            # A plain string ("hit") from a caller: normalise it, or refuse it.
            try:
                action = Action(action)
            except ValueError:
                raise ActionNotAllowed(f"{action!r} is not an action") from None
        if self.phase is SETTLED:
            raise RoundOver("this round is over")
        seat = self._seat(player_id)
        if action is INSURANCE_ACTION or action is NO_INSURANCE_ACTION:
            if self.phase is not INSURANCE:
                raise ActionNotAllowed("insurance is only offered before play starts")
            if seat.insurance_decided:
                raise NotYourTurn(f"{player_id} has already decided on insurance")
            return seat, None, action
        if self.phase is INSURANCE:
            if not seat.insurance_decided:
                raise ActionNotAllowed(f"{player_id} must first decide on insurance")
            raise NotYourTurn("waiting for the other players to decide on insurance")
        for hand in seat.hands:
            if not hand.is_finished:
                if action is STAND_ACTION or (
                    action is HIT_ACTION and not (hand.split_aces and not self.rules.hit_split_aces)
                ):
                    return seat, hand, action  # the common decisions, without the full mask
                if not self._mask(seat, hand) & ACTION_BITS[action]:
                    raise ActionNotAllowed(why_not(self.rules, hand, action))
                return seat, hand, action
        raise NotYourTurn(f"{player_id} has no hand left to play")

    # ------------------------------------------------------------- actions

    def act(self, player_id: str, action: Action | str) -> list[Event]:
        """Apply ``action`` (an Action, or its value such as ``"hit"``) to the player's
        first unfinished hand (or their insurance decision); return the events it caused."""
        start = len(self._log)
        self.apply(player_id, action)
        return self._events(start)

    def apply(self, player_id: str, action: Action | str) -> None:
        """``act`` without building the events (the simulator's hot path)."""
        if self.phase is PLAYING and (action is HIT_ACTION or action is STAND_ACTION):
            # Fast path for the two commonest decisions; anything unusual goes the long way.
            seat_ = self._seat_of.get(player_id)
            if seat_ is not None:
                for index, hand_ in enumerate(seat_.hands):
                    if not hand_.is_finished:
                        if action is STAND_ACTION:
                            hand_.is_finished = True
                            self._log.append((EV_STAND, player_id, index, _NO_CARDS,
                                              hand_.total, 0, ""))  # fmt: skip
                            self._finish()
                            return
                        if not hand_.split_aces or self.rules.hit_split_aces:
                            self._hit(seat_, hand_, index)
                            return
                        break
        seat, hand, action = self._check(player_id, action)
        if hand is None:
            self._decide_insurance(seat, action is INSURANCE_ACTION)
        else:
            index = seat.hands.index(hand)
            if action is HIT_ACTION:
                self._hit(seat, hand, index)
            elif action is STAND_ACTION:
                self._log.append((EV_STAND, player_id, index, _NO_CARDS, hand.total, 0, ""))
                hand.is_finished = True
                self._finish()
            elif action is DOUBLE_ACTION:
                hand.stake *= 2
                hand.doubled = True
                card = self._draw()
                hand.add(card)
                hand.is_finished = True
                self._log.append((EV_DOUBLE, player_id, index, (card,), hand.total,
                                  hand.stake, ""))  # fmt: skip
                self._finish()
            elif action is SPLIT_ACTION:
                self._split(seat, hand, index)
            else:
                hand.surrendered = True
                hand.is_finished = True
                self._log.append((EV_SURRENDER, player_id, index, _NO_CARDS,
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
        self._log.append((EV_HIT, seat.player_id, index, (card,), total, 0, ""))
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
        note = f"{hand.describe()} | {twin.describe()}"
        self._log.append((EV_SPLIT, seat.player_id, index, (*hand.cards, *twin.cards),
                          0, hand.stake, note))  # fmt: skip
        for split_hand in (hand, twin):
            if split_hand.total == 21 or (
                aces and not rules.hit_split_aces and not self._may_split(seat, split_hand)
            ):
                split_hand.is_finished = True
                self._finish()

    def _decide_insurance(self, seat: Seat, take: bool) -> None:
        seat.insurance_decided = True
        if take:
            seat.insurance = insurance_cost(seat)
            even_money = all(hand.natural for hand in seat.hands)
            note = "even money" if even_money else "insurance"
            self._log.append((EV_INSURE, seat.player_id, 0, _NO_CARDS, 0, seat.insurance, note))
        else:
            self._log.append((EV_DECLINE_INSURANCE, seat.player_id, 0, _NO_CARDS, 0, 0, ""))
        self._after_insurance_decision()

    def stand_all(self, player_id: str) -> list[Event]:
        """Time a player out: decline insurance and stand every unfinished hand (at
        once, or as soon as play starts if others are still deciding on insurance)."""
        start = len(self._log)
        seat = self._seat(player_id)
        if self.phase is INSURANCE:
            seat.timed_out = True
            if not seat.insurance_decided:
                self._decide_insurance(seat, False)
        if self.phase is PLAYING:
            self._stand_every_hand(seat)
        return self._events(start)

    def _stand_every_hand(self, seat: Seat) -> None:
        for index, hand in enumerate(seat.hands):
            if not hand.is_finished and self.phase is PLAYING:
                hand.is_finished = True
                self._log.append((EV_STAND, seat.player_id, index, _NO_CARDS,
                                  hand.total, 0, "timed out"))  # fmt: skip
                self._finish()

    def _finish(self) -> None:
        """One hand fewer to play; the last one brings the dealer in."""
        self._live -= 1
        if self._live == 0:
            self._dealer_turn()

    # ------------------------------------------------------------- dealer

    def _dealer_turn(self) -> None:
        dealer = self.dealer
        log = self._log.append
        log((EV_REVEAL, "", 0, (dealer.cards[1],), dealer.total, 0, ""))
        live = False
        if not dealer.natural:
            for seat in self.seats:
                for hand in seat.hands:
                    if not (hand.surrendered or hand.total > 21 or hand.natural):
                        live = True
        if live:
            rules = self.rules
            shoe = self.shoe
            while dealer_must_hit(dealer.total, dealer.is_soft, rules):
                position = shoe.position
                if position < shoe.size:
                    shoe.position = position + 1
                    card = shoe.cards[position]
                else:
                    card = self._draw()
                dealer.add(card)
                log((EV_DEALER_HIT, "", 0, (card,), dealer.total, 0, ""))
            if dealer.total > 21:
                log((EV_DEALER_BUSTS, "", 0, _NO_CARDS, dealer.total, 0, ""))
            else:
                log((EV_DEALER_STANDS, "", 0, _NO_CARDS, dealer.total, 0, ""))
        self._settle()

    def _settle(self) -> None:
        dealer = self.dealer
        dealer_blackjack = dealer.natural
        numerator, denominator = RATIOS[self.rules.blackjack_pays]
        log = self._log.append
        for seat in self.seats:
            for index, hand in enumerate(seat.hands):
                settle_hand(hand, dealer, dealer_blackjack, numerator, denominator)
                log((EV_RESULT, seat.player_id, index, _NO_CARDS, hand.total,
                     hand.payout, ""))  # fmt: skip
            if seat.insurance:
                payout = 3 * seat.insurance if dealer_blackjack else 0
                log((EV_INSURANCE_RESULT, seat.player_id, 0, _NO_CARDS, 0, payout, ""))
        self.phase = SETTLED

    @classmethod
    def from_json(cls, text: str) -> Round:
        """Restore a round saved with ``to_json``; it compares equal to the original."""
        from bot.engine.serialise import round_from_json

        return round_from_json(text)
