"""Why a bet or an action is refused, in words for the player."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.engine.actions import Action
from bot.engine.errors import InvalidBets
from bot.engine.hand import Hand
from bot.engine.rules import Rules

#: The first two-card totals each ``Rules.double_on`` lets a hand double on: the one
#: table both the Round and the expected values (``bot.engine.ev``) read.
DOUBLE_TOTALS: Final[dict[str, frozenset[int]]] = {
    "any": frozenset(range(4, 22)),
    "9-11": frozenset((9, 10, 11)),
    "10-11": frozenset((10, 11)),
    "none": frozenset(),
}


def why_not(rules: Rules, hand: Hand, action: Action) -> str:
    """Why ``action`` is not allowed on ``hand``, for the player."""
    if rules.hit_stand_only and action in (Action.DOUBLE, Action.SPLIT, Action.SURRENDER):
        return "this table allows only hit and stand"
    if hand.split_aces and not rules.hit_split_aces and action is not Action.SPLIT:
        return "split aces get one card each"
    if action is Action.DOUBLE:
        if len(hand.cards) != 2:
            return "you can double only on your first two cards"
        if hand.split and not rules.double_after_split:
            return "no doubling after a split at this table"
        if rules.double_on == "none":
            return "this table does not allow doubling"
        return f"at this table you can double only on {rules.double_on}, not on {hand.total}"
    if action is Action.SPLIT:
        if rules.split_by == "none":
            return "this table does not allow splitting"
        if len(hand.cards) != 2 or not hand.is_pair:
            return "you can split only a pair on your first two cards"
        if rules.split_by == "rank" and hand.cards[0].rank != hand.cards[1].rank:
            return "at this table you can split only two cards of the same rank"
        if hand.cards[0].rank == 1 and hand.split and not rules.resplit_aces:
            return "no resplitting aces at this table"
        return f"a spot can be split into at most {rules.max_hands} hands"
    if action is Action.SURRENDER:
        if rules.surrender == "none":
            return "this table does not allow surrender"
        if hand.split:
            return "you can't surrender after splitting"
        return "you can surrender only on your first two cards"
    return f"you can't {action.value} now"


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
