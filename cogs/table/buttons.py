"""The buttons under the table message, and their custom ids ``bj:{table_id}:{round_no}:{action}``.

Pure data, sent as :class:`SentButtons`; the table cog routes a click by its custom id,
so clicks route after a restart too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final

import discord

from bot.engine import Action
from bot.i18n import ENGLISH, Text, _
from bot.tables.snapshot import TablePhase, TableSnapshot
from cogs.table import round_details

#: Every action a table button can carry in its custom id.
BUTTON_ACTIONS: Final = (
    "hit",
    "stand",
    "double",
    "split",
    "surrender",
    "insurance",
    "no_insurance",
    "hint",
    "join",
    "leave",
    "rebet",
    "rebet2",
    "bet",
    round_details.ACTION,
)
#: ``bj:{table_id}:{round_no}:{action}``: clicks route by this after a restart too.
CUSTOM_ID_TEMPLATE: Final = (
    r"bj:(?P<table_id>[0-9A-Za-z]{1,40}):(?P<round_no>[0-9]{1,15}):"
    r"(?P<action>" + "|".join(BUTTON_ACTIONS) + r")"
)
_CUSTOM_ID = re.compile(CUSTOM_ID_TEMPLATE)

# Button labels, also what tests click by.
LABELS: Final[dict[str, Text]] = {
    "hit": _("Hit"),
    "stand": _("Stand"),
    "double": _("Double"),
    "split": _("Split"),
    "surrender": _("Surrender"),
    "insurance": _("Insurance"),
    "no_insurance": _("No insurance"),
    "hint": _("Hint"),
    "join": _("Join"),
    "leave": _("Leave"),
    "rebet": _("Bet again"),
    "rebet2": _("Bet 2×"),
    "bet": _("Bet"),
    round_details.ACTION: round_details.LABEL,
}
_STYLES: Final[dict[str, discord.ButtonStyle]] = {
    "hit": discord.ButtonStyle.primary,
    "stand": discord.ButtonStyle.secondary,
    "double": discord.ButtonStyle.secondary,
    "split": discord.ButtonStyle.secondary,
    "surrender": discord.ButtonStyle.danger,
    "insurance": discord.ButtonStyle.primary,
    "no_insurance": discord.ButtonStyle.secondary,
    "hint": discord.ButtonStyle.secondary,
    "join": discord.ButtonStyle.success,
    "leave": discord.ButtonStyle.secondary,
    "rebet": discord.ButtonStyle.primary,
    "rebet2": discord.ButtonStyle.primary,
    "bet": discord.ButtonStyle.primary,
    round_details.ACTION: round_details.STYLE,
}
_PLAY_ACTIONS: Final[dict[str, Action]] = {
    "hit": Action.HIT,
    "stand": Action.STAND,
    "double": Action.DOUBLE,
    "split": Action.SPLIT,
    "surrender": Action.SURRENDER,
    "insurance": Action.INSURANCE,
    "no_insurance": Action.NO_INSURANCE,
}


@dataclass(frozen=True, slots=True)
class ButtonRef:
    """What a table button's custom id says, parsed once: the table, the round, the button,
    and the engine action it plays (None for hint, join, leave and the bet buttons)."""

    table_id: str
    round_no: int
    action: str
    play: Action | None = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "play", _PLAY_ACTIONS.get(self.action))


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
    A table reuses its view while its buttons stay the same (``TableMessages.view_for``).
    """

    def __init__(self, specs: tuple[ButtonSpec, ...]) -> None:
        super().__init__(timeout=None)
        for spec in specs:
            self.add_item(
                discord.ui.Button(
                    label=spec.label,
                    custom_id=spec.custom_id,
                    style=spec.style,
                    disabled=spec.disabled,
                    row=spec.row,
                )
            )
        self.stop()


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
    seated = bool(snapshot.seats)
    return _buttons(
        snapshot.table_id,
        snapshot.round_no,
        snapshot.phase,
        legal,
        seated,
        language,
        snapshot.rebets,
        snapshot.mode,
        round_details.shows_details(snapshot),
    )


@lru_cache(maxsize=1024)
def _buttons(
    table_id: str,
    round_no: int,
    phase: TablePhase,
    legal: frozenset[Action],
    seated: bool,
    language: str,
    rebets: tuple[bool, bool] = (False, False),
    mode: str = "cash",
    details: bool = False,
) -> tuple[ButtonSpec, ...]:
    """The buttons of a table in ``phase`` where some player may do ``legal``: made once a
    round and phase (the same tuple then, which a sent view is compared with). Bet again
    and Bet 2× are left out while no bet could be repeated (``rebets``): before anyone's
    first bet, and Bet 2× where the table's maximum takes no bet twice (reno-1972's 2–2).
    A tournament's table (``mode``) has its own seats: no Join or Leave; its bets are
    sealed with the Bet form, from its first hand on. Round details (``details``) follows
    the betting buttons after a settled round."""
    layout: list[list[tuple[str, bool]]]
    more = [(round_details.ACTION, True)] if details else []
    if mode != "cash":
        if phase is TablePhase.BETTING:
            layout = [[("bet", True), *more]] if round_no else []
        else:
            plays = [(name, _PLAY_ACTIONS[name] in legal) for name in _ROW_PLAY]
            layout = [[*plays[:4], ("hint", bool(legal))]]
    elif phase is TablePhase.BETTING:
        again, twice = rebets
        layout = [
            [
                *([("rebet", True)] if again else []),
                *([("rebet2", True)] if twice else []),
                ("join", True),
                ("leave", seated),
                *more,
            ]
        ]
    elif phase is TablePhase.INSURANCE:
        layout = [
            [
                ("insurance", Action.INSURANCE in legal),
                ("no_insurance", Action.NO_INSURANCE in legal),
            ],
            [("join", True), ("leave", seated)],
        ]
    else:
        layout = [
            [(name, _PLAY_ACTIONS[name] in legal) for name in _ROW_PLAY],
            [("hint", bool(legal)), ("join", True), ("leave", seated)],
        ]
    specs: list[ButtonSpec] = []
    for row, names in enumerate(layout):
        for action, enabled in names:
            specs.append(
                ButtonSpec(
                    action=action,
                    label=LABELS[action].in_language(language),
                    custom_id=custom_id(table_id, round_no, action),
                    style=_STYLES[action],
                    disabled=not enabled,
                    row=row,
                )
            )
    return tuple(specs)


_ROW_PLAY: Final = ("hit", "stand", "double", "split", "surrender")
