"""What a player may do, and why not: the legality of actions and bets.

``Round.judge`` asks these questions once per press and answers with a ``Verdict``:
legal (with the chips the action costs), or refused with a ``Refusal`` (the reason,
for callers to word) and the engine's own sentence. ``Round.act`` raises the
``IllegalAction`` subclass each refusal names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Final

from bot.engine.actions import Action
from bot.engine.cards import RANK_VALUES
from bot.engine.errors import (
    ActionNotAllowed,
    IllegalAction,
    InvalidBets,
    NoSuchPlayer,
    NotYourTurn,
    RoundOver,
)
from bot.engine.hand import Hand
from bot.engine.round_state import RoundPhase
from bot.engine.rules import Rules

if TYPE_CHECKING:
    from bot.engine.round_state import RoundState
    from bot.engine.seat import Seat

# Enum members bound to module names: ``Enum.MEMBER`` costs a descriptor call in CPython
# 3.11, and ``locate`` runs on every unusual decision of the simulator's hot path.
_HIT: Final = Action.HIT
_STAND: Final = Action.STAND
_INSURANCE: Final = Action.INSURANCE
_NO_INSURANCE: Final = Action.NO_INSURANCE
_INSURING: Final = RoundPhase.INSURANCE
_PLAYING: Final = RoundPhase.PLAYING
_SETTLED: Final = RoundPhase.SETTLED


class Refusal(StrEnum):
    """Why the engine refuses an action: one reason each, for callers to put in words."""

    NOT_AN_ACTION = "not an action"
    ROUND_OVER = "round over"
    NOT_IN_ROUND = "not in round"
    INSURANCE_NOT_OFFERED = "insurance not offered"
    INSURANCE_DECIDED = "insurance decided"
    DECIDE_INSURANCE_FIRST = "decide insurance first"
    WAITING_FOR_INSURANCE = "waiting for insurance"
    NO_HAND_LEFT = "no hand left"
    HIT_STAND_ONLY = "hit and stand only"
    ONE_CARD_ON_SPLIT_ACES = "one card on split aces"
    DOUBLE_FIRST_TWO_CARDS = "double on first two cards"
    NO_DOUBLE_AFTER_SPLIT = "no double after split"
    NO_DOUBLE = "no double"
    DOUBLE_TOTALS = "double totals"
    NO_SPLIT = "no split"
    SPLIT_A_PAIR = "split a pair"
    SPLIT_SAME_RANK = "split same rank"
    NO_RESPLIT_ACES = "no resplit aces"
    SPLIT_LIMIT = "split limit"
    NO_SURRENDER = "no surrender"
    NO_SURRENDER_AFTER_SPLIT = "no surrender after split"
    SURRENDER_FIRST_TWO_CARDS = "surrender on first two cards"
    NOT_NOW = "not now"


#: The error ``Round.act`` raises for each refusal: a decision the player has no turn
#: for (NotYourTurn), a round that is over, a player not dealt in, or a rule.
_ERRORS: Final[dict[Refusal, type[IllegalAction]]] = {
    Refusal.ROUND_OVER: RoundOver,
    Refusal.NOT_IN_ROUND: NoSuchPlayer,
    Refusal.INSURANCE_DECIDED: NotYourTurn,
    Refusal.WAITING_FOR_INSURANCE: NotYourTurn,
    Refusal.NO_HAND_LEFT: NotYourTurn,
}


@dataclass(frozen=True, slots=True)
class Verdict:
    """The answer to "may this player do this now?".

    Legal: ``refusal`` is None and ``cost`` is the chips the action needs (a double's
    or split's stake, insurance's half stakes). Refused: ``refusal`` says why and
    ``reason`` is the engine's sentence for it. ``Round.play`` applies a legal verdict.
    """

    player_id: str
    action: Action | None
    refusal: Refusal | None = None
    reason: str = ""
    cost: int = 0
    #: The move count of the round it was judged in: a verdict is good for that state only.
    move: int = -1

    def error(self) -> IllegalAction:
        """The exception ``Round.act`` raises for this refusal."""
        assert self.refusal is not None, "a legal verdict has no error"
        return _ERRORS.get(self.refusal, ActionNotAllowed)(self.reason)


#: Action bits: a hand's legal actions as one int (a frozenset per call would allocate).
HIT_BIT: Final = 1
STAND_BIT: Final = 2
DOUBLE_BIT: Final = 4
SPLIT_BIT: Final = 8
SURRENDER_BIT: Final = 16
INSURE_BIT: Final = 32
DECLINE_BIT: Final = 64
ACTION_BITS: Final[dict[Action, int]] = {
    Action.HIT: HIT_BIT,
    Action.STAND: STAND_BIT,
    Action.DOUBLE: DOUBLE_BIT,
    Action.SPLIT: SPLIT_BIT,
    Action.SURRENDER: SURRENDER_BIT,
    Action.INSURANCE: INSURE_BIT,
    Action.NO_INSURANCE: DECLINE_BIT,
}
#: Every set of legal actions, built once so ``legal_actions()`` never allocates.
LEGAL_SETS: Final[tuple[frozenset[Action], ...]] = tuple(
    frozenset(action for action, bit in ACTION_BITS.items() if mask & bit) for mask in range(128)
)

#: The first two-card totals each ``Rules.double_on`` lets a hand double on: the one
#: table both the Round and the expected values (``bot.engine.analysis.ev``) read.
DOUBLE_TOTALS: Final[dict[str, frozenset[int]]] = {
    "any": frozenset(range(4, 22)),
    "9-11": frozenset((9, 10, 11)),
    "10-11": frozenset((10, 11)),
    "none": frozenset(),
}


def hand_mask(rules: Rules, seat: Seat, hand: Hand) -> int:
    """The legal actions of an unfinished hand, as bits."""
    cards = hand.cards
    if hand.split_aces and not rules.hit_split_aces:
        # Split aces took their one card; only a resplit of a new ace is left.
        return STAND_BIT | SPLIT_BIT if may_split(rules, seat, hand) else STAND_BIT
    if len(cards) != 2 or rules.hit_stand_only:
        return HIT_BIT | STAND_BIT
    mask = HIT_BIT | STAND_BIT
    doubles = DOUBLE_TOTALS[rules.double_on]
    if hand.total in doubles and (not hand.split or rules.double_after_split):
        mask |= DOUBLE_BIT
    if may_split(rules, seat, hand):
        mask |= SPLIT_BIT
    if rules.surrender == "late" and not hand.split:
        mask |= SURRENDER_BIT
    return mask


def may_split(rules: Rules, seat: Seat, hand: Hand) -> bool:
    """Whether the hand's two cards may be split (by value or rank, resplits, hand limit)."""
    first, second = hand.cards[0].rank, hand.cards[1].rank
    if rules.split_by == "value":
        if RANK_VALUES[first] != RANK_VALUES[second]:
            return False
    elif rules.split_by != "rank" or first != second:
        return False
    if first == 1 and hand.split and not rules.resplit_aces:
        return False
    spot = hand.spot
    return sum(1 for other in seat.hands if other.spot == spot) < rules.max_hands


def why_not(rules: Rules, hand: Hand, action: Action) -> tuple[Refusal, str]:
    """Why the rules refuse ``action`` on ``hand``: the reason, and its words for the player."""
    if rules.hit_stand_only and action in (Action.DOUBLE, Action.SPLIT, Action.SURRENDER):
        return Refusal.HIT_STAND_ONLY, "this table allows only hit and stand"
    if hand.split_aces and not rules.hit_split_aces and action is not Action.SPLIT:
        return Refusal.ONE_CARD_ON_SPLIT_ACES, "split aces get one card each"
    if action is Action.DOUBLE:
        if len(hand.cards) != 2:
            return Refusal.DOUBLE_FIRST_TWO_CARDS, "you can double only on your first two cards"
        if hand.split and not rules.double_after_split:
            return Refusal.NO_DOUBLE_AFTER_SPLIT, "no doubling after a split at this table"
        if rules.double_on == "none":
            return Refusal.NO_DOUBLE, "this table does not allow doubling"
        return (
            Refusal.DOUBLE_TOTALS,
            f"at this table you can double only on {rules.double_on}, not on {hand.total}",
        )
    if action is Action.SPLIT:
        if rules.split_by == "none":
            return Refusal.NO_SPLIT, "this table does not allow splitting"
        if len(hand.cards) != 2 or not hand.is_pair:
            return Refusal.SPLIT_A_PAIR, "you can split only a pair on your first two cards"
        if rules.split_by == "rank" and hand.cards[0].rank != hand.cards[1].rank:
            return (
                Refusal.SPLIT_SAME_RANK,
                "at this table you can split only two cards of the same rank",
            )
        if hand.cards[0].rank == 1 and hand.split and not rules.resplit_aces:
            return Refusal.NO_RESPLIT_ACES, "no resplitting aces at this table"
        return Refusal.SPLIT_LIMIT, f"a spot can be split into at most {rules.max_hands} hands"
    if action is Action.SURRENDER:
        if rules.surrender == "none":
            return Refusal.NO_SURRENDER, "this table does not allow surrender"
        if hand.split:
            return Refusal.NO_SURRENDER_AFTER_SPLIT, "you can't surrender after splitting"
        return Refusal.SURRENDER_FIRST_TWO_CARDS, "you can surrender only on your first two cards"
    return Refusal.NOT_NOW, f"you can't {action.value} now"


def check_bets(rules: Rules, bets: Sequence[tuple[object, Sequence[object]]]) -> None:
    """Raise InvalidBets, with a reason, unless ``bets`` can be dealt under ``rules``.

    Typed loosely on purpose: it is the check that bad values from callers meet."""
    if not 1 <= len(bets) <= rules.max_players:
        raise InvalidBets(f"a round needs 1 to {rules.max_players} players, not {len(bets)}")
    low, high, max_spots = rules.min_bet, rules.max_bet, rules.max_spots
    for player_id, stakes in bets:
        if player_id.__class__ is not str or not player_id:
            raise InvalidBets(f"a player id must be a non-empty string, not {player_id!r}")
        if not 1 <= len(stakes) <= max_spots:
            raise InvalidBets(f"{player_id} may play 1 to {max_spots} hands, not {len(stakes)}")
        for stake in stakes:
            # ``__class__ is int`` also refuses bools and floats.
            if not (stake.__class__ is int and low <= stake <= high):
                raise InvalidBets(
                    f"{player_id}'s bet of {stake!r} is outside the table limits {low}-{high}"
                )
    if len(bets) > 1 and len({player_id for player_id, _ in bets}) != len(bets):
        seen: set[object] = set()
        for player_id, _ in bets:
            if player_id in seen:
                raise InvalidBets(f"{player_id} is seated twice")
            seen.add(player_id)


def locate(
    state: RoundState, player_id: str, action: Action | str
) -> tuple[Seat, Hand | None, Action] | Verdict:
    """The seat, hand and action ``action`` applies to in the round, or the refusal that
    says why not (a ``Verdict``). The question ``Round.judge`` and ``Round.act`` ask."""
    if not isinstance(action, Action):
        # A plain string ("hit") from a caller: normalise it, or refuse it.
        try:
            action = Action(action)
        except ValueError:
            text = f"{action!r} is not an action"
            return Verdict(player_id, None, Refusal.NOT_AN_ACTION, text)
    phase = state.phase
    if phase is _SETTLED:
        return Verdict(player_id, action, Refusal.ROUND_OVER, "this round is over")
    seat = state._seat_of.get(player_id)
    if seat is None:
        text = f"{player_id} has no hand in this round"
        return Verdict(player_id, action, Refusal.NOT_IN_ROUND, text)
    hand = None
    if phase is _PLAYING:
        for unfinished in seat.hands:
            if not unfinished.is_finished:
                hand = unfinished
                break
        else:
            text = f"{player_id} has no hand left to play"
            return Verdict(player_id, action, Refusal.NO_HAND_LEFT, text)
    if action is _INSURANCE or action is _NO_INSURANCE:
        if phase is not _INSURING:
            text = "insurance is only offered before play starts"
            return Verdict(player_id, action, Refusal.INSURANCE_NOT_OFFERED, text)
        if seat.insurance_decided:
            text = f"{player_id} has already decided on insurance"
            return Verdict(player_id, action, Refusal.INSURANCE_DECIDED, text)
        return seat, None, action
    if hand is None:  # the insurance phase
        if not seat.insurance_decided:
            text = f"{player_id} must first decide on insurance"
            return Verdict(player_id, action, Refusal.DECIDE_INSURANCE_FIRST, text)
        text = "waiting for the other players to decide on insurance"
        return Verdict(player_id, action, Refusal.WAITING_FOR_INSURANCE, text)
    if action is _STAND or (
        action is _HIT and not (hand.split_aces and not state.rules.hit_split_aces)
    ):
        return seat, hand, action  # the common decisions, without the full mask
    if not hand_mask(state.rules, seat, hand) & ACTION_BITS[action]:
        refusal, text = why_not(state.rules, hand, action)
        return Verdict(player_id, action, refusal, text)
    return seat, hand, action
