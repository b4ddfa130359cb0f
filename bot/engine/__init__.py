"""The pure blackjack rules engine: no discord, asyncio, database, clock or global random.

Code outside ``bot/engine/`` comes in by one of two doors (import-linter contracts in
``make lint`` enforce it), the way python-chess is used through ``chess.X``:

- ``bot.engine`` (this module), the rules: cards, the shoe, a round, what is legal
  and why not, settlement, the rule presets.
- ``bot.engine.analysis``, the mathematics of those rules: exact values, the dealer's
  odds, basic strategy, the house edge, simulation.

The rules know nothing of the analysis. Here:

- Rules: ``Rules``, ``preset``, ``PRESETS``, the limits every table shares.
- A round: ``Round.deal(rules, shoe, bets)``, ``round.legal_actions(player)``,
  ``round.judge(player, action)`` (legal, or the ``Refusal`` that says why),
  ``round.play(verdict)`` / ``round.act(player, action)``, ``round.settlement()``.
- Side bets: ``SPECS`` (each bet's ``SideBetSpec``: names, pay tables, when it settles,
  its classification and odds hooks), ``SIDE_BETS``, ``parse_pay_table`` (a ``PayTable``).
- Shoes: ``Shoe`` (seeded, committed to by SHA-256), ``StackedShoe`` for tests.
"""

from bot.engine import round as _round_module
from bot.engine.actions import Action
from bot.engine.cards import DECK, Card, parse_cards
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
from bot.engine.events import Event, EventKind, Note, split_hands
from bot.engine.hand import Hand
from bot.engine.legality import Refusal, Verdict
from bot.engine.round import Round
from bot.engine.round_state import RoundPhase
from bot.engine.rules import (
    DECK_COUNTS,
    MAX_BET_CEILING,
    MAX_SPOTS,
    PRESETS,
    Rules,
    RulesError,
    preset,
)
from bot.engine.seat import insurance_payout
from bot.engine.settlement import HandResult, Outcome, Settlement
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
from bot.engine.side_bets import (
    BUSTER,
    KNOWN_PAY_TABLES,
    PERFECT_PAIRS,
    SIDE_BET_CATEGORIES,
    SIDE_BETS,
    SPECS,
    TWENTY_ONE_PLUS_THREE,
    PayTable,
    PayTableError,
    SideBetSpec,
    buster,
    default_pay_table,
    parse_pay_table,
    perfect_pairs,
    twenty_one_plus_three,
)
from bot.engine.standing import Standing

#: "compiled" when the round runs as a mypyc extension module, "pure" when it is Python.
BUILD = "pure" if (_round_module.__file__ or "").endswith(".py") else "compiled"

__all__ = [
    "BUILD",
    "BUSTER",
    "DECK",
    "DECK_COUNTS",
    "KNOWN_PAY_TABLES",
    "MAX_BET_CEILING",
    "MAX_SPOTS",
    "PERFECT_PAIRS",
    "PRESETS",
    "SEED_BYTES",
    "SIDE_BETS",
    "SIDE_BET_CATEGORIES",
    "SPECS",
    "TWENTY_ONE_PLUS_THREE",
    "Action",
    "ActionNotAllowed",
    "Card",
    "Event",
    "EventKind",
    "Hand",
    "HandResult",
    "IllegalAction",
    "InvalidBets",
    "NoSuchHand",
    "NoSuchPlayer",
    "NotYourTurn",
    "Note",
    "Outcome",
    "PayTable",
    "PayTableError",
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
    "SideBetSpec",
    "StackedShoe",
    "Standing",
    "Verdict",
    "buster",
    "commitment",
    "continuation_seed",
    "default_pay_table",
    "insurance_payout",
    "parse_cards",
    "parse_pay_table",
    "perfect_pairs",
    "preset",
    "shoe_from_dict",
    "shuffled_order",
    "split_hands",
    "twenty_one_plus_three",
]
