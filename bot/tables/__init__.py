"""Live tables: phases, timers, the per-table lock and who may act. No Discord here."""

from bot.tables.errors import (
    ActionRefused,
    BetRefused,
    NoTableHere,
    NotAllowed,
    NotEnoughChips,
    NothingToDo,
    NotSeated,
    StaleButton,
    TableAlreadyOpen,
    TableError,
    TableFull,
    TablePaused,
    WrongPhase,
)
from bot.tables.fairness import Fairness
from bot.tables.flow import ShoeFactory
from bot.tables.players import Player
from bot.tables.service import TableService
from bot.tables.snapshot import (
    CardView,
    DealerView,
    HandView,
    Reply,
    SeatView,
    TablePhase,
    TableSnapshot,
)

__all__ = [
    "ActionRefused",
    "BetRefused",
    "CardView",
    "DealerView",
    "Fairness",
    "HandView",
    "NoTableHere",
    "NotAllowed",
    "NotEnoughChips",
    "NotSeated",
    "NothingToDo",
    "Player",
    "Reply",
    "SeatView",
    "ShoeFactory",
    "StaleButton",
    "TableAlreadyOpen",
    "TableError",
    "TableFull",
    "TablePaused",
    "TablePhase",
    "TableService",
    "TableSnapshot",
    "WrongPhase",
]
