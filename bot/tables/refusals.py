"""Why a press is refused, in the player's words.

The table checks only what the engine cannot know (the button's round, the phase, the
seat); whether the action is legal is the engine's one question, ``Round.judge``, and
its ``Refusal`` is put into a sentence here.
"""

from __future__ import annotations

from typing import Final

from bot.engine import Action, Refusal, Round, Verdict
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

EARLIER_ROUND = "That button is from an earlier round."

#: Refusals the table words its own way: nothing for this player to do now, or a choice
#: to make first. Every other refusal is a rule, said in the engine's words.
_REFUSED: Final[dict[Refusal, tuple[type[TableError], str]]] = {
    Refusal.ROUND_OVER: (NothingToDo, "You have no hand left to play this round."),
    Refusal.NO_HAND_LEFT: (NothingToDo, "You have no hand left to play this round."),
    Refusal.INSURANCE_DECIDED: (NothingToDo, "You have already decided on insurance."),
    Refusal.WAITING_FOR_INSURANCE: (
        NothingToDo,
        "Waiting for the other players to decide on insurance.",
    ),
    # Split, Double and Surrender are shared: each is enabled while anyone can use it,
    # so a press by someone whose own hand cannot is a plain "not for you", not a fault.
    Refusal.SPLIT_A_PAIR: (ActionRefused, "You have no pair to split."),
    Refusal.DOUBLE_FIRST_TWO_CARDS: (ActionRefused, "You have no two-card hand to double."),
    Refusal.SURRENDER_FIRST_TWO_CARDS: (
        ActionRefused,
        "You have no two-card hand to surrender.",
    ),
    Refusal.DECIDE_INSURANCE_FIRST: (
        ActionRefused,
        "Decide on insurance first: Insurance or No insurance.",
    ),
}


def player_in_round(table: Table, round_no: int, user_id: int) -> str:
    """The player's id in the round, after the stale / phase / seat checks."""
    if round_no != table.round_no:
        raise StaleButton(EARLIER_ROUND)
    if table.phase is TablePhase.BETTING:
        raise WrongPhase("The cards are not out yet: place a bet with /bet.")
    seat = table.seat_of(user_id)
    if seat is None:
        raise NotSeated("You are not seated at this table. Join, then bet in the next round.")
    if not table.in_round(seat):
        raise NothingToDo("You have no hand in this round. Bet in the next one.")
    return seat.pid


def judged(round_: Round, pid: str, action: Action | str) -> Verdict:
    """The engine's verdict on ``action``, if legal; otherwise a TableError that says why."""
    verdict = round_.judge(pid, action)
    refusal = verdict.refusal
    if refusal is None:
        return verdict
    if refusal is Refusal.NOT_AN_ACTION:
        raise ActionRefused(f"{action!r} is not something you can do at a table.")
    error, words = _REFUSED.get(refusal, (ActionRefused, ""))
    raise error(words or sentence(verdict.reason))


def sentence(text: str) -> str:
    """An engine reason ("you can double only ...") as a sentence for the player."""
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")
