"""What players hear about playing responsibly: the no-value notice, the refusals of the
play gate and of their own limits, the reality check. Pure text (no Discord objects).

Each sentence is whole, with named placeholders, so it can be translated as it is.
Times are Discord timestamps (``<t:...>``), shown in each reader's own time zone.
"""

from __future__ import annotations

from datetime import datetime
from typing import Final

from bot.tables.results import signed
from db.errors import PlayRefused

#: The no-value notice: in /blackjack rules, the README and once at a player's first bet.
NO_VALUE_NOTICE: Final = (
    "Chips are for play only and have no value outside this game. They cannot be bought,"
    " sold, traded, transferred between players or exchanged for anything."
)
#: The one-time notice at a player's first bet, with where to find their own limits.
FIRST_BET_NOTICE: Final = (
    NO_VALUE_NOTICE + " You can set a daily loss limit, a session reminder or take a break"
    " at any time with /limits."
)

STOPPED: Final = "Play is stopped in this server by its admins for now. Nothing was changed."
WRONG_CHANNEL: Final = "Tables can't open in this channel. Tables open in: {channels}."
NEEDS_ROLE: Final = "Playing here needs the {role} role. Nothing was changed."
TOO_NEW_ONE_DAY: Final = (
    "Your Discord account is too new to play here: accounts play once they are 1 day old."
    " You can play from {when}."
)
TOO_NEW_DAYS: Final = (
    "Your Discord account is too new to play here: accounts play once they are {days} days"
    " old. You can play from {when}."
)
EXCLUDED_UNTIL: Final = "You're taking a break from play until {when}. Nothing was changed."
EXCLUDED_BY_ADMIN: Final = (
    "You're taking a break from play until a server admin lifts it. Nothing was changed."
)
LOSS_LIMIT: Final = (
    "That bet would take you past your daily loss limit of {limit} chips (lost today:"
    " {lost}). Your limit resets {when}."
)
LOSS_LIMIT_REACHED: Final = (
    "You've reached your daily loss limit of {limit} chips. Your limit resets {when}."
)
REALITY_CHECK: Final = (
    "Reality check: you've played for {duration} this session, and your net is {net} chips."
    " Press Continue to keep playing, or take a break."
)


def when(moment: datetime | float) -> str:
    """A Discord timestamp with date and time, and how long from now."""
    unix = int(moment.timestamp() if isinstance(moment, datetime) else moment)
    return f"<t:{unix}:f> (<t:{unix}:R>)"


def duration(seconds: int) -> str:
    """``2 h 15 min``, ``45 min``, ``1 min``."""
    hours, minutes = divmod(max(0, seconds) // 60, 60)
    if hours:
        return f"{hours} h {minutes} min"
    return f"{minutes} min"


def excluded_text(until: datetime | float | None) -> str:
    """The refusal for a player in a cooling-off or self-exclusion."""
    return EXCLUDED_BY_ADMIN if until is None else EXCLUDED_UNTIL.format(when=when(until))


def refused_text(error: PlayRefused) -> str:
    """What a player hears when their own limits refuse a bet."""
    if error.reason == "excluded":
        return excluded_text(error.until)
    if error.reason == "reality_check":
        return REALITY_CHECK.format(duration=duration(error.played_s), net=signed(error.net))
    assert error.until is not None
    return LOSS_LIMIT.format(
        limit=f"{error.limit:,}", lost=f"{error.lost:,}", when=when(error.until)
    )


def too_new_text(days: int, allowed_from: float) -> str:
    """The refusal for an account younger than the server's minimum age."""
    if days == 1:
        return TOO_NEW_ONE_DAY.format(when=when(allowed_from))
    return TOO_NEW_DAYS.format(days=days, when=when(allowed_from))
