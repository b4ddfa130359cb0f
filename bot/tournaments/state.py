"""A live tournament: its players, tables and the hand in play, and its stored document.

Plain mutable data, changed only by the service while it holds ``lock``. The document is
everything (the hand in play too, as the engine's round JSON): it is small, and it is
rewritten at every change, in the transaction of the chips that change moves.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Final

from bot.engine import Round, Rules, preset
from bot.tournaments.rules import Entry, Format, Stack

#: The document's format; another cannot be resumed (the tournament is cancelled, refunded).
FORMAT: Final = 1
#: The rule set every tournament hand is dealt by: a six-deck shoe without insurance or
#: surrender, so each hand is the same few decisions for everyone.
BASE_PRESET: Final = "vegas-shoe"


class Status(Enum):
    REGISTERING = "registering"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class Phase(Enum):
    WAITING = "waiting"  # not started yet
    BETTING = "betting"
    PLAYING = "playing"
    DONE = "done"  # the table's last hand is over


@dataclass(slots=True)
class Entrant:
    """One player: where they sit, their tournament chips, their bet this hand."""

    user_id: int
    name: str
    table: int
    seat: int
    chips: int
    chips_before: int
    out_after: int | None = None
    secret_used: bool = False
    #: The sealed bet for this hand (None: not bet yet), and whether it is the secret one.
    bet: int | None = None
    secret: bool = False

    @property
    def pid(self) -> str:
        return str(self.user_id)

    @property
    def playing(self) -> bool:
        """Still in the tournament, with chips to bet."""
        return self.out_after is None and self.chips > 0

    def stack(self) -> Stack:
        return Stack(self.user_id, self.seat, self.chips, self.chips_before)

    def entry(self) -> Entry:
        return Entry(
            self.user_id, self.seat, self.chips, self.chips_before, self.out_after, self.table
        )


@dataclass(slots=True)
class TableState:
    """One channel of the tournament (a duplicate tournament has several)."""

    channel_id: int
    message_id: int | None = None
    phase: Phase = Phase.WAITING
    hand_no: int = 0
    deadline: float | None = None
    round: Round | None = None
    #: What happened this hand so far (minimum bets, auto-played players), for the board.
    events: list[str] = field(default_factory=list)
    #: The last hand's results, shown until the next one settles.
    results: list[str] = field(default_factory=list)


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
    bet_s: int
    action_s: int
    idle_s: int
    idle_since: float
    status: Status = Status.REGISTERING
    pool: int = 0
    tables: list[TableState] = field(default_factory=list)
    entrants: list[Entrant] = field(default_factory=list)
    #: The final standings' lines, once finished (or why it ended).
    final: list[str] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False, compare=False)
    timer: asyncio.Task[None] | None = field(default=None, repr=False, compare=False)

    @property
    def rules(self) -> Rules:
        return tournament_rules(self.fmt)

    @property
    def open(self) -> bool:
        return self.status in (Status.REGISTERING, Status.PLAYING)

    def table_of(self, channel_id: int) -> TableState | None:
        for table in self.tables:
            if table.channel_id == channel_id:
                return table
        return None

    def entrant(self, user_id: int) -> Entrant | None:
        for entrant in self.entrants:
            if entrant.user_id == user_id:
                return entrant
        return None

    def at(self, table: TableState) -> list[Entrant]:
        """The table's players in seat order."""
        index = self.tables.index(table)
        return sorted((e for e in self.entrants if e.table == index), key=lambda e: e.seat)

    def seats(self) -> int:
        return max((len(self.at(t)) for t in self.tables), default=0)


def tournament_rules(fmt: Format) -> Rules:
    """The rules every hand of a tournament of ``fmt`` is dealt by."""
    base = preset(BASE_PRESET)
    return Rules.from_dict(
        {
            **base.to_dict(),
            "insurance": False,
            "surrender": "none",
            "min_bet": 1,
            "max_bet": fmt.max_bet,
            "max_spots": 1,
        }
    )


def format_json(fmt: Format) -> str:
    return json.dumps(
        {
            "stack": fmt.stack,
            "hands": fmt.hands,
            "min_bet": fmt.min_bet,
            "max_bet": fmt.max_bet,
            "eliminations": list(fmt.eliminations),
            "fee": fmt.fee,
            "split": list(fmt.split),
        },
        sort_keys=True,
    )


def _format(data: dict[str, Any]) -> Format:
    return Format(
        stack=int(data["stack"]),
        hands=int(data["hands"]),
        min_bet=int(data["min_bet"]),
        max_bet=int(data["max_bet"]),
        eliminations=tuple(int(h) for h in data["eliminations"]),
        fee=int(data["fee"]),
        split=tuple(int(p) for p in data["split"]),
    )


def document(t: Tournament) -> str:
    """The tournament as JSON text (its seed too: the store keeps it secret until the end)."""
    return json.dumps(
        {
            "format": FORMAT,
            "fmt": json.loads(format_json(t.fmt)),
            "duplicate": t.duplicate,
            "seed": t.seed.hex(),
            "timers": [t.bet_s, t.action_s, t.idle_s],
            "idle_since": t.idle_since,
            "status": t.status.value,
            "pool": t.pool,
            "final": t.final,
            "tables": [
                {
                    "channel": table.channel_id,
                    "message": table.message_id,
                    "phase": table.phase.value,
                    "hand": table.hand_no,
                    "deadline": table.deadline,
                    "round": None if table.round is None else table.round.to_json(),
                    "events": table.events,
                    "results": table.results,
                }
                for table in t.tables
            ],
            "entrants": [
                [
                    e.user_id,
                    e.name,
                    e.table,
                    e.seat,
                    e.chips,
                    e.chips_before,
                    e.out_after,
                    e.secret_used,
                    e.bet,
                    e.secret,
                ]
                for e in t.entrants
            ],
        }
    )


class UnreadableTournament(ValueError):
    """A stored tournament this code cannot resume."""


def restore(
    tournament_id: int, guild_id: int, host_id: int, pool_round_id: int, text: str
) -> Tournament:
    """The tournament a stored document describes; UnreadableTournament if it cannot be read."""
    try:
        data = json.loads(text)
        if data.get("format") != FORMAT:
            raise UnreadableTournament("its saved state is from another version of the bot")
        bet_s, action_s, idle_s = (int(s) for s in data["timers"])
        t = Tournament(
            tournament_id=tournament_id,
            guild_id=guild_id,
            host_id=host_id,
            fmt=_format(data["fmt"]),
            pool_round_id=pool_round_id,
            duplicate=bool(data["duplicate"]),
            seed=bytes.fromhex(data["seed"]),
            bet_s=bet_s,
            action_s=action_s,
            idle_s=idle_s,
            idle_since=float(data["idle_since"]),
            status=Status(data["status"]),
            pool=int(data["pool"]),
            final=[str(line) for line in data["final"]],
        )
        for item in data["tables"]:
            t.tables.append(
                TableState(
                    channel_id=int(item["channel"]),
                    message_id=item["message"],
                    phase=Phase(item["phase"]),
                    hand_no=int(item["hand"]),
                    deadline=item["deadline"],
                    round=None if item["round"] is None else Round.from_json(item["round"]),
                    events=[str(line) for line in item["events"]],
                    results=[str(line) for line in item["results"]],
                )
            )
        for row in data["entrants"]:
            user, name, table, seat, chips, before, out, used, bet, secret = row
            t.entrants.append(
                Entrant(
                    int(user),
                    str(name),
                    int(table),
                    int(seat),
                    int(chips),
                    int(before),
                    out,
                    bool(used),
                    bet,
                    bool(secret),
                )
            )
    except (KeyError, TypeError, ValueError) as error:
        raise UnreadableTournament(f"its saved state could not be read ({error})") from None
    return t
