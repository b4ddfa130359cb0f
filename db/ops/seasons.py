"""Seasons: the calendar spans, the rollover that archives a season once, the standings.

A season's standings are computed, not kept up to date: the net chips of each player
over the ledger's rows of the rounds settled within the season (stakes and payouts;
a settled round has no refunds). A round counts in the season its settlement falls
in. So archiving a season late (nobody asked until days after it ended) archives the
same standings as archiving it on time, and the rollover needs no timer: every
season operation first rolls over whatever has ended, in its own transaction.

A tournament's prize pool is such a round, settled when the tournament finishes: its
fees (and a host's funding) are stakes, its prizes payouts. So a finished tournament
counts as one round of the season it ended in, on economy chips only (tournament chips
never reach the ledger), and a cancelled one, its pool voided, counts nothing.

Two processes rolling over at once archive once: the season's row goes from
'current' to 'archived' in one UPDATE, and only the transaction whose UPDATE changed
it copies the standings and starts the next season (PostgreSQL makes the other wait
for the row, then finds it archived).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Final

from db.models import GuildSettings, from_micros, to_micros
from db.statements import Op, Query

#: The lengths a server may choose; every one is a calendar span in UTC.
SEASON_LENGTHS: Final[tuple[str, ...]] = ("week", "month", "quarter", "year")
DEFAULT_SEASON_LENGTH: Final = GuildSettings().season_length
#: Seasons archived in one call at most (a server quiet for years, with weekly seasons).
_MOST_ROLLOVERS: Final = 10_000


@dataclass(frozen=True, slots=True)
class Season:
    """One season of a server: ``[starts_at, ends_at)``."""

    name: str
    starts_at: datetime
    ends_at: datetime
    is_current: bool


@dataclass(frozen=True, slots=True)
class SeasonEntry:
    """A place in a season's standings. Equal nets share a rank (1, 2, 2, 4)."""

    rank: int
    user_id: int
    #: Chips won minus chips staked in the season's settled rounds.
    net: int
    #: Rounds the player played (and that were settled) in the season.
    rounds: int


@dataclass(frozen=True, slots=True)
class SeasonStandings:
    """A season and every player who played in it, best net first."""

    season: Season
    entries: list[SeasonEntry]

    def entry_of(self, user_id: int) -> SeasonEntry | None:
        """The player's place, or None if they did not play this season."""
        return next((entry for entry in self.entries if entry.user_id == user_id), None)


def _month_start(year: int, month: int) -> datetime:
    return datetime(year + (month - 1) // 12, (month - 1) % 12 + 1, 1, tzinfo=UTC)


def calendar_span(length: str, moment: datetime) -> tuple[str, datetime, datetime]:
    """The calendar span of ``length`` that holds ``moment`` (UTC): its name, start and end.

    Weeks are ISO weeks (Monday to Monday, named by their ISO year: "2026-W48").
    """
    moment = moment.astimezone(UTC)
    if length == "week":
        day = datetime(moment.year, moment.month, moment.day, tzinfo=UTC)
        start = day - timedelta(days=day.weekday())
        iso_year, week, _ = start.isocalendar()
        return f"{iso_year}-W{week:02d}", start, start + timedelta(days=7)
    if length == "quarter":
        first = (moment.month - 1) // 3 * 3 + 1
        name = f"{moment.year}-Q{(first - 1) // 3 + 1}"
        return name, _month_start(moment.year, first), _month_start(moment.year, first + 3)
    if length == "year":
        return f"{moment.year}", _month_start(moment.year, 1), _month_start(moment.year + 1, 1)
    if length != "month":
        raise ValueError(f"season length must be one of {', '.join(SEASON_LENGTHS)}")
    start = _month_start(moment.year, moment.month)
    return f"{moment.year}-{moment.month:02d}", start, _month_start(moment.year, moment.month + 1)


def _season_length(guild_id: int) -> Op[str]:
    rows = yield Query("SELECT season_length FROM guild_settings WHERE guild_id = ?", (guild_id,))
    return str(rows[0][0]) if rows and rows[0][0] is not None else DEFAULT_SEASON_LENGTH


def _free_name(guild_id: int, name: str) -> Op[str]:
    """``name``, or ``name (2)``, ``(3)``... if a season of this server has it already
    (the season length changed back and forth within one span)."""
    rows = yield Query(
        "SELECT name FROM seasons WHERE guild_id = ? AND (name = ? OR name LIKE ?)",
        (guild_id, name, f"{name} (%)"),
    )
    taken = {str(row[0]) for row in rows}
    number = 1
    candidate = name
    while candidate in taken:
        number += 1
        candidate = f"{name} ({number})"
    return candidate


def _start_season(guild_id: int, name: str, starts_at: int, ends_at: int) -> Op[None]:
    # Another process starting the server's season at the same moment wins; ours is dropped.
    yield Query(
        "INSERT INTO seasons (guild_id, name, starts_at, ends_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT DO NOTHING",
        (guild_id, name, starts_at, ends_at),
    )


#: Each player's net and rounds over the rounds settled in [start, end).
_TOTALS = (
    "l.user_id, SUM(l.delta), COUNT(DISTINCT l.round_id) FROM rounds AS r"
    " JOIN ledger AS l ON l.round_id = r.id"
    " WHERE r.guild_id = ? AND r.status = 'settled' AND r.closed_at >= ? AND r.closed_at < ?"
    " GROUP BY l.user_id"
)
_STANDINGS = f"SELECT {_TOTALS}"


def current_season(guild_id: int, now: int) -> Op[Season]:
    """The server's season at ``now``: every season that ended before is archived first
    (once). The first season is the span of the server's first settled round."""
    for _ in range(_MOST_ROLLOVERS):
        rows = yield Query(
            "SELECT name, starts_at, ends_at FROM seasons"
            " WHERE guild_id = ? AND status = 'current'",
            (guild_id,),
        )
        if rows and now < int(rows[0][2]):
            name, starts, ends = rows[0]
            return Season(str(name), from_micros(int(starts)), from_micros(int(ends)), True)
        length = yield from _season_length(guild_id)
        if not rows:
            # The first season holds the server's first settled round: play before anyone
            # asked for a season still counts in the season it was played in.
            first = yield Query(
                "SELECT MIN(closed_at) FROM rounds WHERE guild_id = ? AND status = 'settled'",
                (guild_id,),
            )
            began = now if first[0][0] is None else min(now, int(first[0][0]))
            name, start, end = calendar_span(length, from_micros(began))
            name = yield from _free_name(guild_id, name)
            yield from _start_season(guild_id, name, to_micros(start), to_micros(end))
            continue
        name, ended = str(rows[0][0]), int(rows[0][2])
        archived = yield Query(
            "UPDATE seasons SET status = 'archived', archived_at = ?"
            " WHERE guild_id = ? AND name = ? AND status = 'current' RETURNING starts_at",
            (now, guild_id, name),
        )
        if not archived:
            continue  # another process archived it just now
        yield Query(
            "INSERT INTO season_standings (guild_id, season, user_id, net, rounds)"
            f" SELECT CAST(? AS BIGINT), CAST(? AS TEXT), {_TOTALS}",
            (guild_id, name, guild_id, int(archived[0][0]), ended),
        )
        next_name, _, end = calendar_span(length, from_micros(ended))
        next_name = yield from _free_name(guild_id, next_name)
        yield from _start_season(guild_id, next_name, ended, to_micros(end))
    raise RuntimeError(f"guild {guild_id}: more than {_MOST_ROLLOVERS} seasons to archive")


def _ranked(rows: list[tuple[int, int, int]]) -> list[SeasonEntry]:
    """Best net first, ties by user id, equal nets sharing a rank."""
    ordered = sorted(rows, key=lambda row: (-row[1], row[0]))
    entries: list[SeasonEntry] = []
    for index, (user_id, net, played) in enumerate(ordered):
        tied = entries and entries[-1].net == net
        rank = entries[-1].rank if tied else index + 1
        entries.append(SeasonEntry(rank, user_id, net, played))
    return entries


def season_standings(guild_id: int, name: str | None, now: int) -> Op[SeasonStandings | None]:
    """The current season's standings (``name`` None or the current season's name), or an
    archived season's final ones; None if the server has no season of that name."""
    current = yield from current_season(guild_id, now)
    if name is None or name == current.name:
        rows = yield Query(
            _STANDINGS, (guild_id, to_micros(current.starts_at), to_micros(current.ends_at))
        )
        return SeasonStandings(current, _ranked([(int(u), int(n), int(p)) for u, n, p in rows]))
    found = yield Query(
        "SELECT starts_at, ends_at FROM seasons WHERE guild_id = ? AND name = ?", (guild_id, name)
    )
    if not found:
        return None
    season = Season(name, from_micros(int(found[0][0])), from_micros(int(found[0][1])), False)
    rows = yield Query(
        "SELECT user_id, net, rounds FROM season_standings WHERE guild_id = ? AND season = ?",
        (guild_id, name),
    )
    return SeasonStandings(season, _ranked([(int(u), int(n), int(p)) for u, n, p in rows]))


def season_names(guild_id: int, now: int, limit: int) -> Op[list[str]]:
    """The server's seasons, the current one first, then the archived ones newest first."""
    yield from current_season(guild_id, now)
    rows = yield Query(
        "SELECT name FROM seasons WHERE guild_id = ?"
        " ORDER BY CASE WHEN status = 'current' THEN 0 ELSE 1 END, starts_at DESC, name DESC"
        " LIMIT ?",
        (guild_id, limit),
    )
    return [str(row[0]) for row in rows]
