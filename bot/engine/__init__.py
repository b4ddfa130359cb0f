"""The pure blackjack rules engine: no discord, asyncio, database, clock or global random."""

from bot.engine.actions import Action
from bot.engine.cards import DECK, Card, cards
from bot.engine.errors import (
    ActionNotAllowed,
    IllegalAction,
    InvalidBets,
    NoSuchHand,
    NoSuchPlayer,
    NotYourTurn,
    RoundNotSettled,
    RoundOver,
)
from bot.engine.events import Event, EventKind
from bot.engine.hand import Hand
from bot.engine.round import Round
from bot.engine.round_state import RoundPhase
from bot.engine.rules import PRESETS, Rules, RulesError, preset
from bot.engine.settlement import (
    HandResult,
    InsuranceResult,
    Outcome,
    PlayerResult,
    Settlement,
)
from bot.engine.shoe import (
    Shoe,
    ShoeError,
    ShoeExhausted,
    StackedShoe,
    commitment,
    continuation_seed,
    shuffled_order,
)
from bot.engine.standing import Standing

__all__ = [
    "DECK",
    "PRESETS",
    "Action",
    "ActionNotAllowed",
    "Card",
    "Event",
    "EventKind",
    "Hand",
    "HandResult",
    "IllegalAction",
    "InsuranceResult",
    "InvalidBets",
    "NoSuchHand",
    "NoSuchPlayer",
    "NotYourTurn",
    "Outcome",
    "PlayerResult",
    "Round",
    "RoundNotSettled",
    "RoundOver",
    "RoundPhase",
    "Rules",
    "RulesError",
    "Settlement",
    "Shoe",
    "ShoeError",
    "ShoeExhausted",
    "StackedShoe",
    "Standing",
    "cards",
    "commitment",
    "continuation_seed",
    "preset",
    "shuffled_order",
]
