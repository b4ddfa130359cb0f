"""A round's journal: each decision as one stored row, and the round rebuilt from them.

Why: a hit or a stand moves no chips, yet must survive a crash before its click
is answered. Rewriting the whole round at every click costs a multi-kilobyte
write; appending ``(player, action)`` costs one small row. The shoe is a
function of its seed, so the 'deal' row (the shoe's state and the bets) and
the decisions after it rebuild the round exactly, card for card.

The steps here are the ones the live table runs too (flow.py calls them), so a
replayed round has the same hands, event lines and deadlines as the lost one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import db
from bot.coach_grading import DEAL, TIMEOUT, time_out
from bot.engine import (
    SPECS,
    Action,
    Round,
    RoundPhase,
    Rules,
    Verdict,
    parse_pay_table,
    shoe_from_dict,
)
from bot.shown_names import shown_name
from bot.tables.results import event_lines
from bot.tables.side_bets import SideBetRules, outcome_news, side_bet_outcomes
from bot.tables.snapshot import TablePhase
from bot.tables.table import Table

#: The engine's event of the dealer's up card (side-bet results follow it).
DEALER_UP = "dealer_up"


@dataclass(frozen=True, slots=True)
class SettledRound:
    """A round whose settlement is committed, with its journal as the table kept it in
    memory (the rows the store holds, in order): what the coach grades it from."""

    round_id: int
    guild_id: int
    rules: Rules
    journal: tuple[db.TableAction, ...]


class JournalError(ValueError):
    """The journal cannot be replayed (a row this code does not know, or out of order)."""


def names(table: Table) -> dict[str, str]:
    """Each seated player's engine id and name as the table's texts show it."""
    return {seat.pid: shown_name(seat.player.name) for seat in table.seats}


# -- the steps, shared by the live table and the replay ----------------------------------------


def side_stakes(table: Table) -> dict[str, dict[str, int]]:
    """Each player's side bets this round (stake per spot by bet), for those who placed any."""
    return {seat.pid: dict(seat.side) for seat in table.seats if seat.spots and seat.side}


def deal_round(table: Table, now: float) -> tuple[Round, db.TableAction]:
    """Deal to every player who bet, in seat order; the round and its journal row.

    A live bet whose spec says so (Buster) has the dealer play out the hand whatever the
    players hold."""
    assert table.round_id is not None
    bets = [(seat.pid, [seat.bet] * seat.spots) for seat in table.seats if seat.spots]
    side = side_stakes(table)
    plays_out = any(SPECS[bet].dealer_plays_out for bets_of in side.values() for bet in bets_of)
    record: dict[str, object] = {"shoe": table.shoe.to_dict(), "bets": bets}
    if side:
        # With their pay tables: the deal row alone replays the side bets' payouts.
        offered = {bet: table.side_bets.tables[bet].name for bet in table.side_bets.tables}
        record |= {"side_bets": side, "pay_tables": offered, "dealer_plays_out": plays_out}
    detail = json.dumps(record, separators=(",", ":"))
    round_ = Round.deal(table.rules, table.shoe, bets, dealer_plays_out=plays_out)
    return round_, db.TableAction(table.table_id, table.round_id, "", DEAL, detail, now)


def dealt_side_bets(detail: dict[str, Any]) -> tuple[SideBetRules, dict[str, dict[str, int]]]:
    """The side bets a deal row records: the pay tables offered, and each player's stakes."""
    tables = detail.get("pay_tables", {})
    offered = SideBetRules({bet: parse_pay_table(bet, name) for bet, name in tables.items()})
    stakes = {
        str(pid): {str(bet): int(stake) for bet, stake in bets.items()}
        for pid, bets in detail.get("side_bets", {}).items()
    }
    return offered, stakes


def begin_round(table: Table, round_: Round, deal: db.TableAction) -> None:
    """The table's side of a deal (``deal``, the journal's first row): the round is on,
    last round's results are cleared."""
    table.round = round_
    table.journal = [deal]
    table.shuffle_notice = ()
    table.last_results = table.last_summary = table.last_owners = ()
    for seat in table.seats:
        seat.last_net = None
    table.insurance_offered = round_.phase is RoundPhase.INSURANCE
    events = round_.events
    table.events = event_lines(events, names(table))
    # The bets the deal decides (21+3, Perfect Pairs): their results show right after the
    # dealer's up card, before insurance or the peek (the wins; the losses summed).
    early = side_bet_outcomes(round_, table.side_bets, side_stakes(table), settled=False)
    if early:
        up = 1 + next(i for i, event in enumerate(events) if event.kind == DEALER_UP)
        spots = {seat.pid: seat.spots for seat in table.seats}
        table.events[up:up] = outcome_news(early, names(table), spots)


def set_deadlines(table: Table, acted: set[str], now: float) -> None:
    """Phase and deadlines after the unfinished round changed.

    ``acted``: players whose timer restarts (they just acted); a player whose
    decision is new (play started after insurance) gets a fresh timer too.
    """
    round_ = table.round
    assert round_ is not None
    new_phase = TablePhase.INSURANCE if round_.phase is RoundPhase.INSURANCE else TablePhase.PLAYING
    phase_started = new_phase is not table.phase
    table.phase = new_phase
    to_act = set(round_.players_to_act())
    if phase_started:
        table.deadline = now + table.timers.action_s if new_phase is TablePhase.INSURANCE else None
    for seat in table.seats:
        if seat.pid not in to_act:
            seat.deadline = None
        elif phase_started or seat.pid in acted or seat.deadline is None:
            seat.deadline = now + table.timers.action_s


# -- journal rows ------------------------------------------------------------------------------


def decision(table: Table, pid: str, action: Action | str, now: float) -> db.TableAction:
    """The journal row of a decision (a button, or TIMEOUT)."""
    assert table.round_id is not None
    value = action.value if isinstance(action, Action) else action
    return db.TableAction(table.table_id, table.round_id, pid, value, None, now)


def replay(table: Table, actions: tuple[db.TableAction, ...]) -> None:
    """Rebuild the table's round from its journal (the table as it was when betting closed).

    JournalError (or the engine's own error) if the rows do not make a round.
    """
    if not actions or actions[0].action != DEAL or actions[0].detail is None:
        raise JournalError("the round's journal does not start with its deal")
    detail = json.loads(actions[0].detail)
    dealt = detail["shoe"]
    if table.shoe.to_dict() | {"position": dealt["position"]} == dealt:
        table.shoe.position = dealt["position"]  # the same shoe: no second shuffle
    else:
        table.shoe = shoe_from_dict(dealt)
    bets = [(str(pid), [int(stake) for stake in stakes]) for pid, stakes in detail["bets"]]
    plays_out = bool(detail.get("dealer_plays_out", False))
    round_ = Round.deal(table.rules, table.shoe, bets, dealer_plays_out=plays_out)
    table.phase = TablePhase.BETTING
    begin_round(table, round_, actions[0])
    if not round_.is_finished:
        set_deadlines(table, set(), actions[0].at)
    for row in actions[1:]:
        if round_.is_finished and row.action != TIMEOUT:  # late timeouts change nothing
            raise JournalError("the journal goes on after the round finished")
        apply_decision(table, row)


def apply_decision(table: Table, row: db.TableAction, verdict: Verdict | None = None) -> None:
    """Apply one journal row to the table's round (live, or replayed): cards, events, deadlines.

    ``verdict``: the engine's judgement of a live press (not judged twice). A finished
    round is left for the caller to settle.
    """
    round_ = table.round
    assert round_ is not None
    table.journal.append(row)
    if row.action == TIMEOUT:
        events = time_out(round_, row.player)
        acted: set[str] = set()
        for seat in table.seats:
            if seat.pid == row.player:
                seat.deadline = None
    else:
        events = round_.act(row.player, row.action) if verdict is None else round_.play(verdict)
        acted = {row.player}
    table.events.extend(event_lines(events, names(table)))
    if not round_.is_finished:
        set_deadlines(table, acted, row.at)
