"""The table's buttons, one table of specs: where each shows, when it is enabled, its handler."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.engine.actions import Action
from bot.tables.snapshot import TablePhase
from cogs.table.buttons import BUTTON_ACTIONS, BUTTONS, table_buttons
from cogs.table.presses import HANDLERS
from tests.support.render_snapshots import hand, seat, table


def rows(
    phase: TablePhase, *, mode: str = "cash", round_no: int = 3, **seat_kw: Any
) -> list[list[str]]:
    alice = seat(1, "alice", hand("10♠ 6♥", 16), **seat_kw)
    snapshot = replace(table(phase, alice), mode=mode, round_no=round_no, rebets=(True, False))
    laid: dict[int, list[str]] = {}
    for spec in table_buttons(snapshot):
        laid.setdefault(spec.row, []).append(spec.action + ("" if not spec.disabled else "-"))
    return [laid[row] for row in sorted(laid)]


def test_every_button_has_a_handler_but_the_forms() -> None:
    assert set(HANDLERS) == set(BUTTON_ACTIONS) - {"bet", "quiz"}
    assert [button.action for button in BUTTONS] == list(BUTTON_ACTIONS)


def test_a_cash_table_lays_out_its_buttons_by_phase() -> None:
    legal = frozenset({Action.HIT, Action.STAND})
    assert rows(TablePhase.BETTING) == [["rebet", "join", "leave"]]
    assert rows(TablePhase.INSURANCE, legal=frozenset({Action.INSURANCE})) == [
        ["insurance", "no_insurance-"],
        ["join", "leave"],
    ]
    assert rows(TablePhase.PLAYING, legal=legal) == [
        ["hit", "stand", "double-", "split-", "surrender-"],
        ["hint", "join", "leave"],
    ]
    assert rows(TablePhase.CLOSED) == []


def test_a_game_modes_table_has_its_own_seats_and_sealed_bets() -> None:
    assert rows(TablePhase.BETTING, mode="tournament") == [["bet"]]
    assert rows(TablePhase.BETTING, mode="tournament", round_no=0) == []
    assert rows(TablePhase.INSURANCE, mode="tournament") == [
        ["hit-", "stand-", "double-", "split-", "hint-"]
    ]
    assert rows(TablePhase.PLAYING, mode="tournament", legal=frozenset({Action.DOUBLE})) == [
        ["hit-", "stand-", "double", "split-", "hint"]
    ]
