"""The rules of an elimination tournament (README.md, "Tournaments"), as pure functions: no
clock, no store, no Discord. Tournament chips are not the economy's."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from bot.i18n import _
from bot.tables.errors import TableError

#: The format's defaults (the issue's): stack, hands, bets, elimination hands, prize split.
DEFAULT_STACK: Final = 1_000
DEFAULT_HANDS: Final = 30
DEFAULT_MIN_BET: Final = 10
DEFAULT_MAX_BET: Final = 500
DEFAULT_ELIMINATIONS: Final = (8, 16, 25)
DEFAULT_SPLIT: Final = (60, 30, 10)
#: The most hands a tournament may last, and the most players it may seat at one table.
MAX_HANDS: Final = 100
MAX_PLAYERS: Final = 7


class FormatError(TableError, ValueError):
    """A tournament format that cannot be played; the text says why, for the host (as the
    table's refusals do)."""


@dataclass(frozen=True, slots=True)
class Format:
    """How one tournament is played and paid."""

    stack: int = DEFAULT_STACK
    hands: int = DEFAULT_HANDS
    min_bet: int = DEFAULT_MIN_BET
    max_bet: int = DEFAULT_MAX_BET
    eliminations: tuple[int, ...] = DEFAULT_ELIMINATIONS
    #: Entry fee in economy chips (0: none).
    fee: int = 0
    #: Percent of the prize pool for first, second, ... place; adds up to 100.
    split: tuple[int, ...] = DEFAULT_SPLIT

    def check(self) -> Format:
        """The format itself, or FormatError saying what is wrong with it."""
        if not 1 <= self.hands <= MAX_HANDS:
            raise FormatError(_("A tournament lasts 1 to {count} hands.", count=MAX_HANDS))
        if not 1 <= self.min_bet <= self.max_bet:
            raise FormatError(_("The minimum bet must be at least 1 and at most the maximum bet."))
        if self.stack < self.min_bet:
            raise FormatError(_("The starting stack must cover at least the minimum bet."))
        if any(not 1 <= hand < self.hands for hand in self.eliminations):
            raise FormatError(
                _("Elimination hands must come before the last hand, numbered from 1.")
            )
        if len(set(self.eliminations)) != len(self.eliminations):
            raise FormatError(_("Each elimination hand may be named once."))
        if self.fee < 0:
            raise FormatError(_("The entry fee cannot be negative."))
        if not self.split or any(part <= 0 for part in self.split) or sum(self.split) != 100:
            raise FormatError(_("The prize split is whole percentages that add up to 100."))
        return self

    def next_elimination(self, hand_no: int) -> int | None:
        """The first elimination hand at or after ``hand_no``, or None."""
        return min((hand for hand in self.eliminations if hand >= hand_no), default=None)


def parse_hands(text: str) -> tuple[int, ...]:
    """``"8, 16, 25"`` as (8, 16, 25), sorted; FormatError for anything else."""
    try:
        return tuple(sorted(int(part) for part in text.replace(",", " ").split()))
    except ValueError:
        raise FormatError(
            _("{text} is not a list of hand numbers, like 8, 16, 25.", text=repr(text))
        ) from None


def parse_split(text: str) -> tuple[int, ...]:
    """``"60/30/10"`` as (60, 30, 10); FormatError for anything else."""
    try:
        return tuple(int(part) for part in text.replace(",", "/").split("/") if part.strip())
    except ValueError:
        raise FormatError(_("{text} is not a split like 60/30/10.", text=repr(text))) from None


@dataclass(frozen=True, slots=True)
class Entry:
    """A player's place so far: seat (0 first), chips now and at the start of the hand, and
    the hand they went out after; ranked for an elimination and for the standings."""

    user_id: int
    seat: int
    chips: int
    chips_before: int
    #: None while still in.
    out_after: int | None = None
    #: Several tables of one duplicate tournament rank together: the table's number breaks
    #: a tie nothing else breaks.
    table: int = 0


def first_bettor(hand_no: int, seats: int) -> int:
    """The seat that bets first in ``hand_no`` (1 first): it moves one seat a hand."""
    return (hand_no - 1) % seats if seats else 0


def ranked(stacks: Iterable[Entry], hand_no: int, seats: int) -> list[Entry]:
    """Best first: more chips, then more chips at the start of the hand, then the seat
    nearer the hand's first bettor."""
    first = first_bettor(hand_no, seats)
    return sorted(
        stacks,
        key=lambda s: (-s.chips, -s.chips_before, (s.seat - first) % max(seats, 1)),
    )


def eliminated(stacks: Sequence[Entry], hand_no: int, seats: int) -> Entry | None:
    """Who goes out after elimination hand ``hand_no``: the last of ``ranked`` (None when
    one player or nobody is left, since a tournament always keeps its winner)."""
    if len(stacks) < 2:
        return None
    return ranked(stacks, hand_no, seats)[-1]


def standings(entries: Iterable[Entry], hand_no: int, seats: int) -> list[Entry]:
    """Every entry, best first: those still in by ``ranked``'s order, then those out, the
    later out the better, then by their chips when they went out."""
    first = first_bettor(hand_no, seats)

    def key(entry: Entry) -> tuple[int, int, int, int, int]:
        out = entry.out_after if entry.out_after is not None else 1 << 30
        order = (entry.seat - first) % max(seats, 1)
        return (-out, -entry.chips, -entry.chips_before, order, entry.table)

    return sorted(entries, key=key)


def prizes(pool: int, split: Sequence[int], players: int) -> list[int]:
    """The pool split over the top places, whole chips, first place first.

    With fewer players than paid places the places nobody fills go to first place, as
    does what rounding leaves over: the whole pool is always paid.
    """
    if pool <= 0 or players <= 0:
        return []
    paid = [pool * part // 100 for part in split[:players]]
    paid[0] += pool - sum(paid)
    return paid
