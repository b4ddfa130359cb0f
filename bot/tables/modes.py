"""Game modes: what differs between a cash table and a tournament table, asked by the one
round flow (flow.py) at each step it does not decide alone.

A game mode is a policy object, as python-chess makes a variant: the round flow owns how a
round moves (bets, the deal, decisions, settlement, the journal, the document, the lock and
the timers) and asks the table's mode

- how the round's shoe is made (``round_shoe``: keep the table's shoe, or a fresh one),
- who may sit and bet, and between which limits (``check_seating``, ``bet_limits``),
- what the bet timer and the decision timer do when they run out (``bets_closed``,
  ``decisions_due``),
- how a finished round is paid and what comes after it (``settle``, ``next_round``),
- what the table shows beside the round (``panel``; ``sealed`` bets are hidden),

and the mode's ``purse`` holds the seats' chips. ``CashMode`` is the cash table's policy
(cash.py); a tournament's is in bot.tournaments. Each table names its mode by ``key`` in its
stored document, with the mode's own per-table state (``Table.mode_state``); the flow finds
the policy by that key (``RoundFlow.modes``), so a mode is one entry there.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

import db
from bot.engine import Shoe

if TYPE_CHECKING:
    from bot.tables.flow import RoundFlow, ShoeFactory
    from bot.tables.players import Player
    from bot.tables.snapshot import TournamentPanel
    from bot.tables.table import SeatState, Table


class Purse(Protocol):
    """Where the seats' chips live: the server's economy (the store's balances), a
    tournament's stacks, or another bot's economy. Every method commits ``table`` (the
    table's new document) and ``actions`` (journal rows) with the chips it moves, so the
    table never disagrees with the chips."""

    async def balance(self, table: Table, user_id: int) -> int:
        """The chips the player may stake now."""
        ...

    async def stake(
        self,
        table: Table,
        user_id: int,
        amount: int,
        kind: str,
        *,
        write: db.TableWrite | None = None,
        actions: Sequence[db.TableAction] = (),
        headroom: int = 0,
        side_amount: int = 0,
    ) -> int:
        """Take ``amount`` (``kind``: 'bet', 'double', 'split', 'insurance') for the table's
        open round; the balance left. db.InsufficientChips (and the economy's own refusals:
        db.PlayRefused, db.BalanceLimitExceeded) change nothing."""
        ...

    async def stake_bet(
        self,
        table: Table,
        user_id: int,
        amount: int,
        *,
        write: db.TableWrite,
        headroom: int = 0,
        side_amount: int = 0,
        notice: bool = False,
    ) -> db.Staked:
        """``stake`` of a bet; with ``notice``, the player's no-value notice is marked seen
        in the same transaction, which says whether it was the first time."""
        ...


class GameMode(Protocol):
    """What a game mode decides for the round flow (see the module's text)."""

    key: ClassVar[str]
    #: Bets are hidden from the table until the deal.
    sealed: ClassVar[bool]
    #: Whether a player's bet repeats (Bet again) and side bets are offered.
    rebets: ClassVar[bool]
    purse: Purse

    def load_state(self, data: Any) -> Any:
        """The per-table state a stored document holds (``Table.mode_state``); ValueError,
        KeyError or TypeError when it cannot be read."""
        ...

    def dump_state(self, state: Any) -> Any:
        """``Table.mode_state`` as JSON-ready data for the table's document."""
        ...

    def round_shoe(self, table: Table, factory: ShoeFactory) -> Shoe | None:
        """The shoe of the round being opened, or None to keep the table's."""
        ...

    def check_seating(self, table: Table, player: Player, *, betting: bool) -> None:
        """TableError if the player may not sit down, stand up or (``betting``) bet here."""
        ...

    def bet_limits(self, table: Table, seat: SeatState | None) -> tuple[int, int]:
        """The smallest and largest bet a spot the player (``seat``) may make this round;
        ``seat`` None: the table's own limits, as the table shows them."""
        ...

    def note_secret(self, table: Table, user_id: int, secret: bool) -> Callable[[], None]:
        """The player's bet is ``secret`` (hidden until paid): noted in the mode's state, or
        BetRefused; returns what undoes the note if the stake then fails."""
        ...

    async def bets_closed(self, flow: RoundFlow, table: Table) -> None:
        """The bet timer ran out."""
        ...

    async def decisions_due(self, flow: RoundFlow, table: Table, late: list[str]) -> None:
        """The players ``late`` (engine ids) let their decision timer run out."""
        ...

    async def settle(self, flow: RoundFlow, table: Table) -> None:
        """Pay the finished round and go on (``next_round``)."""
        ...

    async def next_round(self, flow: RoundFlow, table: Table) -> None:
        """After a settlement (or a restart right after one): the next round, or the end."""
        ...

    def hidden_bets(self, table: Table) -> frozenset[int]:
        """The players whose stakes the table hides now (sealed or secret bets)."""
        ...

    def panel(self, table: Table) -> TournamentPanel | None:
        """What the table shows about the game beside the round (a tournament's hand and
        stacks); None at a cash table."""
        ...
