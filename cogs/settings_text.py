"""The server's settings as ``/blackjack-admin config`` lists them, one per line."""

from __future__ import annotations

from collections.abc import Mapping

from bot.i18n import NATIVE_NAMES, Text, _, joined
from cogs.responsible_admin import gates_text
from cogs.side_bet_config import side_bet_settings_lines
from db.models import GuildSettings

#: The season-length setting as the settings list says it.
SEASONS_SHOWN: dict[str, Text] = {
    "week": _("Seasons: one calendar week each (UTC)"),
    "month": _("Seasons: one calendar month each (UTC)"),
    "quarter": _("Seasons: one calendar quarter each (UTC)"),
    "year": _("Seasons: one calendar year each (UTC)"),
}


#: The layout setting as the settings list says it.
LAYOUTS_SHOWN: dict[str, Text] = {
    "embed": _("Table layout: one embed"),
    "components": _("Table layout: components (a block per seat)"),
}


def settings_text(settings: GuildSettings) -> Text:
    """The server's settings, one per line (practice tables' line only when they are on)."""
    layout = LAYOUTS_SHOWN.get(settings.layout, settings.layout)
    lines = [_general_text(settings), layout]
    if settings.practice_tables:
        lines.append(PRACTICE_TABLES)
    return joined(lines, "\n")


#: The practice tables setting's line, when it is on.
PRACTICE_TABLES: Text = _("New tables are practice tables (a counting trainer).")


def _general_text(settings: GuildSettings) -> Text:
    language: str = NATIVE_NAMES.get(settings.language) or _("the server's language")
    return _(
        "Default rules: {preset}\n"
        "Bets: {low} to {high} a hand\n"
        "Timers: betting {bet_timer} s, acting {action_timer} s, "
        "idle table closes after {idle_close} s\n"
        "New players start with {starting} chips; /daily gives {daily}\n"
        "Cards: {cards}\n"
        "{seasons}\n"
        "{side_bets}\n"
        "{gates}\n"
        "Table language: {language}",
        preset=settings.default_preset,
        low=settings.min_bet,
        high=settings.max_bet,
        bet_timer=settings.bet_timer_s,
        action_timer=settings.action_timer_s,
        idle_close=settings.idle_close_s,
        starting=settings.starting_chips,
        daily=settings.daily_amount,
        cards=settings.card_style,
        seasons=SEASONS_SHOWN.get(settings.season_length, settings.season_length),
        side_bets=joined(side_bet_settings_lines(settings), "\n"),
        gates=gates_text(settings),
        language=language,
    )


#: The settings an open table takes at its next update, and the one it takes at its next round.
_SHOWN_AT_ONCE = ("card_style", "language")
_SHOWN_NEXT_ROUND = "layout"


def changed_text(changes: Mapping[str, object], shown: Text) -> Text:
    """What ``/blackjack-admin config`` answers: the settings (``shown``), and when open
    tables take the changes made."""
    if not changes:
        return _("Settings of this server:\n{settings}", settings=shown)
    if _SHOWN_NEXT_ROUND in changes:
        return _(
            "Settings changed.\n{settings}\nOpen tables keep their rules; new tables use "
            "these.\nCards and language change on open tables too, at their next update; the "
            "layout at their next round, in a new message.",
            settings=shown,
        )
    if any(name in changes for name in _SHOWN_AT_ONCE):
        return _(
            "Settings changed.\n{settings}\nOpen tables keep their rules; new tables use "
            "these.\nCards and language change on open tables too, at their next update.",
            settings=shown,
        )
    return _(
        "Settings changed.\n{settings}\nOpen tables keep their rules; new tables use these.",
        settings=shown,
    )
