"""Plain constants for the round's hot path: action bits, every legal-action set, and
enum members bound to module names (in CPython 3.11 ``Enum.MEMBER`` costs a descriptor
call each time, which the hot path cannot afford)."""

from __future__ import annotations

from typing import Final

from bot.engine.actions import Action
from bot.engine.events import EventKind
from bot.engine.round_state import RoundPhase

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
#: Every set of legal actions, built once so legal_actions() never allocates.
LEGAL_SETS: Final[tuple[frozenset[Action], ...]] = tuple(
    frozenset(action for action, bit in ACTION_BITS.items() if mask & bit) for mask in range(128)
)
EV_CONTINUATION: Final = EventKind.CONTINUATION
EV_DEAL: Final = EventKind.DEAL
EV_DEALER_BUSTS: Final = EventKind.DEALER_BUSTS
EV_DEALER_HIT: Final = EventKind.DEALER_HIT
EV_DEALER_NATURAL: Final = EventKind.DEALER_NATURAL
EV_DEALER_STANDS: Final = EventKind.DEALER_STANDS
EV_DEALER_UP: Final = EventKind.DEALER_UP
EV_DECLINE_INSURANCE: Final = EventKind.DECLINE_INSURANCE
EV_DOUBLE: Final = EventKind.DOUBLE
EV_HIT: Final = EventKind.HIT
EV_INSURANCE_OFFERED: Final = EventKind.INSURANCE_OFFERED
EV_INSURANCE_RESULT: Final = EventKind.INSURANCE_RESULT
EV_INSURE: Final = EventKind.INSURE
EV_NATURAL: Final = EventKind.NATURAL
EV_PEEK: Final = EventKind.PEEK
EV_RESULT: Final = EventKind.RESULT
EV_REVEAL: Final = EventKind.REVEAL
EV_SPLIT: Final = EventKind.SPLIT
EV_STAND: Final = EventKind.STAND
EV_SURRENDER: Final = EventKind.SURRENDER
EV_TWENTY_ONE: Final = EventKind.TWENTY_ONE
DOUBLE_ACTION: Final = Action.DOUBLE
HIT_ACTION: Final = Action.HIT
INSURANCE_ACTION: Final = Action.INSURANCE
NO_INSURANCE_ACTION: Final = Action.NO_INSURANCE
SPLIT_ACTION: Final = Action.SPLIT
STAND_ACTION: Final = Action.STAND
SURRENDER_ACTION: Final = Action.SURRENDER
INSURANCE: Final = RoundPhase.INSURANCE
PLAYING: Final = RoundPhase.PLAYING
SETTLED: Final = RoundPhase.SETTLED
