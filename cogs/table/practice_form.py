"""A practice table's Quiz button opens this form: the player's answer to the count quiz (the
finished shoe's Hi-Lo running count), graded privately by the table service."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.discord_reply import tell
from bot.failures import answer_failure
from bot.i18n import speak, speaking
from bot.tables import Player, TableError
from cogs.table.refusals import refuse

if TYPE_CHECKING:
    from bot.app import BlackjackBot
    from cogs.table.messages import TableMessages


class CountQuizForm(discord.ui.Modal):
    """The count quiz's one question, in the language of the player's client."""

    def __init__(
        self,
        bot: BlackjackBot,
        messages: TableMessages,
        table_id: str,
        player: Player,
        locale: object,
    ) -> None:
        with speaking(locale):
            super().__init__(title=speak("Count quiz"))
            self.count: discord.ui.TextInput[CountQuizForm] = discord.ui.TextInput(
                label=speak("The running count when the shoe ended"), max_length=8
            )
        self.add_item(self.count)
        self._bot, self._messages = bot, messages
        self._table_id, self._player = table_id, player

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        try:
            reply = await self._bot.tables.answer_quiz(
                self._table_id, self._player, str(self.count.value)
            )
        except TableError as error:
            await refuse(interaction, error, self._messages)
            return
        await tell(interaction, reply.note)

    async def on_error(  # type: ignore[override]  # discord.py 2.7 types it as a view's
        self, interaction: discord.Interaction[Any], error: Exception, /
    ) -> None:
        """A failed answer is answered (discord.py only logs it)."""
        await answer_failure(interaction, error, "a count quiz form")
