"""Achievements: each awarded once per player and server, with what earned it.

Which achievements a round earns is the table service's to say (bot/tables/achievements.py,
from the round's cards); the store records them in the settlement's transaction, so a
round settled once awards once, and a restart that settles it again awards nothing.
A streak (blackjacks in rounds in a row) needs the player's earlier rounds, which only
the database holds: it is checked here, from the hand results.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from db.models import SettleResult, from_micros
from db.ops.table_state import named_like
from db.statements import Op, Query

_ROW = "(?, ?, ?, ?, ?, ?)"


def _insert(rows: Sequence[tuple[int, int, str, int | None, str, int]]) -> Op[set[tuple[int, str]]]:
    """Insert the awards a player does not hold yet, in one statement; the (user, key) added."""
    if not rows:
        return set()
    added = yield Query(
        "INSERT INTO achievements (guild_id, user_id, achievement, round_id, source, awarded_at)"
        f" VALUES {', '.join(_ROW for _ in rows)}"
        " ON CONFLICT DO NOTHING RETURNING user_id, achievement",
        tuple(value for row in rows for value in row),
    )
    return {(int(user_id), str(key)) for user_id, key in added}


@dataclass(frozen=True, slots=True)
class RoundAwards:
    """What a settled round earned, for ``Store.settle_round`` to record."""

    guild_id: int
    #: Each player's achievement keys earned by this round alone.
    earned: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    #: Players paid for a blackjack in this round.
    blackjack_players: tuple[int, ...] = ()
    #: (key, rounds): earned when the player was paid a blackjack in each of their last
    #: ``rounds`` rounds in this server (by round id), this one included.
    blackjack_streaks: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class AwardRecord:
    """An achievement a player holds."""

    key: str
    #: The round that earned it, or None (another source, such as a tournament).
    round_id: int | None
    #: What earned it, in words ("round", "tournament 12").
    source: str
    awarded_at: datetime


def award(
    guild_id: int, user_id: int, key: str, round_id: int | None, source: str, now: int
) -> Op[bool]:
    """Record the achievement unless the player holds it; True when this call awarded it."""
    added = yield from _insert([(guild_id, user_id, key, round_id, source, now)])
    return bool(added)


def _awarded(
    rows: Sequence[tuple[int, int, str, int | None, str, int]],
) -> Op[dict[int, tuple[str, ...]]]:
    """Insert ``rows`` (distinct, in order); the achievements new to each player, in that order."""
    added = yield from _insert(rows)
    new: dict[int, tuple[str, ...]] = {}
    for _, user_id, key, *_ in rows:
        if (user_id, key) in added:
            new[user_id] = (*new.get(user_id, ()), key)
    return new


def award_each(
    guild_id: int, earned: Sequence[tuple[int, str]], source: str, now: int
) -> Op[dict[int, tuple[str, ...]]]:
    """Record each (player, key) the player does not hold yet, from ``source`` (not a
    round); the ones new to each player. Giving the same again awards nothing."""
    rows = [(guild_id, user_id, key, None, source, now) for user_id, key in dict.fromkeys(earned)]
    return (yield from _awarded(rows))


def _blackjack_streak(guild_id: int, user_id: int, rounds: int) -> Op[bool]:
    """Whether each of the player's last ``rounds`` rounds here paid them a blackjack."""
    rows = yield Query(
        "SELECT round_id, MAX(CASE WHEN outcome = 'blackjack' THEN 1 ELSE 0 END)"
        " FROM hand_results WHERE guild_id = ? AND user_id = ?"
        " GROUP BY round_id ORDER BY round_id DESC LIMIT ?",
        (guild_id, user_id, rounds),
    )
    return len(rows) == rounds and all(int(row[1]) for row in rows)


def award_round(round_id: int, awards: RoundAwards, now: int) -> Op[dict[int, tuple[str, ...]]]:
    """Record the round's achievements (its hand results already written); the ones new
    to each player, in the order given."""
    wanted = {user: list(keys) for user, keys in awards.earned.items()}
    for user_id in awards.blackjack_players:
        for key, rounds in awards.blackjack_streaks:
            if (yield from _blackjack_streak(awards.guild_id, user_id, rounds)):
                wanted.setdefault(user_id, []).append(key)
    rows = [
        (awards.guild_id, user_id, key, round_id, "round", now)
        for user_id in sorted(wanted)
        for key in dict.fromkeys(wanted[user_id])
    ]
    return (yield from _awarded(rows))


def settle_awarding(
    settle: Op[SettleResult], round_id: int, awards: RoundAwards | None, now: int
) -> Op[SettleResult]:
    """The settlement ``settle``, then (unless the round was settled before) its awards."""
    return named_like(settle, _settle_awarding(settle, round_id, awards, now))


def _settle_awarding(
    settle: Op[SettleResult], round_id: int, awards: RoundAwards | None, now: int
) -> Op[SettleResult]:
    result = yield from settle
    if awards is None or result.already_settled:
        return result
    new = yield from award_round(round_id, awards, now)
    return replace(result, awarded=new)


def achievements_of(guild_id: int, user_id: int) -> Op[list[AwardRecord]]:
    """The player's achievements in the server, oldest first."""
    rows = yield Query(
        "SELECT achievement, round_id, source, awarded_at FROM achievements"
        " WHERE guild_id = ? AND user_id = ?"
        " ORDER BY awarded_at, COALESCE(round_id, 0), achievement",
        (guild_id, user_id),
    )
    return [
        AwardRecord(str(k), None if r is None else int(r), str(s), from_micros(int(at)))
        for k, r, s, at in rows
    ]
