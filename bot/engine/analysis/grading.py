"""A decision graded exactly: what each legal choice was worth for the cards and the shoe
as they stood, the best of them, and what the choice made cost.

The values are those of ``decision_values`` (each later card played at its best, after
the peek when the dealer checks), but from the shoe the decision was made from (``left``:
the cards the player had not seen, the dealer's hole card among them) instead of a full
shoe: a composition rich in small cards can make hitting a hard 16 against a 10 worth
more than standing, and the grade then says so, whatever the chart says.

Insurance is a side wager of half the bet that pays 2 to 1 when the hole card makes a
blackjack: taking it is worth ``(3p - 1) / 2`` of the bet, ``p`` the chance of a ten in
the unseen cards; declining it is worth 0 (the hand itself plays the same either way).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from bot.engine.actions import Action
from bot.engine.analysis.dealer_odds import blackjack_card
from bot.engine.analysis.exact_play import UpCard
from bot.engine.rules import Rules

#: Two values closer than this are the same choice's worth (float rounding, not play).
TIE: float = 1e-9


@dataclass(frozen=True, slots=True)
class Grade:
    """One decision's grade: each legal choice's value per unit of the bet, and the one made."""

    values: dict[Action, float]
    chosen: Action

    @property
    def best(self) -> Action:
        """The choice worth the most (the choice made, when it ties for the most)."""
        top = max(self.values.values())
        if self.values[self.chosen] >= top - TIE:
            return self.chosen
        return max(self.values, key=lambda action: self.values[action])

    @property
    def cost(self) -> float:
        """What the choice made gave away, per unit of the bet: 0 when it was the best."""
        lost = self.values[self.best] - self.values[self.chosen]
        return lost if lost > TIE else 0.0


def grade_decision(
    rules: Rules,
    cards: Sequence[int],
    up: int,
    left: Sequence[int],
    legal: Collection[Action],
    chosen: Action,
) -> Grade:
    """Grade ``chosen`` on the hand ``cards`` (values, 1 = ace) against ``up``, among the
    ``legal`` choices, with ``left`` the unseen cards by value (ten counts, aces first).

    ValueError if ``chosen`` is not legal or the cards cannot be a hand."""
    if chosen not in legal:
        raise ValueError(f"{chosen} was not a legal choice")
    if chosen in (Action.INSURANCE, Action.NO_INSURANCE):
        return Grade(insurance_values(up, left), chosen)
    if len(cards) < 2 or not 1 <= up <= 10 or any(not 1 <= card <= 10 for card in cards):
        raise ValueError("a hand is two or more card values 1 (ace) to 10 against an up card")
    shoe = list(left)
    for card in cards:  # the hand's cards go back in: valuing a hand takes them out
        shoe[card - 1] += 1
    values = UpCard(rules, up, shoe=shoe).options(cards, pair=Action.SPLIT in legal)
    return Grade({action: values[action] for action in values if action in legal}, chosen)


def insurance_values(up: int, left: Sequence[int]) -> dict[Action, float]:
    """Taking and declining insurance against ``up``, per unit of the bet."""
    hole = blackjack_card(up)
    total = sum(left)
    chance = left[hole - 1] / total if hole and total else 0.0
    return {Action.INSURANCE: (3 * chance - 1) / 2, Action.NO_INSURANCE: 0.0}
