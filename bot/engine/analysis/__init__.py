"""The mathematics of the rules in ``bot.engine``: the engine's second door.

Everything here is computed from the rules and the shoe's make-up (the simulator by
playing rounds of its own), never read from a table's round: code outside
``bot/engine/`` imports it from ``bot.engine.analysis``.

- Basic strategy: ``chart_for(rules)`` (a ``Chart``, worked out from expected
  values: seconds of CPU for a few decks), ``advise`` (the chart's action for a
  hand), ``lookup_for`` and ``infinite_lookup`` (a chart as a fast lookup; the
  infinite-deck one in milliseconds), ``strategy_rules`` (the rule fields a chart
  depends on).
- What each action is worth for exact cards: ``decision_values``, ``decision_words``.
- A decision graded for the shoe it was made from: ``grade_decision`` (a ``Grade``: each
  legal choice's value, the best, the cost of the choice made).
- The house edge of a rule set: ``house_edge``.
- Side bets: ``side_bet_edge`` (a pay table's exact house edge), ``known_side_bet_edges``
  (every known pay table's), ``player_favourable`` (why a pay table cannot be offered).
- Simulation: ``play_rounds``, ``play_worker``, ``split_rounds``, ``stake_for``, ``Tally``.
"""

from bot.engine.analysis.edge import house_edge
from bot.engine.analysis.exact_play import decision_values, decision_words
from bot.engine.analysis.grading import Grade, grade_decision
from bot.engine.analysis.side_bets import SideBetEdge, player_favourable, side_bet_edge
from bot.engine.analysis.side_bets import known_edges as known_side_bet_edges
from bot.engine.analysis.simulate import Tally, play_rounds, play_worker, split_rounds, stake_for
from bot.engine.analysis.strategy import (
    Chart,
    advise,
    chart_for,
    infinite_lookup,
    lookup_for,
    strategy_rules,
)

__all__ = [
    "Chart",
    "Grade",
    "SideBetEdge",
    "Tally",
    "advise",
    "chart_for",
    "decision_values",
    "decision_words",
    "grade_decision",
    "house_edge",
    "infinite_lookup",
    "known_side_bet_edges",
    "lookup_for",
    "play_rounds",
    "play_worker",
    "player_favourable",
    "side_bet_edge",
    "split_rounds",
    "stake_for",
    "strategy_rules",
]
