"""The live state of one table: seats, the shoe, the round in play, deadlines.

Plain mutable data, changed only by the service while it holds ``lock``.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import db
from bot.engine import Round, Rules, Shoe, Standing
from bot.tables.players import Player
from bot.tables.side_bets import NO_SIDE_BETS, SideBetRules
from bot.tables.snapshot import TablePhase, TableSnapshot


@dataclass(frozen=True, slots=True)
class Timers:
    """A table's timers, in seconds, from the guild's settings when it opened."""

    bet_s: int
    action_s: int
    idle_close_s: int


@dataclass(slots=True)
class SeatState:
    """A seated player: this round's bet, their deadline, and their tally since sitting down."""

    player: Player
    #: Stake per spot this round, and the number of spots (0 = not bet yet).
    bet: int = 0
    spots: int = 0
    #: This round's side bets, stake per spot by bet ("21+3": 10).
    side: dict[str, int] = field(default_factory=dict)
    leaving: bool = False
    #: When this player's hands stand if they do nothing (insurance and play phases).
    deadline: float | None = None
    #: Action and standing since this player sat down (the 1972 bj's shuffle announcement).
    standing: Standing = field(default_factory=Standing)
    #: The player's net for the round that just ended (shown during the next betting).
    last_net: int | None = None
    #: The seat's last view and what it was made from (``snapshot_builder.seat_view``).
    view_cache: tuple[Any, ...] | None = field(default=None, repr=False, compare=False)
    #: The player's id in the engine's round (the seat's player never changes), made once:
    #: every snapshot, journal row and saved document asks for it.
    pid: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.pid = str(self.player.user_id)


@dataclass(slots=True)
class Table:
    """One open table in one channel."""

    table_id: str
    guild_id: int
    channel_id: int
    host_id: int
    preset: str
    rules: Rules
    timers: Timers
    shoe: Shoe
    previous_shoe: db.ShoeRecord | None
    previous_decks: int | None
    idle_since: float
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    seats: list[SeatState] = field(default_factory=list)
    phase: TablePhase = TablePhase.BETTING
    round_no: int = 0
    #: The store's id of the round being bet on or played; None once settled or voided.
    round_id: int | None = None
    round: Round | None = None
    #: The round's journal as committed (its deal first, then each decision), kept in
    #: memory so that the coach grades a settled round without reading it back.
    journal: list[db.TableAction] = field(default_factory=list, repr=False, compare=False)
    #: When betting (or the insurance decision) ends.
    deadline: float | None = None
    message_id: int | None = None
    #: When the table message was posted (Discord caps edits to messages over an hour old).
    message_at: float | None = None
    events: list[str] = field(default_factory=list)
    #: The last round's full account, line by line (Round details), and whose each line
    #: is (a player id; "" for the dealer's and where nobody's).
    last_results: tuple[str, ...] = ()
    last_owners: tuple[str, ...] = ()
    #: The last round at a glance (the table shows it): one line per player.
    last_summary: tuple[str, ...] = ()
    shuffle_notice: tuple[str, ...] = ()
    insurance_offered: bool = False
    closed_reason: str = ""
    #: Why the table closes once the round in play is settled (a stop asked mid-round).
    closing: str = ""
    #: Last stake per spot and spots per player, for the Bet again buttons.
    last_bets: dict[int, tuple[int, int]] = field(default_factory=dict)
    #: The side bets the table offers (from the server's settings when it opened).
    side_bets: SideBetRules = NO_SIDE_BETS
    #: Each player's last side bets (stake per spot by bet), repeated by Bet again.
    last_side_bets: dict[int, dict[str, int]] = field(default_factory=dict)
    version: int = 0
    snapshot: TableSnapshot | None = None
    timer: asyncio.Task[None] | None = None
    #: When ``timer`` wakes.
    timer_due: float | None = None
    #: A write failed: the table waits for the store (no timer runs, every change is
    #: refused) and ``recovery`` reloads it from the store once the store takes writes.
    paused: bool = False
    recovery: asyncio.Task[None] | None = None
    #: The game mode's key (``RoundFlow.modes``) and its own state for this table (a
    #: tournament's stacks), kept in the table's document.
    mode: str = "cash"
    mode_state: Any = None
    #: A practice table (a counting trainer): the Count button, and a quiz at the reshuffle.
    practice: bool = False
    #: A practice table's open count quiz: the finished shoe's commitment and its final
    #: Hi-Lo running count (None before the first reshuffle).
    quiz: tuple[str, int] | None = None

    @property
    def closed(self) -> bool:
        return self.phase is TablePhase.CLOSED

    def seat_of(self, user_id: int) -> SeatState | None:
        """The player's seat, or None."""
        for seat in self.seats:
            if seat.player.user_id == user_id:
                return seat
        return None

    def in_round(self, seat: SeatState) -> bool:
        """Whether the player holds hands in the round being played."""
        return self.round is not None and self.round.has_player(seat.pid)

    def next_due(self) -> float | None:
        """The earliest time a timer has something to do, or None."""
        if self.closed or self.paused:
            return None
        if self.phase is TablePhase.BETTING:
            return self.deadline
        times = [seat.deadline for seat in self.seats if seat.deadline is not None]
        if self.phase is TablePhase.INSURANCE and self.deadline is not None:
            times.append(self.deadline)
        return min(times) if times else None
