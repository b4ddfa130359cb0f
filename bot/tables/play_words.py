"""What players hear about playing responsibly: the no-value notice, the refusals of the
play gate and of their own limits, the reality check. Pure text (no Discord objects).

Each sentence is whole, with named placeholders, so it can be translated as it is.
Times are Discord timestamps (``<t:...>``), shown in each reader's own time zone.
"""

from __future__ import annotations

from datetime import datetime
from typing import Final

from bot.i18n import Text, _, n_, signed
from bot.tables.errors import PlayBlocked
from db.errors import PlayRefused

#: The no-value notice: in /blackjack rules, the README and once at a player's first bet.
NO_VALUE_NOTICE: Final = _(
    "Chips are for play only and have no value outside this game. They cannot be bought,"
    " sold, traded, transferred between players or exchanged for anything."
)
#: The one-time notice at a player's first bet, with where to find their own limits.
FIRST_BET_NOTICE: Final = _(
    "{notice} You can set a daily loss limit, a session reminder or take a break"
    " at any time with /limits.",
    notice=NO_VALUE_NOTICE,
)

STOPPED: Final = _("Play is stopped in this server by its admins for now. Nothing was changed.")
EXCLUDED_BY_ADMIN: Final = _(
    "You're taking a break from play until a server admin lifts it. Nothing was changed."
)


def when(moment: datetime | float) -> str:
    """A Discord timestamp with date and time, and how long from now."""
    unix = int(moment.timestamp() if isinstance(moment, datetime) else moment)
    return f"<t:{unix}:f> (<t:{unix}:R>)"


def duration(seconds: int) -> Text:
    """``2 h 15 min``, ``45 min``, ``1 min``."""
    hours, minutes = divmod(max(0, seconds) // 60, 60)
    if hours:
        return _("{hours} h {minutes} min", hours=hours, minutes=minutes)
    return _("{minutes} min", minutes=minutes)


def wrong_channel_text(channels: str) -> Text:
    """The refusal to open a table outside the server's table channels (``<#id>`` mentions)."""
    return _("Tables can't open in this channel. Tables open in: {channels}.", channels=channels)


def needs_role_text(role: str) -> Text:
    """The refusal for a member without the server's play role (a ``<@&id>`` mention)."""
    return _("Playing here needs the {role} role. Nothing was changed.", role=role)


def excluded_text(until: datetime | float | None) -> Text:
    """The refusal for a player in a cooling-off or self-exclusion."""
    if until is None:
        return EXCLUDED_BY_ADMIN
    return _("You're taking a break from play until {when}. Nothing was changed.", when=when(until))


def reality_check_text(played_s: int, net: int) -> Text:
    """The reality check: how long this session has lasted and its net."""
    return _(
        "Reality check: you've played for {duration} this session, and your net is {net} chips."
        " Press Continue to keep playing, or take a break.",
        duration=duration(played_s),
        net=signed(net),
    )


def loss_limit_reached_text(limit: int, resets: datetime | float) -> Text:
    """The refusal of a bet once the daily loss limit is reached."""
    return _(
        "You've reached your daily loss limit of {limit} chips. Your limit resets {when}.",
        limit=limit,
        when=when(resets),
    )


def refused_text(error: PlayRefused, *, fee: bool = False) -> Text:
    """What a player hears when their own limits refuse a bet (``fee``: an entry fee)."""
    if error.reason == "excluded":
        return excluded_text(error.until)
    if error.reason == "reality_check":
        return reality_check_text(error.played_s, error.net)
    assert error.until is not None
    if error.lost >= error.limit:  # no bet at all fits under the limit today
        return loss_limit_reached_text(error.limit, error.until)
    if fee:
        return _(
            "That entry fee would take you past your daily loss limit of {limit} chips (lost"
            " today: {lost}). Your limit resets {when}.",
            limit=error.limit,
            lost=error.lost,
            when=when(error.until),
        )
    return _(
        "That bet would take you past your daily loss limit of {limit} chips (lost today:"
        " {lost}). Your limit resets {when}.",
        limit=error.limit,
        lost=error.lost,
        when=when(error.until),
    )


def too_new_text(days: int, allowed_from: float) -> Text:
    """The refusal for an account younger than the server's minimum age."""
    return n_(
        "Your Discord account is too new to play here: accounts play once they are {days} day"
        " old. You can play from {when}.",
        "Your Discord account is too new to play here: accounts play once they are {days} days"
        " old. You can play from {when}.",
        days,
        days=days,
        when=when(allowed_from),
    )


def blocked(error: PlayRefused, *, fee: bool = False) -> PlayBlocked:
    """The refusal a player's own limits make of a stake (``fee``: a tournament's entry fee),
    with when it may change and, for a due reality check, its Continue button."""
    until = None if error.until is None else error.until.timestamp()
    check = error.reason == "reality_check"
    return PlayBlocked(refused_text(error, fee=fee), until=until, reality_check=check)
