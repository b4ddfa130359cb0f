"""The coach's job in the strategy worker: a settled round replayed from its journal in the
engine, and each decision in it graded exactly (``bot.engine.analysis.grade_decision``).

It runs in the worker process (``bot.strategy_process.StrategyPool``, the Hint's), so it
imports the engine only: the table service sends the round's rules and journal rows and
stores what comes back. A decision is graded for the shoe it was made from: the cards
the player had not seen (a full shoe of the rules' decks less every card dealt from the
shoe since its shuffle, the dealer's hole card put back). A stacked test shoe is read the
same way, as the first cards of a full shoe. A timeout is no decision: it is applied,
not graded.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine import Action, Event, Round, RoundPhase, Rules, shoe_from_dict
from bot.engine.analysis import grade_decision

#: The journal row that starts a round (the shoe's state and the bets).
DEAL = "deal"
#: A player's timer ran out: insurance declined, or every hand stood.
TIMEOUT = "timeout"


@dataclass(frozen=True, slots=True)
class GradedDecision:
    """One decision of a round, graded: what the coach stores and shows."""

    user_id: int
    #: The hand's cards as the engine writes them ("10♠"), and the dealer's up card.
    cards: tuple[str, ...]
    up: str
    #: Each legal choice's value per chip bet, by the action's name.
    values: dict[str, float]
    chosen: str
    best: str
    #: What the choice gave away per chip bet (0: the best), and the hand's stake.
    cost: float
    stake: int

    def detail(self) -> str:
        """The decision as stored: its cards and its choices' values (JSON)."""
        return json.dumps({"cards": self.cards, "up": self.up, "values": self.values})


def time_out(round_: Round, pid: str) -> list[Event]:
    """A player's timer ran out: insurance declined, or every hand stood."""
    if round_.is_finished:
        return []
    if round_.phase is RoundPhase.INSURANCE:
        # Timing out of the insurance question declines it; play goes on as usual.
        if Action.NO_INSURANCE in round_.legal_actions(pid):
            return round_.act(pid, Action.NO_INSURANCE)
        return []
    return round_.stand_all(pid)


def grade_round(rules: Rules, rows: Sequence[tuple[str, str, str | None]]) -> list[GradedDecision]:
    """Every decision of the round whose journal is ``rows`` ((player, action, detail),
    the deal first), graded in order (a job). ValueError when the rows make no round."""
    if not rows or rows[0][1] != DEAL or rows[0][2] is None:
        raise ValueError("the round's journal does not start with its deal")
    dealt = json.loads(rows[0][2])
    bets = [(str(pid), [int(stake) for stake in stakes]) for pid, stakes in dealt["bets"]]
    shoe = shoe_from_dict(dealt["shoe"])
    round_ = Round.deal(
        rules, shoe, bets, dealer_plays_out=bool(dealt.get("dealer_plays_out", False))
    )
    graded: list[GradedDecision] = []
    for player, action, _detail in rows[1:]:
        if round_.is_finished:
            break
        if action == TIMEOUT:
            time_out(round_, player)
            continue
        graded.append(_grade(rules, round_, player, Action(action)))
        round_.act(player, action)
    return graded


def _grade(rules: Rules, round_: Round, player: str, chosen: Action) -> GradedDecision:
    """The player's decision ``chosen`` graded as the round stands, before it is made."""
    legal = round_.legal_actions(player)
    up = round_.dealer_up_card
    hands = round_.hands(player)
    if round_.phase is RoundPhase.INSURANCE:
        hand, stake = hands[0], sum(each.stake for each in hands)
    else:
        index = round_.current_hand_index(player)
        if index is None:
            raise ValueError(f"{player} has no hand to decide on")
        hand = hands[index]
        stake = hand.stake
    cards = [card.value for card in hand.cards]
    grade = grade_decision(rules, cards, up.value, unseen(rules, round_), legal, chosen)
    return GradedDecision(
        user_id=int(player),
        cards=tuple(str(card) for card in hand.cards),
        up=str(up),
        values={action.value: value for action, value in grade.values.items()},
        chosen=chosen.value,
        best=grade.best.value,
        cost=grade.cost,
        stake=stake,
    )


def unseen(rules: Rules, round_: Round) -> list[int]:
    """The cards by value (aces first) a player has not seen: a full shoe of the rules'
    decks less the cards dealt since the shuffle, the dealer's hole card put back."""
    full = [4 * rules.decks] * 9 + [16 * rules.decks]
    left = list(full)
    shoe = round_.shoe
    for card in shoe.cards[: shoe.position]:
        left[card.value - 1] -= 1
    for card in round_.dealer.cards[1:]:  # the hole card, face down
        left[card.value - 1] += 1
    return [min(most, max(0, count)) for most, count in zip(full, left, strict=True)]
