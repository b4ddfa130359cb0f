"""The store's operations for the bridge to UnbelievaBoat (``Store.bridge``): a server's
bridge and the transfers between the two books (db.ops.bridge)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from db import checks
from db.ops import bridge
from db.ops.bridge import OPEN_STATUSES, BridgeRecord, TransferKind, TransferRecord
from db.statements import Run

#: The largest number on either side of a rate (a million chips for one cash, or back).
MAX_RATE: Final = 1_000_000


class BridgeStore:
    """Each method checks its arguments, then runs one transaction."""

    def __init__(self, run: Run, now: Callable[[], int]) -> None:
        self._run = run
        self._now = now

    async def connect(
        self, guild_id: int, token: str, actor_id: int, rate_cash: int = 1, rate_chips: int = 1
    ) -> None:
        """Store the server's bridge (replacing one it had)."""
        g, a = checks.snowflake("guild_id", guild_id), checks.snowflake("actor_id", actor_id)
        cash = checks.positive("rate_cash", rate_cash, limit=MAX_RATE)
        chips = checks.positive("rate_chips", rate_chips, limit=MAX_RATE)
        checks.text("token", token)
        now = self._now()
        await self._run(lambda: bridge.connect(g, token, cash, chips, a, now), write=True)

    async def disconnect(self, guild_id: int) -> bool:
        """Forget the server's bridge; False if it had none."""
        g = checks.snowflake("guild_id", guild_id)
        return await self._run(lambda: bridge.disconnect(g), write=True)

    async def bridge(self, guild_id: int) -> BridgeRecord | None:
        """The server's bridge, or None: it plays with the bot's own chips."""
        g = checks.snowflake("guild_id", guild_id)
        return await self._run(lambda: bridge.bridge(g), write=False)

    async def begin(
        self, guild_id: int, user_id: int, kind: TransferKind, cash: int, chips: int, before: int
    ) -> TransferRecord:
        """Write a transfer as pending (a cash-out takes its chips: InsufficientChips)."""
        g, u = checks.snowflake("guild_id", guild_id), checks.snowflake("user_id", user_id)
        c, ch = checks.amount("cash", cash), checks.amount("chips", chips)
        if kind not in ("cash_in", "cash_out"):
            raise ValueError(f"there is no transfer kind {kind!r}")
        now = self._now()
        return await self._run(lambda: bridge.begin(g, u, kind, c, ch, before, now), write=True)

    async def complete(
        self, transfer_id: int, cash_after: int | None, actor_id: int | None = None
    ) -> int:
        """The transfer was applied (TransferClosed if already settled); the chips after.
        ``cash_after``: the member's cash UnbelievaBoat answered (None: an admin said so)."""
        now = self._now()
        return await self._run(
            lambda: bridge.complete(transfer_id, cash_after, actor_id, now), write=True
        )

    async def roll_back(self, transfer_id: int, actor_id: int | None = None) -> TransferRecord:
        """The transfer was not applied (TransferClosed if already settled)."""
        now = self._now()
        return await self._run(lambda: bridge.roll_back(transfer_id, actor_id, now), write=True)

    async def hold(self, transfer_id: int) -> None:
        """Leave a pending transfer for an admin."""
        await self._run(lambda: bridge.hold(transfer_id), write=True)

    async def open_transfers(self, guild_id: int | None = None) -> list[TransferRecord]:
        """Pending and held transfers, oldest first (of one server, or of every server)."""
        g = None if guild_id is None else checks.snowflake("guild_id", guild_id)
        return await self._run(lambda: bridge.transfers(g, OPEN_STATUSES), write=False)

    async def chips_held(self, guild_id: int) -> int:
        """Every chip the server's players hold (bought from its cash, on a bridged server)."""
        g = checks.snowflake("guild_id", guild_id)
        return await self._run(lambda: bridge.chips_held(g), write=False)

    async def cashed_in_since(self, members: tuple[int, ...], since: int) -> int:
        """The chips a player's accounts bought since ``since`` (microseconds)."""
        ids = tuple(checks.snowflake("user_id", member) for member in members)
        return await self._run(lambda: bridge.cashed_in_since(ids, since), write=False)

    async def idle_cash_out_set(self) -> bool:
        """Whether any server has the idle cash-out on (its watcher is needed)."""
        return await self._run(bridge.idle_cash_out_set, write=False)

    async def idle_holders(self, guild_id: int, since: int) -> list[tuple[int, int]]:
        """(user id, chips) of the server's players whose chips have not moved since
        ``since`` (microseconds)."""
        g = checks.snowflake("guild_id", guild_id)
        return await self._run(lambda: bridge.idle_holders(g, since), write=False)

    async def transfer(self, transfer_id: int) -> TransferRecord | None:
        """One transfer, or None."""
        return await self._run(lambda: bridge.transfer(transfer_id), write=False)
