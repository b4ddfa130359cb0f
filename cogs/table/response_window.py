"""Answering every click and bet within Discord's 3 s window, however long the table takes.

Discord shows "This interaction failed" when no response arrives within 3 s of the
interaction's creation, although the bot may have applied it. So:

- :class:`TimelyResponse` acknowledges an interaction that is not answered within
  :data:`DEFER_AFTER` of reaching the bot (waiting for the table's lock, a slow
  database, a busy event loop) with a deferred response (a click: type 6, "updating
  the message"; a command: type 5, ephemeral), and then sends the real answer
  through the interaction's webhook (valid 15 minutes) when it is ready.
- :func:`overloaded` says when to answer at once that the table is busy and change
  nothing: too many interactions already wait for this table. A busy answer costs one
  request and no database or lock.

The event loop's lag was tried as a second busy signal and left out on evidence: on
a shared machine the loop runs late without any backlog of the bot's own, and at a
sustained 0.5 s it turned away 8,392 of 13,147 interactions of a closed-loop run
(``bench/load.py``, load average 20 on 2 cores): the lag was the machine's, not a
backlog of the bot's.
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord

from bot.clock import Cancellable, Clock
from bot.discord_reply import tell
from bot.i18n import _
from cogs.table.layouts import TablePayload

#: Seconds after an interaction reached the bot at which it is acknowledged with a deferral
#: if not answered yet: 1 s of margin to Discord's 3 s for the request itself.
DEFER_AFTER = 2.0
#: Discord's response window; an interaction's age from its id is believed only inside it.
RESPONSE_WINDOW = 3.0
#: Interactions already waiting for one table beyond which another is told it is busy
#: (five players each pressing twice).
MAX_WAITING = 10
BUSY = _("The table is busy right now: nothing was done. Try again in a moment.")


def age(interaction: discord.Interaction[Any]) -> float:
    """Seconds since Discord created the interaction, from its id; 0 when not believable.

    Another machine's clock (or a test's fake ids) can be seconds or years off:
    only an age inside the response window is taken.
    """
    seconds = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    return seconds if 0.0 <= seconds < RESPONSE_WINDOW else 0.0


class TimelyResponse:
    """One interaction's single answer: sent directly, or deferred then sent via the webhook.

    Use as ``async with TimelyResponse(interaction, clock) as answer``; the deferral is armed
    on entry and disarmed on exit.
    """

    def __init__(self, interaction: discord.Interaction[Any], clock: Clock) -> None:
        self._interaction = interaction
        self._clock = clock
        self._deferring = False
        #: The deferral's timer while armed: a clock call, not a task, since nearly every
        #: click is answered first and a sleeping task per click cost a task and its
        #: cancellation each time.
        self._timer: Cancellable | None = None
        #: The deferral's request, once the timer fired.
        self._guard: asyncio.Task[None] | None = None

    async def __aenter__(self) -> TimelyResponse:
        when = self._clock.now() + DEFER_AFTER - age(self._interaction)
        self._timer = self._clock.call_at(when, self._fire)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self._settle()

    def _fire(self) -> None:
        if self._timer is None:
            return  # settled meanwhile (a fake clock's call may already be on its way)
        self._timer = None
        self._deferring = True
        self._guard = asyncio.create_task(self._defer())

    async def _defer(self) -> None:
        if self._interaction.type is discord.InteractionType.component:
            await self._interaction.response.defer()  # 6: the clicked message will be edited
        else:
            await self._interaction.response.defer(ephemeral=True)  # 5: "thinking..."

    async def _settle(self) -> bool:
        """Disarm the deferral; True if it was sent (answer through the webhook)."""
        timer, self._timer = self._timer, None
        if timer is not None:
            timer.cancel()
            return False
        guard, self._guard = self._guard, None
        if guard is not None:
            await guard  # a failed deferral fails the answer too
        return self._deferring

    async def table(self, payload: TablePayload) -> None:
        """Answer a click with the new table: type 7, or an edit of the deferred message."""
        if await self._settle():
            await self._interaction.edit_original_response(**payload.fields())
        else:
            await self._interaction.response.edit_message(**payload.fields())

    async def text(
        self, text: str, *, wait: bool = False, notice: str = ""
    ) -> discord.WebhookMessage | None:
        """Answer with a sentence only the user sees (after a deferral, as a followup: after
        "thinking" it replaces that message, as a refusal's answer does), with ``notice``
        beside it; with ``wait``, the followup message when it was one (see
        :func:`bot.discord_reply.tell`)."""
        await self._settle()
        return await tell(self._interaction, text, wait=wait, notice=notice)


def overloaded(waiting: int) -> bool:
    """Answer "busy" rather than queue: ``waiting`` interactions already wait for the table."""
    return waiting >= MAX_WAITING
