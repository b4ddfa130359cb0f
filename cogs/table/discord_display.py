"""The table extension's :class:`~bot.table_display.TableDisplay`: each table as a Discord
message, with card pictures where the server wants them, and the notices of a restart."""

from __future__ import annotations

import discord

from bot.table_display import TableDisplay
from bot.tables import TableSnapshot
from bot.tables.resume import ResumeReport
from cogs.table.card_emojis import CardEmojis
from cogs.table.messages import TableMessages
from cogs.table.notices import announce_voided


class DiscordDisplay(TableDisplay):
    """What the bot asks of the table display, done with the table cog's messages and emojis."""

    def __init__(
        self, client: discord.Client, messages: TableMessages, card_emojis: CardEmojis
    ) -> None:
        self._client = client
        self._messages = messages
        self._card_emojis = card_emojis

    async def publish(self, snapshot: TableSnapshot) -> None:
        """Edit the table's message to ``snapshot`` (coalesced, see ``TableMessages``)."""
        await self._messages.publish(snapshot)

    async def before_resume(self) -> None:
        """Wait a little for the card pictures: resumed tables come back as they were shown."""
        await self._card_emojis.settled()

    async def resumed(self, report: ResumeReport) -> None:
        """Edit each resumed table's message (posted by an earlier run) to say it is back,
        and each refunded round's message to say what happened."""
        for table in report.resumed:
            self._messages.adopt(table.snapshot, table.message_id, table.message_at)
        await announce_voided(self._client, report.voided, self._messages.renderer.language)

    async def stopping(self) -> None:
        """Cancel a card upload still running."""
        await self._card_emojis.stop()

    async def idle(self) -> None:
        """Return once no table edit is in flight or due."""
        await self._messages.idle()
