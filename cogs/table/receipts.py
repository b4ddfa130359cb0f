"""A bet's private receipt ("Bet 100. Balance: 900.") leaves by itself after a few seconds.

Ephemeral answers stay under the table message until the player dismisses them, so a
few rounds of receipts push the table out of view. The table shows every bet, so the
receipt is deleted once read: a ``/bet`` answer is the interaction's original response
(``delete_original_response``); a Bet button's is a followup, deleted as that message.
Both go through the interaction's token, which lives 15 minutes, far longer than
:data:`RECEIPT_SHOWN_S`. The wait is a call on the bot's clock, so tests drive it.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from typing import Any, Final

import discord

from bot.clock import Cancellable, Clock

#: Seconds a bet's receipt is shown before it is deleted.
RECEIPT_SHOWN_S: Final = 8.0


class Receipts:
    """The receipts waiting to be deleted, and the deletions under way."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._keys = itertools.count()
        #: Each waiting receipt's deletion: when it is due, and its call on the clock.
        self._timers: dict[int, tuple[float, Cancellable]] = {}
        self._deleting: set[asyncio.Task[None]] = set()

    @property
    def waiting(self) -> int:
        """Receipts whose deletion waits on the clock (each a call on it) and is not due."""
        now = self._clock.now()
        return sum(1 for when, _ in self._timers.values() if when > now)

    def expire(
        self, interaction: discord.Interaction[Any], sent: discord.WebhookMessage | None
    ) -> None:
        """Delete the receipt after :data:`RECEIPT_SHOWN_S`: the followup ``sent``, or with
        None the original response of a command (a click's is the table message: kept)."""
        if sent is None and interaction.type is not discord.InteractionType.application_command:
            return
        key = next(self._keys)

        def due() -> None:
            if self._timers.pop(key, None) is None:
                return  # stopped meanwhile
            task = asyncio.create_task(_delete(interaction, sent), name="receipt deletion")
            self._deleting.add(task)
            task.add_done_callback(self._deleting.discard)

        when = self._clock.now() + RECEIPT_SHOWN_S
        self._timers[key] = (when, self._clock.call_at(when, due))

    def stop(self) -> None:
        """Delete no more receipts (the cog unloads): they stay until dismissed."""
        for _, timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        for task in self._deleting:
            task.cancel()


async def _delete(
    interaction: discord.Interaction[Any], sent: discord.WebhookMessage | None
) -> None:
    # Dismissed by the player already, or Discord refused: the receipt just stays.
    with contextlib.suppress(discord.HTTPException):
        if sent is None:
            await interaction.delete_original_response()
        else:
            await sent.delete()
