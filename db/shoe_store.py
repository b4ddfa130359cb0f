"""The store's shoes (``Store.shoes``): each shoe's commitment when it starts and its seed
when it is retired, for anyone to check (db.ops.shoes)."""

from __future__ import annotations

from collections.abc import Callable

from db import checks
from db.models import ShoeRecord
from db.ops import shoes
from db.statements import Run


class ShoeStore:
    """Each method checks its arguments (ValueError, nothing touched), then runs one
    transaction."""

    def __init__(self, run: Run, now: Callable[[], int]) -> None:
        #: Runs an operation in a transaction of its own (``Store._run``).
        self._run = run
        self._now = now

    async def open_shoe(self, guild_id: int, channel_id: int, commitment: str) -> ShoeRecord:
        """Record a shoe's commitment when it starts (idempotent)."""
        g, c = checks.snowflake("guild_id", guild_id), checks.snowflake("channel_id", channel_id)
        shoe, now = checks.text("commitment", commitment), self._now()
        return await self._run(lambda: shoes.open_shoe(g, c, shoe, now), write=True)

    async def reveal_seed(self, commitment: str, seed_hex: str) -> ShoeRecord:
        """Retire the shoe and store its seed for everyone to check (idempotent for the same seed).

        The store does not check the seed against the commitment: that is the
        engine's rule (``python -m bot verify``). UnknownShoe if never recorded.
        """
        shoe, seed, now = (
            checks.text("commitment", commitment),
            checks.text("seed_hex", seed_hex),
            self._now(),
        )
        return await self._run(lambda: shoes.reveal_seed(shoe, seed, now), write=True)

    async def get_shoe(self, commitment: str) -> ShoeRecord | None:
        """The shoe with this commitment, or None."""
        shoe = checks.text("commitment", commitment)
        return await self._run(lambda: shoes.get_shoe(shoe), write=False)

    async def last_revealed_shoe(self, guild_id: int, channel_id: int) -> ShoeRecord | None:
        """The channel's most recently retired shoe, with its seed (for /blackjack fairness)."""
        g, c = checks.snowflake("guild_id", guild_id), checks.snowflake("channel_id", channel_id)
        return await self._run(lambda: shoes.last_revealed_shoe(g, c), write=False)
