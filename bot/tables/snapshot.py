"""Immutable pictures of a table, published after every change.

The Discord layer renders a snapshot into an embed and buttons; it never looks
at the live table. Everything here is plain data: no engine objects, no Discord.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from bot.engine import Action


class TablePhase(StrEnum):
    """Where a table is in its cycle."""

    BETTING = "betting"  # waiting for /bet; the deadline ends betting
    INSURANCE = "insurance"  # dealer shows an ace: each player decides on insurance
    PLAYING = "playing"  # players act on their hands, all at once
    CLOSED = "closed"  # the table is gone (stopped, idle, message deleted)


@dataclass(frozen=True, slots=True)
class CardView:
    """A card as shown: ``text`` like "10♥"; ``red`` for hearts and diamonds."""

    text: str
    red: bool


@dataclass(frozen=True, slots=True)
class HandView:
    """One hand of one player, as the table shows it."""

    cards: tuple[CardView, ...]
    total: int
    soft: bool
    stake: int
    #: "playing", "standing", "bust", "blackjack", "doubled", "surrendered", ...
    status: str
    #: True on the hand the player's buttons act on now.
    is_current: bool = False
    #: After settlement: "win", "lose", "push", "blackjack", "surrender", ... else "".
    outcome: str = ""
    #: After settlement: chips returned for this hand (stake included).
    payout: int = 0
    #: After settlement: a half chip was rounded down on this hand's payout.
    rounded_down: bool = False


@dataclass(frozen=True, slots=True)
class SeatView:
    """A seated player and their hands this round (none if sitting out)."""

    user_id: int
    name: str
    hands: tuple[HandView, ...] = ()
    #: The bet placed this round, per spot (0 if none yet).
    bet: int = 0
    spots: int = 0
    #: Insurance: None (not offered/undecided), or the amount taken (0 = declined).
    insurance: int | None = None
    #: Actions legal for this player's current hand (empty when nothing to do).
    legal: frozenset[Action] = frozenset()
    #: Unix time by which this player must act, or None.
    deadline: float | None = None
    #: Leaving when this round ends.
    leaving: bool = False
    #: Since sitting down: total bet ("action") and net won or lost ("standing").
    action: int = 0
    standing: int = 0
    #: After settlement: chips returned minus chips staked this round.
    net: int | None = None
    #: Side bets live this round: (bet as players see it, stake a hand).
    side_bets: tuple[tuple[str, int], ...] = ()
    #: The stakes are hidden (a tournament's sealed or secret bet): bet and stakes show 0.
    hidden: bool = False


@dataclass(frozen=True, slots=True)
class DealerView:
    cards: tuple[CardView, ...]
    #: The hole card is hidden until the dealer plays.
    hole_hidden: bool
    #: Total of the visible cards.
    total: int
    soft: bool
    status: str = ""


@dataclass(frozen=True, slots=True)
class StackView:
    """A player's tournament chips, as a tournament table's panel shows them."""

    name: str
    chips: int
    #: The elimination hand they went out after, or None while still in.
    out_after: int | None = None


@dataclass(frozen=True, slots=True)
class TournamentPanel:
    """What a tournament table shows beside its round: its title, the format before the
    start (with the shuffle's commitment), then hand n of m and the next elimination,
    every stack, and the prize pool. Only the title once the tournament has ended.
    ``hands`` to ``fee`` are the tournament's terms, named as its format's fields."""

    tournament_id: int
    #: A duplicate tournament's table number (1 first) and its tables; else 0 and 0.
    table: int = 0
    tables: int = 0
    #: Entries are open: the format is shown instead of the hand.
    registering: bool = False
    hand: int = 0
    #: The hands it lasts; 0 once it has ended (the table only closes).
    hands: int = 0
    stack: int = 0
    min_bet: int = 0
    max_bet: int = 0
    eliminations: tuple[int, ...] = ()
    commitment: str = ""
    stacks: tuple[StackView, ...] = ()
    pool: int = 0
    #: The prize split in percent, first place first; the entry fee (0: none).
    split: tuple[int, ...] = ()
    fee: int = 0


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    """Everything the table message shows, at one moment."""

    table_id: str
    guild_id: int
    channel_id: int
    host_id: int
    preset: str
    #: Changes with every round; buttons carry it so a stale click is recognised.
    round_no: int
    phase: TablePhase
    version: int
    min_bet: int
    max_bet: int
    max_spots: int
    seats: tuple[SeatView, ...]
    dealer: DealerView | None
    #: Unix time when the current phase ends (betting timer), or None.
    deadline: float | None
    #: Lines describing what happened most recently ("alice doubles: 7♣ → 18").
    events: tuple[str, ...] = ()
    #: Results of the round that just ended, shown while the next betting is open.
    last_results: tuple[str, ...] = ()
    #: The same, one line per player: shown when every hand does not fit the message.
    last_summary: tuple[str, ...] = ()
    #: Set when the shoe was just reshuffled: the announcement (action and standing).
    shuffle_notice: tuple[str, ...] = ()
    #: SHA-256 of the current shoe's seed.
    commitment: str = ""
    #: Why the table closed, when phase is CLOSED.
    closed_reason: str = ""
    insurance_offered: bool = False
    #: The round in play was dealt with 21+3 or Perfect Pairs bets: settled at the deal,
    #: they are not refunded if the round is called off.
    side_bets_settled: bool = False
    #: Whether Bet again and Bet 2× could be accepted from anyone: someone has a last bet
    #: (and, for 2×, one the table's maximum takes twice).
    rebets: tuple[bool, bool] = (False, False)
    #: The table's game mode ("cash", "tournament"), and what that mode shows beside the
    #: round (a tournament's hand, stacks and next elimination).
    mode: str = "cash"
    panel: TournamentPanel | None = None
    #: A practice table: its Count button shows the Hi-Lo count (bot/tables/practice.py).
    practice: bool = False
    #: A count quiz is open at the practice table (its Quiz button).
    quiz_open: bool = False


class Reply(NamedTuple):
    """What a table-service call answers: the table as it now stands, and a note for the
    caller alone ("" when there is nothing to say), such as "Bet 100. Balance: 900."."""

    snapshot: TableSnapshot
    note: str = ""
