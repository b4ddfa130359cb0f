"""What the bot asks of the feature that shows the tables to people.

The bot owns the table service and its life: the tables resume at start-up and their
timers stop at a graceful stop. How a table looks on Discord (its message, its card
pictures, the notices about it) belongs to the table extension (``cogs.table``), which
plugs its :class:`TableDisplay` into :attr:`bot.app.BlackjackBot.display` while it is
loaded. This base shows nothing: without the extension the tables run unseen.
"""

from __future__ import annotations

from bot.tables import TableSnapshot
from bot.tables.resume import ResumeReport


class TableDisplay:
    """The bot's calls into the table display, in the order the bot makes them."""

    async def publish(self, snapshot: TableSnapshot) -> None:
        """A table changed: show ``snapshot`` (the table service's publish callback)."""

    async def before_resume(self) -> None:
        """Start-up, before the stored tables resume: get ready to show them as they were."""

    async def resumed(self, report: ResumeReport) -> None:
        """Start-up: show the resumed tables again and tell the refunded rounds' channels."""

    async def stopping(self) -> None:
        """A graceful stop, once the interactions in flight have answered and before the
        tables' timers stop: end any background work."""

    async def idle(self) -> None:
        """A graceful stop, the timers stopped: return once the updates due are shown.
        The bot bounds the wait; the state is stored already."""
