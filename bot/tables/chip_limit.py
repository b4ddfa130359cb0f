"""The chip ceiling (``db.MAX_BALANCE``): what a bet could win at most, and the refusals.

A bet is refused up front when its best outcome could take the balance past the
ceiling, so settlement never has to pay more than fits. Chips can still reach a
player from elsewhere while a round is open (a grant, /daily, another table), so
settlement keeps a last line of defence too: ``capped`` pays that player up to the
ceiling and leaves every other player's result as dealt.

A refused credit says how far it went over: the player's balance (with what the same
transaction had already credited them) plus its amount, less the ceiling. Cutting that
much from what the player is owed never cuts more than the ceiling requires, however
their payouts are split into credits (a hand's payout, then a side bet's), so retrying
with the cut settles at most a few times, paying them up to the ceiling exactly.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from typing import TypeVar

import db
from bot.engine import Rules
from bot.i18n import Text, _


def best_win(rules: Rules, stake: int, spots: int) -> int:
    """The most ``spots`` hands of ``stake`` each could win (net) under ``rules``.

    Every spot split as far as the rules allow, every hand doubled and won; or a
    natural paid at the table's rate; plus an insurance bet won. Generous on purpose:
    it is a bound, not a forecast.
    """
    hands = rules.max_hands if rules.split_by != "none" and not rules.hit_stand_only else 1
    doubled = 2 if rules.double_on != "none" and not rules.hit_stand_only else 1
    paid, per = _ratio(rules.blackjack_pays)
    natural = stake * paid // per
    insurance = stake if rules.insurance and not rules.hit_stand_only else 0
    return spots * (max(hands * doubled * stake, natural) + insurance)


@functools.cache
def _ratio(pays: str) -> tuple[int, int]:
    """A payout written ``"3:2"`` as (3, 2): read once per table's rate, not per bet."""
    paid, per = pays.split(":")
    return int(paid), int(per)


def at_the_limit(error: db.BalanceLimitExceeded, what: str) -> Text:
    """The plain refusal when ``what`` (a catalog message: "a bet of 500") could take a
    balance past the ceiling."""
    return _(
        "You are at the chip limit of {limit} (balance {balance}): "
        "{what} could take you past it. Nothing changed.",
        limit=error.limit,
        balance=error.balance,
        what=what,
    )


Paid = TypeVar("Paid", db.HandResult, db.SideBetResult)


def cut_payouts(results: Sequence[Paid], user_id: int, cut: int) -> list[Paid]:
    """``results`` with ``user_id`` paid ``cut`` chips less in all (their later results cut
    first)."""
    changed: list[Paid] = []
    for result in reversed(results):
        if result.user_id == user_id and cut > 0:
            less = min(cut, result.payout)
            cut -= less
            result = dataclasses.replace(result, payout=result.payout - less)
        changed.append(result)
    changed.reverse()
    return changed


def over_the_limit(error: db.BalanceLimitExceeded) -> int:
    """How many chips of the refused credit did not fit under the ceiling."""
    return error.amount - max(0, error.limit - error.balance)


def capped(
    payouts: Mapping[int, int],
    hands: Sequence[db.HandResult],
    side_bets: Sequence[db.SideBetResult],
    user_id: int,
    cut: int,
) -> tuple[dict[int, int], list[db.HandResult], list[db.SideBetResult]]:
    """The settlement with ``user_id`` paid ``cut`` chips less: their side bets' payouts cut
    first (the later first), then their hands' (the later first)."""
    side_cut = min(cut, sum(bet.payout for bet in side_bets if bet.user_id == user_id))
    hand_cut = cut - side_cut
    return (
        {**payouts, user_id: payouts[user_id] - hand_cut},
        cut_payouts(hands, user_id, hand_cut),
        cut_payouts(side_bets, user_id, side_cut),
    )
