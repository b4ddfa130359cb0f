"""A tournament as its coordinator keeps it (format, seed, entrants, tables, pool) and its
standings as catalog lines; each table's stacks are in that table's document (mode.py)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, astuple, dataclass, field, replace
from enum import Enum
from typing import Final

from bot.i18n import _, line_data, line_from
from bot.shown_names import shown_name
from bot.tournaments.elimination import Entry, Format
from db.tournament_store import StoredTournament

#: The document's format; another cannot be resumed (the tournament is refunded).
FORMAT: Final = 2


class Status(Enum):
    REGISTERING = "registering"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class UnreadableTournament(ValueError):
    """A stored tournament this code cannot resume."""


@dataclass(slots=True)
class Entrant:
    """One player: their name, their table (its index) and seat there."""

    user_id: int
    name: str
    table: int
    seat: int


@dataclass(slots=True)
class Tournament:
    tournament_id: int
    guild_id: int
    host_id: int
    fmt: Format
    pool_round_id: int
    duplicate: bool
    seed: bytes
    #: The seconds to bet, to act, and without a player's move before it ends by itself.
    timers: tuple[int, int, int]
    status: Status = Status.REGISTERING
    pool: int = 0
    #: Each table's channel and live table id, by the table's index.
    channels: list[int] = field(default_factory=list)
    table_ids: list[str] = field(default_factory=list)
    entrants: list[Entrant] = field(default_factory=list)
    #: Each table's final results, by index, once its last hand is over.
    results: dict[int, list[Entry]] = field(default_factory=dict)
    #: The final standings' lines, once finished (or why it ended).
    final: list[str] = field(default_factory=list)

    @property
    def open(self) -> bool:
        return self.status in (Status.REGISTERING, Status.PLAYING)

    def entrant(self, user_id: int) -> Entrant | None:
        return next((e for e in self.entrants if e.user_id == user_id), None)

    def at(self, index: int) -> list[Entrant]:
        """The players of table ``index`` in seat order."""
        return sorted((e for e in self.entrants if e.table == index), key=lambda e: e.seat)

    def document(self) -> str:
        """As JSON text, its seed too (the store keeps it secret until the end). The ids it
        holds are also the store's columns, which ``restore`` reads instead. (Its final
        lines are catalog lines, which ``asdict`` cannot copy.)"""
        data = asdict(replace(self, final=[])) | {
            "format": FORMAT,
            "seed": self.seed.hex(),
            "status": self.status.value,
            "tables": self.table_ids,
            "entrants": [astuple(e) for e in self.entrants],
            "final": [line_data(line) for line in self.final],
        }
        return json.dumps(data)

    @classmethod
    def restore(cls, stored: StoredTournament) -> Tournament:
        """The tournament the store keeps, else UnreadableTournament."""
        try:
            data = json.loads(stored.state_json)
            if data.get("format") != FORMAT:
                raise UnreadableTournament("its saved state is from another version of the bot")
            fmt, (bet_s, action_s, idle_s) = data["fmt"], data["timers"]
            return cls(
                stored.tournament_id,
                stored.guild_id,
                stored.host_id,
                Format(**fmt | {k: tuple(fmt[k]) for k in ("eliminations", "split")}),
                stored.pool_round_id,
                duplicate=bool(data["duplicate"]),
                seed=bytes.fromhex(data["seed"]),
                timers=(int(bet_s), int(action_s), int(idle_s)),
                status=Status(data["status"]),
                pool=int(data["pool"]),
                channels=[int(c) for c in data["channels"]],
                table_ids=[str(t) for t in data["tables"]],
                entrants=[Entrant(*e) for e in data["entrants"]],
                results={int(i): [Entry(**e) for e in es] for i, es in data["results"].items()},
                final=[line_from(line) for line in data["final"]],
            )
        except (KeyError, TypeError, ValueError) as error:
            raise UnreadableTournament(f"its saved state could not be read ({error})") from None


def standings_lines(
    t: Tournament, ranking: Sequence[Entry], prizes: Sequence[int] | None = None
) -> list[str]:
    """Every player, best first; once it has ended, with each place's prize (``prizes``)."""
    lines: list[str] = []
    for place, entry in enumerate(ranking, start=1):
        e = t.entrant(entry.user_id)
        who = {"place": place, "player": shown_name(e.name if e else ""), "chips": entry.chips}
        prize = prizes[place - 1] if prizes is not None and place <= len(prizes) else 0
        if prize:
            line = _(
                "{place}. {player}: {chips} tournament chips, wins {prize} chips",
                prize=prize,
                **who,
            )
        elif prizes is not None:
            line = _("{place}. {player}: {chips} tournament chips", **who)
        elif entry.out_after is None:
            line = _("{place}. {player}: {chips} chips (still in)", **who)
        else:
            line = _(
                "{place}. {player}: {chips} chips (out after hand {hand})",
                hand=entry.out_after,
                **who,
            )
        lines.append(line)
    return lines
