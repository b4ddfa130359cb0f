"""Why a press is refused, in the player's words.

The table checks only what the engine cannot know (the button's round, the phase, the
seat); whether the action is legal is the engine's one question, ``Round.judge``, and
its ``Refusal`` is put into a sentence here.
"""

from __future__ import annotations

from typing import Final

from bot.engine import Action, Refusal, Round, Verdict
from bot.i18n import Text, _
from bot.tables.errors import (
    ActionRefused,
    NothingToDo,
    NotSeated,
    StaleButton,
    TableError,
    WrongPhase,
)
from bot.tables.snapshot import TablePhase
from bot.tables.table import Table

EARLIER_ROUND = _("That button is from an earlier round.")

#: Refusals the table words its own way: nothing for this player to do now, or a choice
#: to make first. Every other refusal is a rule, said in the engine's words.
_REFUSED: Final[dict[Refusal, tuple[type[TableError], Text]]] = {
    Refusal.ROUND_OVER: (NothingToDo, _("You have no hand left to play this round.")),
    Refusal.NO_HAND_LEFT: (NothingToDo, _("You have no hand left to play this round.")),
    Refusal.INSURANCE_DECIDED: (NothingToDo, _("You have already decided on insurance.")),
    Refusal.WAITING_FOR_INSURANCE: (
        NothingToDo,
        _("Waiting for the other players to decide on insurance."),
    ),
    # Split, Double and Surrender are shared: each is enabled while anyone can use it,
    # so a press by someone whose own hand cannot is a plain "not for you", not a fault.
    Refusal.SPLIT_A_PAIR: (ActionRefused, _("You have no pair to split.")),
    Refusal.DOUBLE_FIRST_TWO_CARDS: (ActionRefused, _("You have no two-card hand to double.")),
    Refusal.SURRENDER_FIRST_TWO_CARDS: (
        ActionRefused,
        _("You have no two-card hand to surrender."),
    ),
    Refusal.DECIDE_INSURANCE_FIRST: (
        ActionRefused,
        _("Decide on insurance first: Insurance or No insurance."),
    ),
}


def player_in_round(table: Table, round_no: int, user_id: int) -> str:
    """The player's id in the round, after the stale / phase / seat checks."""
    if round_no != table.round_no:
        raise StaleButton(EARLIER_ROUND)
    if table.phase is TablePhase.BETTING:
        raise WrongPhase(_("The cards are not out yet: place a bet with /bet."))
    seat = table.seat_of(user_id)
    if seat is None:
        raise NotSeated(_("You are not seated at this table. Join, then bet in the next round."))
    if not table.in_round(seat):
        raise NothingToDo(_("You have no hand in this round. Bet in the next one."))
    return seat.pid


def judged(round_: Round, pid: str, action: Action | str) -> Verdict:
    """The engine's verdict on ``action``, if legal; otherwise a TableError that says why."""
    verdict = round_.judge(pid, action)
    refusal = verdict.refusal
    if refusal is None:
        return verdict
    if refusal is Refusal.NOT_AN_ACTION:
        raise ActionRefused(
            _("{action} is not something you can do at a table.", action=repr(action))
        )
    error, words = _REFUSED.get(refusal, (ActionRefused, None))
    raise error(words or rule_refusal(refusal, round_, pid) or sentence(verdict.reason))


#: The table rules a press may break, as the player reads them.
_RULES_SAY: Final[dict[Refusal, Text]] = {
    Refusal.NOT_IN_ROUND: _("You have no hand in this round. Bet in the next one."),
    Refusal.INSURANCE_NOT_OFFERED: _("Insurance is only offered before play starts."),
    Refusal.HIT_STAND_ONLY: _("This table allows only hit and stand."),
    Refusal.ONE_CARD_ON_SPLIT_ACES: _("Split aces get one card each."),
    Refusal.NO_DOUBLE_AFTER_SPLIT: _("No doubling after a split at this table."),
    Refusal.NO_DOUBLE: _("This table does not allow doubling."),
    Refusal.NO_SPLIT: _("This table does not allow splitting."),
    Refusal.SPLIT_SAME_RANK: _("At this table you can split only two cards of the same rank."),
    Refusal.NO_RESPLIT_ACES: _("No resplitting aces at this table."),
    Refusal.NO_SURRENDER: _("This table does not allow surrender."),
    Refusal.NO_SURRENDER_AFTER_SPLIT: _("You can't surrender after splitting."),
}


def rule_refusal(refusal: Refusal, round_: Round, pid: str) -> Text | None:
    """A rule the press breaks, in a sentence of the catalog (None: the engine's words)."""
    if refusal is Refusal.SPLIT_LIMIT:
        return _("A spot can be split into at most {count} hands.", count=round_.rules.max_hands)
    if refusal is Refusal.DOUBLE_TOTALS:
        hands = round_.hands(pid)
        hand = hands[round_.current_hand_index(pid) or 0] if hands else None
        if hand is not None:
            return _(
                "At this table you can double only on {totals}, not on {total}.",
                totals=round_.rules.double_on,
                total=hand.total,
            )
    return _RULES_SAY.get(refusal)


def sentence(text: str) -> str:
    """An engine reason ("you can double only ...") as a sentence for the player."""
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")
