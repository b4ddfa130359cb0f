"""Why a press is refused, in plain words: the checks ``act`` and ``hint`` make first."""

from __future__ import annotations

from bot.engine import Action, IllegalAction, NotYourTurn, Round
from bot.engine.round_state import RoundPhase
from bot.tables.errors import ActionRefused, NothingToDo, NotSeated, StaleButton, WrongPhase
from bot.tables.snapshot import TablePhase
from bot.tables.table import Table

EARLIER_ROUND = "That button is from an earlier round."


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


def legal_action(round_: Round, pid: str, action: Action | str) -> Action:
    """``action``, if the rules allow it now; otherwise a TableError that says why."""
    try:
        action = Action(action)
    except ValueError:
        raise ActionRefused(f"{action!r} is not something you can do at a table.") from None
    legal = round_.legal_actions(pid)
    if action in legal:
        return action
    insurance = action in (Action.INSURANCE, Action.NO_INSURANCE)
    if round_.phase is RoundPhase.INSURANCE:
        if insurance:
            raise NothingToDo("You have already decided on insurance.")
        if legal:
            raise ActionRefused("Decide on insurance first: Insurance or No insurance.")
        raise NothingToDo("Waiting for the other players to decide on insurance.")
    if not legal:
        raise NothingToDo("You have no hand left to play this round.")
    if insurance:
        raise ActionRefused("Insurance is only offered before play starts.")
    try:
        round_.cost(pid, action)
    except NotYourTurn as error:
        raise NothingToDo(sentence(str(error))) from None
    except IllegalAction as error:
        raise ActionRefused(sentence(str(error))) from None
    raise ActionRefused(f"You can't {action.value} now.")


def sentence(text: str) -> str:
    """An engine reason ("you can double only ...") as a sentence for the player."""
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")
