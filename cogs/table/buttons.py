"""The buttons under the table message, one table of specs (:data:`BUTTONS`) that both
layouts and every game mode read, and their custom ids ``bj:{table_id}:{round_no}:{action}``.

Pure data, sent as :class:`SentButtons` (or as a V2 message's action rows); the table cog
routes a click by its custom id, so clicks route after a restart too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final

import discord

from bot.engine import Action
from bot.i18n import ENGLISH, Text, _
from bot.play_gate import Activity
from bot.tables.snapshot import TablePhase, TableSnapshot
from cogs.table import round_details

#: A game mode's plays: one row, without Surrender (and with Hint), from insurance on.
_MODE_PLAYS: Final = {("mode", TablePhase.INSURANCE): 0, ("mode", TablePhase.PLAYING): 0}
#: Where a button shows: by kind of table ("cash", or "mode" for a game mode's own seats, a
#: tournament's) and phase, the row it takes.
Rows = Mapping[tuple[str, TablePhase], int]
_PLAYING: Final[Rows] = {("cash", TablePhase.PLAYING): 0, **_MODE_PLAYS}
_AT_THE_TABLE: Final[Rows] = {
    ("cash", TablePhase.BETTING): 0,
    ("cash", TablePhase.INSURANCE): 1,
    ("cash", TablePhase.PLAYING): 1,
}


@dataclass(frozen=True, slots=True)
class ButtonState:
    """What decides which buttons a table shows and enables."""

    round_no: int
    #: The actions some player may take now.
    legal: frozenset[Action]
    #: Whether anyone is seated.
    seated: bool
    #: Whether Bet again and Bet 2× could repeat someone's bet.
    rebets: tuple[bool, bool]
    #: A practice table, and whether its count quiz is open.
    practice: tuple[bool, bool] = (False, False)
    #: Whether the last round's account can be shown (Round details).
    details: bool = False


def _always(state: ButtonState) -> bool:
    return True


@dataclass(frozen=True, slots=True)
class TableButton:
    """One button of the table message. Adding a button is one entry in :data:`BUTTONS`
    (its row order is the table's order) and its handler in ``cogs.table.presses``."""

    #: Its name in custom ids, ``bj:{table_id}:{round_no}:{action}``.
    action: str
    label: Text
    style: discord.ButtonStyle
    rows: Rows
    #: The engine action it plays: enabled while some player may take it.
    play: Action | None = None
    #: Enabled when (by default: its play is legal for someone; else always).
    enabled: Callable[[ButtonState], bool] | None = None
    #: Shown at all when (where its rows place it).
    shown: Callable[[ButtonState], bool] = _always
    #: Who may press it beyond a seat: what the play gate is asked first (at a cash table).
    gate: Activity | None = None

    def is_enabled(self, state: ButtonState) -> bool:
        """Whether a press may do something now (one message serves every player)."""
        if self.enabled is not None:
            return self.enabled(state)
        return self.play is None or self.play in state.legal


def _play(action: str, label: Text, style: discord.ButtonStyle, play: Action) -> TableButton:
    rows = _PLAYING if play is not Action.SURRENDER else {("cash", TablePhase.PLAYING): 0}
    return TableButton(action, label, style, rows, play=play)


_INSURANCE: Final[Rows] = {("cash", TablePhase.INSURANCE): 0}
#: A practice table's own row, below the others.
_PRACTICE: Final[Rows] = {
    ("cash", TablePhase.BETTING): 1,
    ("cash", TablePhase.INSURANCE): 2,
    ("cash", TablePhase.PLAYING): 2,
}

#: Every table button, in the order a row shows them.
BUTTONS: Final[tuple[TableButton, ...]] = (
    _play("hit", _("Hit"), discord.ButtonStyle.primary, Action.HIT),
    _play("stand", _("Stand"), discord.ButtonStyle.secondary, Action.STAND),
    _play("double", _("Double"), discord.ButtonStyle.secondary, Action.DOUBLE),
    _play("split", _("Split"), discord.ButtonStyle.secondary, Action.SPLIT),
    _play("surrender", _("Surrender"), discord.ButtonStyle.danger, Action.SURRENDER),
    TableButton(
        "insurance", _("Insurance"), discord.ButtonStyle.primary, _INSURANCE, Action.INSURANCE
    ),
    TableButton(
        "no_insurance",
        _("No insurance"),
        discord.ButtonStyle.secondary,
        _INSURANCE,
        Action.NO_INSURANCE,
    ),
    TableButton(
        "hint",
        _("Hint"),
        discord.ButtonStyle.secondary,
        {("cash", TablePhase.PLAYING): 1, **_MODE_PLAYS},
        enabled=lambda state: bool(state.legal),
    ),
    TableButton(
        "rebet",
        _("Bet again"),
        discord.ButtonStyle.primary,
        {("cash", TablePhase.BETTING): 0},
        shown=lambda state: state.rebets[0],
        gate=Activity.BET,
    ),
    TableButton(
        "rebet2",
        _("Bet 2×"),
        discord.ButtonStyle.primary,
        {("cash", TablePhase.BETTING): 0},
        shown=lambda state: state.rebets[1],
        gate=Activity.BET,
    ),
    TableButton("join", _("Join"), discord.ButtonStyle.success, _AT_THE_TABLE, gate=Activity.JOIN),
    TableButton(
        "leave",
        _("Leave"),
        discord.ButtonStyle.secondary,
        _AT_THE_TABLE,
        enabled=lambda state: state.seated,
    ),
    # A game mode's sealed bets, with the Bet form, from its first hand on.
    TableButton(
        "bet",
        _("Bet"),
        discord.ButtonStyle.primary,
        {("mode", TablePhase.BETTING): 0},
        shown=lambda state: state.round_no > 0,
    ),
    # A practice table's row of its own (cash): Count, and Quiz while a count quiz is open.
    TableButton(
        "count",
        _("Count"),
        discord.ButtonStyle.secondary,
        _PRACTICE,
        shown=lambda state: state.practice[0],
    ),
    TableButton(
        "quiz",
        _("Quiz"),
        discord.ButtonStyle.success,
        _PRACTICE,
        shown=lambda state: state.practice[0] and state.practice[1],
    ),
    # After a settled round, while bets are taken: the last round's full account, privately.
    TableButton(
        round_details.ACTION,
        round_details.LABEL,
        round_details.STYLE,
        {("cash", TablePhase.BETTING): 0, ("mode", TablePhase.BETTING): 0},
        shown=lambda state: state.details,
    ),
)
#: Each button by its action.
BY_ACTION: Final[dict[str, TableButton]] = {button.action: button for button in BUTTONS}
#: Every action a table button can carry in its custom id.
BUTTON_ACTIONS: Final = tuple(BY_ACTION)
#: ``bj:{table_id}:{round_no}:{action}``: clicks route by this after a restart too.
CUSTOM_ID_TEMPLATE: Final = (
    r"bj:(?P<table_id>[0-9A-Za-z]{1,40}):(?P<round_no>[0-9]{1,15}):"
    r"(?P<action>" + "|".join(BUTTON_ACTIONS) + r")"
)
_CUSTOM_ID = re.compile(CUSTOM_ID_TEMPLATE)
#: Button labels, also what tests click by.
LABELS: Final[dict[str, Text]] = {button.action: button.label for button in BUTTONS}


@dataclass(frozen=True, slots=True)
class ButtonRef:
    """What a table button's custom id says, parsed once: the table, the round, the button,
    and the engine action it plays (None for hint, join, leave and the bet buttons)."""

    table_id: str
    round_no: int
    action: str
    play: Action | None = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "play", BY_ACTION[self.action].play)


def custom_id(table_id: str, round_no: int, action: str) -> str:
    """The custom id of a table button: ``bj:{table_id}:{round_no}:{action}``."""
    if action not in BUTTON_ACTIONS:
        raise ValueError(f"not a table button action: {action!r}")
    return f"bj:{table_id}:{round_no}:{action}"


def parse_custom_id(text: str) -> ButtonRef | None:
    """The table, round and action of a table button's custom id, or None if it is not one."""
    match = _CUSTOM_ID.fullmatch(text)
    if match is None:
        return None
    return ButtonRef(match["table_id"], int(match["round_no"]), match["action"])


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    """One button of the table message, before it becomes a discord.ui.Button."""

    action: str
    label: str
    custom_id: str
    style: discord.ButtonStyle
    disabled: bool
    row: int


class SentButtons(discord.ui.View):
    """The buttons under a table message: a View of :class:`discord.ui.Button`, one per
    spec, stopped as soon as it is made.

    Table clicks are routed by custom id (the table cog's ``on_interaction``), so after a
    restart too, never through a stored view; discord.py stores a view sent with a
    message only while it is not finished, so a stopped one is sent and never stored.
    (A View can only be stopped on a running event loop, where the bot renders tables.)
    A table reuses its view while its buttons stay the same, and its buttons while each
    stays the same (``cogs.table.made_items``).
    """

    def __init__(
        self,
        specs: tuple[ButtonSpec, ...],
        buttons: Sequence[discord.ui.Button[discord.ui.View]] | None = None,
    ) -> None:
        """A view of ``specs``, made of ``buttons`` (already made of them) when given."""
        super().__init__(timeout=None)
        if buttons is None:
            buttons = [ui_button(spec, row=spec.row) for spec in specs]
        for button in buttons:
            self.add_item(button)
        self.stop()


def ui_button(spec: ButtonSpec, row: int | None = None) -> discord.ui.Button[discord.ui.View]:
    """The discord.py button for ``spec`` (in a V2 message its action row places it)."""
    return discord.ui.Button(
        label=spec.label,
        custom_id=spec.custom_id,
        style=spec.style,
        disabled=spec.disabled,
        row=row,
    )


def table_buttons(snapshot: TableSnapshot, language: str = ENGLISH) -> tuple[ButtonSpec, ...]:
    """The buttons for this phase, labelled in ``language``; an action is enabled if it is
    legal for at least one player.

    One message serves every player, so a press by someone who cannot take the
    action is refused by the service with an ephemeral reason.
    """
    if snapshot.phase is TablePhase.CLOSED:
        return ()
    legal: frozenset[Action] = frozenset()
    for seat in snapshot.seats:
        if seat.legal:
            legal = legal | seat.legal
    state = ButtonState(
        snapshot.round_no,
        legal,
        bool(snapshot.seats),
        snapshot.rebets,
        (snapshot.practice, snapshot.quiz_open),
        round_details.shows_details(snapshot),
    )
    kind = "cash" if snapshot.mode == "cash" else "mode"
    return _buttons(snapshot.table_id, kind, snapshot.phase, state, language)


@lru_cache(maxsize=1024)
def _buttons(
    table_id: str, kind: str, phase: TablePhase, state: ButtonState, language: str
) -> tuple[ButtonSpec, ...]:
    """The buttons of a table in ``phase``: made once a round and phase (the same tuple
    then, which a sent view is compared with). Bet again and Bet 2× are left out while no
    bet could be repeated (``rebets``): before anyone's first bet, and Bet 2× where the
    table's maximum takes no bet twice (reno-1972's 2–2)."""
    placed = [
        (button.rows[kind, phase], index, button)
        for index, button in enumerate(BUTTONS)
        if (kind, phase) in button.rows and button.shown(state)
    ]
    return tuple(
        ButtonSpec(
            action=button.action,
            label=button.label.in_language(language),
            custom_id=custom_id(table_id, state.round_no, button.action),
            style=button.style,
            disabled=not button.is_enabled(state),
            row=row,
        )
        for row, _index, button in sorted(placed, key=lambda placing: placing[:2])
    )
