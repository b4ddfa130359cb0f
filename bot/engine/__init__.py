"""The pure blackjack rules engine: no discord, asyncio, database, clock or global random.

This package is the engine's one door: code outside ``bot/engine/`` imports from
``bot.engine`` only (an import-linter contract in ``make lint`` enforces it), the
way python-chess is used through ``chess.X``. The submodules are its inside.

- Rules: ``Rules``, ``preset``, ``PRESETS``, the limits every table shares.
- A round: ``Round.deal(rules, shoe, bets)``, ``round.legal_actions(player)``,
  ``round.judge(player, action)`` (legal, or the ``Refusal`` that says why),
  ``round.play(verdict)`` / ``round.act(player, action)``, ``round.settlement()``.
- Shoes: ``Shoe`` (seeded, committed to by SHA-256), ``StackedShoe`` for tests.
- Strategy and the edge: ``advise``, ``chart_for``, ``advisor_for``, ``house_edge``,
  ``infinite_advisor`` (the infinite-deck chart, in milliseconds), ``Chart``,
  ``strategy_rules``; what each action is worth for exact cards: ``decision_values``,
  ``decision_words``.
"""

from bot.engine import round as _round_module
from bot.engine.actions import Action
from bot.engine.cards import DECK, Card, cards
from bot.engine.edge import house_edge
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
from bot.engine.exact_play import decision_values, decision_words
from bot.engine.hand import Hand
from bot.engine.legality import Refusal, Verdict
from bot.engine.round import Round
from bot.engine.round_state import RoundPhase
from bot.engine.rules import (
    MAX_BET_CEILING,
    MAX_SPOTS,
    PRESET_SOURCES,
    PRESETS,
    Rules,
    RulesError,
    preset,
)
from bot.engine.seat import insurance_payout
from bot.engine.settlement import (
    HandResult,
    InsuranceResult,
    Outcome,
    PlayerResult,
    Settlement,
)
from bot.engine.shoe import (
    SEED_BYTES,
    Shoe,
    ShoeError,
    ShoeExhausted,
    StackedShoe,
    commitment,
    continuation_seed,
    shoe_from_dict,
    shuffled_order,
)
from bot.engine.simulate import Tally, play_rounds, play_worker, split_rounds, stake_for
from bot.engine.standing import Standing
from bot.engine.strategy import (
    Chart,
    advise,
    advisor_for,
    chart_for,
    infinite_advisor,
    strategy_rules,
)

#: "compiled" when the round runs as a mypyc extension module, "pure" when it is Python.
BUILD = "pure" if (_round_module.__file__ or "").endswith(".py") else "compiled"

__all__ = [
    "BUILD",
    "DECK",
    "MAX_BET_CEILING",
    "MAX_SPOTS",
    "PRESETS",
    "PRESET_SOURCES",
    "SEED_BYTES",
    "Action",
    "ActionNotAllowed",
    "Card",
    "Chart",
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
    "Refusal",
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
    "Tally",
    "Verdict",
    "advise",
    "advisor_for",
    "cards",
    "chart_for",
    "commitment",
    "continuation_seed",
    "decision_values",
    "decision_words",
    "house_edge",
    "infinite_advisor",
    "insurance_payout",
    "play_rounds",
    "play_worker",
    "preset",
    "shoe_from_dict",
    "shuffled_order",
    "split_rounds",
    "stake_for",
    "strategy_rules",
]
