"""The coach's records: each settled round graded once, its decisions, the figures.

A round is marked graded (``coach_rounds``) in the transaction that stores its graded
decisions, and only the transaction whose mark is new stores them: two processes, or a
retry, grading one round store it once. The figures are computed from the decisions:
made, the best, and the expected chips given away (each cost times its stake).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from db.models import TableAction
from db.ops.table_state import round_actions
from db.statements import Many, Op, Query

#: A cost is stored in millionths of the stake.
PPM: Final = 1_000_000


@dataclass(frozen=True, slots=True)
class UngradedRound:
    """A settled round the coach has not graded yet, with what grading it needs."""

    round_id: int
    guild_id: int
    rules_json: str
    settled_at: int
    actions: tuple[TableAction, ...]


@dataclass(frozen=True, slots=True)
class DecisionRecord:
    """One graded decision as stored: ``detail`` is the coach's JSON of its cards and values."""

    user_id: int
    detail: str
    chosen: str
    best: str
    stake: int
    cost_ppm: int


@dataclass(frozen=True, slots=True)
class CoachFigures:
    """A player's graded decisions over a span: made, the best, chips given away."""

    decisions: int = 0
    best: int = 0
    given_away: float = 0.0


@dataclass(frozen=True, slots=True)
class SharpEntry:
    """A place on the sharpest board: least given away per 100 decisions first."""

    rank: int
    user_id: int
    decisions: int
    per_100: float


_UNGRADED = (
    "SELECT id, guild_id, rules_json, closed_at FROM rounds AS r WHERE status = 'settled'"
    " AND NOT EXISTS (SELECT 1 FROM coach_rounds AS c WHERE c.round_id = r.id)"
)


def ungraded_rounds(round_id: int | None, limit: int) -> Op[list[UngradedRound]]:
    """Settled rounds not graded yet (only ``round_id``, if given), oldest first."""
    if round_id is None:
        rows = yield Query(_UNGRADED + " ORDER BY id LIMIT ?", (limit,))
    else:
        rows = yield Query(_UNGRADED + " AND id = ?", (round_id,))
    found = []
    for rid, guild_id, rules_json, closed_at in rows:
        actions = yield from round_actions(int(rid))
        found.append(
            UngradedRound(int(rid), int(guild_id), str(rules_json), int(closed_at), tuple(actions))
        )
    return found


def record_grades(
    ungraded: UngradedRound, decisions: Sequence[DecisionRecord], now: int
) -> Op[bool]:
    """Mark the round graded and store its decisions; False (nothing stored) when it was
    graded already."""
    marked = yield Query(
        "INSERT INTO coach_rounds (round_id, guild_id, graded_at) VALUES (?, ?, ?)"
        " ON CONFLICT DO NOTHING RETURNING round_id",
        (ungraded.round_id, ungraded.guild_id, now),
    )
    if not marked:
        return False
    if decisions:
        yield Many(
            "INSERT INTO coach_decisions (round_id, guild_id, user_id, settled_at, detail,"
            " chosen, best, stake, cost_ppm) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    ungraded.round_id,
                    ungraded.guild_id,
                    d.user_id,
                    ungraded.settled_at,
                    d.detail,
                    d.chosen,
                    d.best,
                    d.stake,
                    d.cost_ppm,
                )
                for d in decisions
            ],
        )
    return True


def record_settled(round_id: int, decisions: Sequence[DecisionRecord], now: int) -> Op[bool]:
    """``record_grades`` for the settled round ``round_id``, its server and settlement time
    read here; False (nothing stored) when it was graded already or is not settled."""
    rows = yield Query(
        "SELECT guild_id, rules_json, closed_at FROM rounds WHERE id = ? AND status = 'settled'",
        (round_id,),
    )
    if not rows:
        return False
    guild_id, rules_json, closed_at = rows[0]
    settled = UngradedRound(round_id, int(guild_id), str(rules_json), int(closed_at), ())
    return (yield from record_grades(settled, decisions, now))


def last_round(guild_id: int, user_id: int) -> Op[list[DecisionRecord]]:
    """The player's decisions in their last graded round, in order (none: empty)."""
    rows = yield Query(
        "SELECT user_id, detail, chosen, best, stake, cost_ppm FROM coach_decisions"
        " WHERE guild_id = ? AND user_id = ? AND round_id = (SELECT MAX(round_id)"
        " FROM coach_decisions WHERE guild_id = ? AND user_id = ?) ORDER BY id",
        (guild_id, user_id, guild_id, user_id),
    )
    return [
        DecisionRecord(int(u), str(d), str(c), str(b), int(s), int(p)) for u, d, c, b, s, p in rows
    ]


def figures(guild_id: int, user_id: int, since: int, until: int) -> Op[CoachFigures]:
    """The player's figures over the rounds settled in ``[since, until)`` (microseconds)."""
    rows = yield Query(
        "SELECT COUNT(*), SUM(CASE WHEN cost_ppm = 0 THEN 1 ELSE 0 END), SUM(cost_ppm * stake)"
        " FROM coach_decisions WHERE guild_id = ? AND user_id = ?"
        " AND settled_at >= ? AND settled_at < ?",
        (guild_id, user_id, since, until),
    )
    made, best, given = rows[0]
    return CoachFigures(int(made), int(best or 0), int(given or 0) / PPM)


def sharpest(guild_id: int, minimum: int, limit: int) -> Op[list[SharpEntry]]:
    """The players with ``minimum`` decisions or more, least given away per 100 first."""
    rows = yield Query(
        "SELECT user_id, COUNT(*), SUM(cost_ppm * stake) FROM coach_decisions"
        " WHERE guild_id = ? GROUP BY user_id HAVING COUNT(*) >= ?",
        (guild_id, minimum),
    )
    board = sorted(
        ((int(user), int(made), 100 * int(given) / PPM / int(made)) for user, made, given in rows),
        key=lambda row: (row[2], row[0]),
    )[:limit]
    entries: list[SharpEntry] = []
    for index, (user, made, per_100) in enumerate(board):
        tied = entries and entries[-1].per_100 == per_100
        rank = entries[-1].rank if tied else index + 1
        entries.append(SharpEntry(rank, user, made, per_100))
    return entries


def teaching(guild_id: int, user_ids: Sequence[int]) -> Op[set[int]]:
    """Which of the players have the coach's teach mode on."""
    if not user_ids:
        return set()
    marks = ", ".join("?" for _ in user_ids)
    rows = yield Query(
        "SELECT user_id FROM coach_settings WHERE guild_id = ? AND teach = 1"
        f" AND user_id IN ({marks})",
        (guild_id, *user_ids),
    )
    return {int(row[0]) for row in rows}


def set_teaching(guild_id: int, user_id: int, teach: bool) -> Op[None]:
    """Turn the player's teach mode on or off."""
    yield Query(
        "INSERT INTO coach_settings (guild_id, user_id, teach) VALUES (?, ?, ?)"
        " ON CONFLICT (guild_id, user_id) DO UPDATE SET teach = excluded.teach",
        (guild_id, user_id, 1 if teach else 0),
    )


@dataclass(frozen=True, slots=True)
class QuizFigures:
    """A player's count quiz answers: how many, and how many were right."""

    answered: int = 0
    right: int = 0


def record_quiz(
    guild_id: int, user_id: int, shoe: str, answer: int, running: int, now: int
) -> Op[bool]:
    """Keep the player's answer to the quiz on ``shoe``; False when they answered it before."""
    added = yield Query(
        "INSERT INTO count_quiz_answers (guild_id, user_id, shoe, answer, running_count,"
        " answered_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING user_id",
        (guild_id, user_id, shoe, answer, running, now),
    )
    return bool(added)


def quiz_figures(guild_id: int, user_id: int) -> Op[QuizFigures]:
    """The player's count quiz answers in the server."""
    rows = yield Query(
        "SELECT COUNT(*), SUM(CASE WHEN answer = running_count THEN 1 ELSE 0 END)"
        " FROM count_quiz_answers WHERE guild_id = ? AND user_id = ?",
        (guild_id, user_id),
    )
    answered, right = rows[0]
    return QuizFigures(int(answered), int(right or 0))
