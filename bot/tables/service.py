"""The table service: every live table, its phases, timers and lock, and the chips it moves."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import db
from bot.clock import Clock
from bot.engine import Action, Rules, Shoe
from bot.tables.players import Fairness, Player
from bot.tables.snapshot import TableSnapshot

Publish = Callable[[TableSnapshot], Awaitable[None]]
ShoeFactory = Callable[[Rules], Shoe]


class TableService:
    """Live blackjack tables, one per channel. See notes/tables-api.md for the contract."""

    def __init__(
        self,
        store: db.Store,
        *,
        clock: Clock,
        publish: Publish | None = None,
        shoe_factory: ShoeFactory | None = None,
    ) -> None:
        self._store = store
        self._clock = clock
        self._publish = publish
        self._shoe_factory = shoe_factory

    def table_in(self, channel_id: int) -> TableSnapshot | None:
        """The open table in this channel, or None."""
        raise NotImplementedError

    def get(self, table_id: str) -> TableSnapshot:
        """The table's latest snapshot; StaleButton if the id is unknown."""
        raise NotImplementedError

    def rules_of(self, table_id: str) -> Rules:
        """The table's rules."""
        raise NotImplementedError

    async def start(
        self,
        guild_id: int,
        channel_id: int,
        host: Player,
        *,
        preset: str | None = None,
        min_bet: int | None = None,
        max_bet: int | None = None,
    ) -> TableSnapshot:
        """Open a table in the channel with the host seated, and open betting."""
        raise NotImplementedError

    async def attach_message(self, table_id: str, message_id: int) -> None:
        """Remember the table message (stored on its rounds, for recovery)."""
        raise NotImplementedError

    async def join(self, channel_id: int, player: Player) -> TableSnapshot:
        """Seat the player at the channel's table."""
        raise NotImplementedError

    async def leave(self, channel_id: int, player: Player) -> tuple[TableSnapshot, str]:
        """Stand up now, or when the round ends if the player has hands in it."""
        raise NotImplementedError

    async def bet(
        self, channel_id: int, player: Player, amount: str, spots: int = 1
    ) -> tuple[TableSnapshot, str]:
        """Place the player's bet for this round (seating them if there is room)."""
        raise NotImplementedError

    async def rebet(
        self, table_id: str, round_no: int, player: Player, factor: int
    ) -> tuple[TableSnapshot, str]:
        """Repeat the player's last bet (factor 1) or double it (factor 2)."""
        raise NotImplementedError

    async def act(
        self, table_id: str, round_no: int, player: Player, action: Action
    ) -> TableSnapshot:
        """Apply a button press to the player's first unfinished hand."""
        raise NotImplementedError

    async def hint(self, table_id: str, round_no: int, player: Player) -> str:
        """Basic-strategy advice for the player's current hand."""
        raise NotImplementedError

    async def stop(self, channel_id: int, by: Player, *, may_manage_channel: bool) -> TableSnapshot:
        """Close the table (host or Manage Channels); an open round is voided and refunded."""
        raise NotImplementedError

    async def close(self, table_id: str, reason: str) -> None:
        """Close the table (its message is gone); an open round is voided and refunded."""
        raise NotImplementedError

    def fairness(self, channel_id: int) -> Fairness:
        """The current shoe's commitment and the previous shoe's revealed seed."""
        raise NotImplementedError

    async def recover(self) -> list[db.VoidResult]:
        """At start-up: void and refund every round left open by a previous run."""
        raise NotImplementedError

    async def shutdown(self) -> None:
        """Cancel every timer; void and refund every open round."""
        raise NotImplementedError
