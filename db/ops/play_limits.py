"""A player's own limits, self-exclusion, and the no-value notice.

Every player with a limit, a link or the notice seen has a ``play_limits`` row with the
limits they set, which hold in every server. Where a moderator linked accounts
(db.ops.play_moderation, one server's links), that server reads the stricter of each
linked account's limits and counts their play together. Lowering a limit or excluding
oneself applies at once; raising or removing a limit, or ending a timed exclusion
early, waits ``RAISE_WAIT`` (as regulated sites do): the ``*_next`` columns hold what
applies when. A stake of kind 'bet' is checked by :func:`check_bet` inside the stake's
own transaction, with the rows of the player's group there locked, so two tables or two
shards cannot both slip under one limit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Final, TypeVar

from db.errors import PlayRefused
from db.models import STAKE_KINDS, from_micros
from db.ops.limit_values import (
    DAY,
    LIMIT_COLUMNS,
    RAISE_WAIT,
    SECOND,
    Limits,
    PlayerLimits,
)
from db.ops.play_moderation import group_of, log
from db.statements import Op, Query

T = TypeVar("T")

_PLAY_KINDS: Final = (*STAKE_KINDS, "payout", "side_payout", "refund")


_SELECT_ROW = (
    f"SELECT principal_id, {', '.join(LIMIT_COLUMNS)}, notice_shown_at FROM play_limits"
    " WHERE user_id = ?"
)


def _limits_of(values: Sequence[Any]) -> Limits:
    """A row's ``LIMIT_COLUMNS``, as Limits."""
    given = {
        name: None if value is None else int(value)
        for name, value in zip(LIMIT_COLUMNS, values, strict=True)
    }
    return Limits(**given)  # type: ignore[arg-type]


def _row(user_id: int) -> Op[tuple[int, Limits, bool] | None]:
    """(principal, the row's own limit columns, notice seen), or None without a row."""
    rows = yield Query(_SELECT_ROW, (user_id,))
    if not rows:
        return None
    row = rows[0]
    return int(row[0]), _limits_of(row[1:-1]), row[-1] is not None


#: A bet's first look (``check_bet``): the player's own limits, if they have a row, and
#: whether they are linked in the server; one statement, for the common case of neither.
_BET_LOOK = (
    f"SELECT p.{', p.'.join(LIMIT_COLUMNS)}, EXISTS (SELECT 1 FROM play_links l"
    " WHERE l.guild_id = ? AND l.user_id = me.user_id)"
    " FROM (SELECT CAST(? AS BIGINT) AS user_id) me"
    " LEFT JOIN play_limits p ON p.user_id = me.user_id"
)


def _ensure_row(user_id: int, now: int) -> Op[int]:
    """The player's row (created as its own principal if new), locked; its principal."""
    rows = yield Query(
        "INSERT INTO play_limits (user_id, principal_id, updated_at) VALUES (?, ?, ?)"
        " ON CONFLICT (user_id) DO UPDATE SET updated_at = excluded.updated_at"
        " RETURNING principal_id",
        (user_id, user_id, now),
    )
    return int(rows[0][0])


def _locked_group(user_id: int, now: int) -> Op[tuple[int, Limits]]:
    """Lock the group's principal row (creating the player's row if new): (principal, limits).

    Every change to a group's limits, and every bet checked against them, goes through
    this lock, so they happen one after another even across processes.
    """
    principal = yield from _ensure_row(user_id, now)
    rows = yield Query(
        f"UPDATE play_limits SET updated_at = ? WHERE user_id = ?"
        f" RETURNING {', '.join(LIMIT_COLUMNS)}",
        (now, principal),
    )
    return principal, _limits_of(rows[0])


def _write(principal: int, limits: Limits, now: int) -> Op[None]:
    sets = ", ".join(f"{name} = ?" for name in LIMIT_COLUMNS)
    yield Query(
        f"UPDATE play_limits SET {sets}, updated_at = ? WHERE user_id = ?",
        (*limits.values(), now, principal),
    )


def _net_since(members: Sequence[int], since: int) -> Op[int]:
    """The group's net from play (returns minus stakes) since ``since``."""
    marks = ", ".join("?" for _ in members)
    kinds = ", ".join(f"'{kind}'" for kind in _PLAY_KINDS)
    rows = yield Query(
        f"SELECT COALESCE(SUM(delta), 0) FROM ledger WHERE user_id IN ({marks})"
        f" AND created_at >= ? AND kind IN ({kinds})",
        (*members, since),
    )
    return int(rows[0][0])


def day_start(now: int) -> int:
    """The start of the UTC day holding ``now``."""
    return now - now % DAY


# -- reading ------------------------------------------------------------------------------------


def player_limits(
    user_id: int, now: int, tally: bool = True, guild_id: int | None = None
) -> Op[PlayerLimits]:
    """A player's limits (pending changes that are due applied) and today's play; in
    ``guild_id``, as they hold there: with the accounts linked to theirs there (the
    stricter of each one's own limits, their play counted together), and without a break
    an admin of it lifted. Without ``guild_id``, their own, as they set them.

    Without ``tally``, the play is summed only for a player with limits (what a check
    needs): one query, not three, before a bet of a player who set none.
    """
    own = yield from _row(user_id)
    notice = own is not None and own[2]
    members = yield from group_of(user_id, guild_id)
    limits = yield from _limits_here(user_id, members, guild_id, now)
    start = day_start(now)
    counted = tally or limits.any
    net_today = (yield from _net_since(members, start)) if counted else 0
    session = limits.session_start(now)
    session_net = 0 if session is None or not counted else (yield from _net_since(members, session))
    return PlayerLimits(
        user_id,
        user_id,
        members,
        limits,
        -net_today,
        start + DAY,
        session_net,
        notice,
    )


def _limits_here(
    user_id: int, members: Sequence[int], guild_id: int | None, now: int
) -> Op[Limits]:
    """The limits that count for the player among ``members`` (their group in ``guild_id``):
    their own alone, or the stricter of each member's, with the player's own session."""
    own = Limits()
    mine = yield from _row(user_id)
    if mine is not None:
        own = yield from _here(mine[1].settled(now), user_id, guild_id)
    group = own
    for member in members:
        if member == user_id:
            continue
        row = yield from _row(member)
        if row is not None:
            group = merged(group, (yield from _here(row[1].settled(now), member, guild_id)))
    if group is own:
        return own
    # The session is the player's own: a linked account's play does not start or end it.
    return replace(group, session_started_at=own.session_started_at, last_bet_at=own.last_bet_at)


# -- the check in a stake's transaction ---------------------------------------------------------


def check_bet(user_id: int, amount: int, now: int, guild_id: int) -> Op[None]:
    """Refuse (PlayRefused) a bet of ``amount`` in ``guild_id`` the limits that count there
    do not allow; else note it in the player's session. Runs inside the stake's
    transaction, before the debit."""
    [look] = yield Query(_BET_LOOK, (guild_id, user_id))
    if not look[-1] and not _limits_of(look[:-1]).settled(now).any:
        return  # no limit, no link (the notice seen, perhaps): nothing to check or write
    members = yield from group_of(user_id, guild_id)
    for member in members:  # in id order, so two checks never wait on each other
        yield from _locked_group(member, now)
    limits = yield from _limits_here(user_id, members, guild_id, now)
    if not limits.any:
        return
    if limits.excluded(now):
        until = None if limits.until_admin else from_micros(limits.excluded_until or now)
        raise PlayRefused("excluded", until=until)
    if limits.reality_check_due(now):
        start = limits.session_start(now) or now
        net = yield from _net_since(members, start)
        raise PlayRefused("reality_check", played_s=(now - start) // SECOND, net=net)
    if limits.daily_loss is not None:
        start = day_start(now)
        lost = -(yield from _net_since(members, start))
        if lost + amount > limits.daily_loss:
            raise PlayRefused(
                "loss_limit",
                until=from_micros(start + DAY),
                limit=limits.daily_loss,
                lost=max(0, lost),
            )
    _principal, mine = yield from _locked_group(user_id, now)
    mine = mine.settled(now)
    session = mine.session_start(now)
    noted = replace(mine, session_started_at=now if session is None else session, last_bet_at=now)
    yield from _write(user_id, noted, now)


def confirm_reality_check(user_id: int, now: int) -> Op[None]:
    """The player read the reality check and goes on: a new session period starts now."""
    principal, limits = yield from _locked_group(user_id, now)
    confirmed = replace(limits.settled(now), session_started_at=now, last_bet_at=now)
    yield from _write(principal, confirmed, now)


# -- the player's own changes -------------------------------------------------------------------


def _changed(
    current: int | None, wanted: int | None, now: int
) -> tuple[int | None, int | None, int | None]:
    """(value now, pending value, pending at) for a limit set to ``wanted`` (None: no limit)."""
    stricter = wanted is not None and (current is None or wanted <= current)
    if stricter or wanted == current:
        return wanted, None, None
    return current, wanted, now + RAISE_WAIT


def set_limits(user_id: int, changes: Mapping[str, int | None], now: int) -> Op[PlayerLimits]:
    """Set the group's 'daily_loss' and/or 'session_s' (None: no limit).

    Stricter applies at once; looser waits ``RAISE_WAIT``.
    """
    principal, limits = yield from _locked_group(user_id, now)
    limits = limits.settled(now)
    for name, wanted in changes.items():
        if name not in ("daily_loss", "session_s"):
            raise ValueError(f"there is no limit {name!r}")
        value, pending, at = _changed(getattr(limits, name), wanted, now)
        fields = {name: value, f"{name}_next": pending, f"{name}_next_at": at}
        limits = replace(limits, **fields)  # type: ignore[arg-type]
    yield from _write(principal, limits, now)
    return (yield from player_limits(user_id, now))


def exclude(user_id: int, seconds: int | None, now: int) -> Op[PlayerLimits]:
    """Exclude the group at once: for ``seconds``, or (None) until an admin lifts it.

    A longer exclusion already running is kept (an exclusion is never shortened here).
    """
    principal, limits = yield from _locked_group(user_id, now)
    limits = limits.settled(now)
    if seconds is None:
        limits = replace(limits, until_admin=1)
        # A new break until an admin lifts it holds everywhere, lifts of an earlier one too.
        yield Query("DELETE FROM play_lifts WHERE user_id = ?", (user_id,))
    else:
        until = now + seconds * SECOND
        limits = replace(limits, excluded_until=max(until, limits.excluded_until or 0))
    yield from _write(principal, limits, now)
    return (yield from player_limits(user_id, now))


def end_exclusion(user_id: int, now: int) -> Op[PlayerLimits]:
    """Ask to end a timed exclusion early: it ends ``RAISE_WAIT`` from now, if later.

    An exclusion until an admin lifts it is left as it is (only an admin ends it).
    """
    principal, limits = yield from _locked_group(user_id, now)
    limits = limits.settled(now)
    if limits.excluded_until is not None and limits.excluded_until > now + RAISE_WAIT:
        limits = replace(limits, excluded_until=now + RAISE_WAIT)
        yield from _write(principal, limits, now)
    return (yield from player_limits(user_id, now))


def mark_notice(user_id: int, now: int) -> Op[bool]:
    """Record that the player has seen the no-value notice; True if this is the first time."""
    rows = yield Query(
        "INSERT INTO play_limits (user_id, principal_id, notice_shown_at, updated_at)"
        " VALUES (?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE"
        " SET notice_shown_at = excluded.notice_shown_at"
        " WHERE play_limits.notice_shown_at IS NULL RETURNING user_id",
        (user_id, user_id, now, now),
    )
    return bool(rows)


def with_notice(op: Op[T], user_id: int, now: int, notice: bool) -> Op[tuple[T, bool]]:
    """``op`` (a bet's stake), then, with ``notice``, the player's no-value notice marked
    seen in its transaction: its result, and whether this was the first time."""
    result = yield from op
    first = (yield from mark_notice(user_id, now)) if notice else False
    return result, first


# -- claims shared by linked accounts -----------------------------------------------------------


def claim_group(user_id: int, now: int, guild_id: int) -> Op[tuple[int, ...]]:
    """The accounts whose /daily claims in ``guild_id`` count as one with this player's
    (locked for the claim when linked there); just the player when not linked."""
    members = yield from group_of(user_id, guild_id)
    if len(members) > 1:
        for member in members:
            yield from _locked_group(member, now)
    return members


# -- linked accounts and moderators ------------------------------------------------------------


def _stricter(a: int | None, b: int | None) -> int | None:
    return b if a is None else a if b is None else min(a, b)


def merged(a: Limits, b: Limits) -> Limits:
    """One set of limits for two groups becoming one: the stricter of each (nothing pending)."""
    started = [t for t in (a.session_started_at, b.session_started_at) if t is not None]
    last = [t for t in (a.last_bet_at, b.last_bet_at) if t is not None]
    until = [t for t in (a.excluded_until, b.excluded_until) if t is not None]
    return Limits(
        daily_loss=_stricter(a.daily_loss, b.daily_loss),
        session_s=_stricter(a.session_s, b.session_s),
        excluded_until=max(until) if until else None,
        until_admin=max(a.until_admin, b.until_admin),
        session_started_at=min(started) if started else None,
        last_bet_at=max(last) if last else None,
    )


def lift_exclusion(guild_id: int, user_id: int, actor: int, why: str, now: int) -> Op[bool]:
    """An admin of ``guild_id`` ends, there, an exclusion set until an admin lifts it;
    False if there is none there. The player took the break: it holds in every other
    server.

    A timed exclusion is never shortened: if one is also running, it goes on.
    """
    _principal, limits = yield from _locked_group(user_id, now)
    if not limits.until_admin:
        return False
    rows = yield Query(
        "INSERT INTO play_lifts (user_id, guild_id, lifted_at) VALUES (?, ?, ?)"
        " ON CONFLICT (user_id, guild_id) DO NOTHING RETURNING user_id",
        (user_id, guild_id, now),
    )
    if not rows:
        return False  # lifted here already
    yield from log(guild_id, user_id, None, "lift", actor, why, now)
    return True


def _here(limits: Limits, user_id: int, guild_id: int | None) -> Op[Limits]:
    """``limits`` as they hold in ``guild_id`` (None: anywhere, as the player set them): a
    break until an admin lifts it is off where an admin of the server lifted it."""
    if not limits.until_admin or guild_id is None:
        return limits
    rows = yield Query(
        "SELECT 1 FROM play_lifts WHERE user_id = ? AND guild_id = ?", (user_id, guild_id)
    )
    return replace(limits, until_admin=0) if rows else limits
