"""The Bet button's form (a tournament table's sealed bet): the amount, and whether it is
the player's one secret bet, in the language of the player's client. A submitted form is
a bet like ``/bet``: the same parser, the same refusals."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import discord

from bot.amount_words import folded, listed
from bot.failures import answer_failure
from bot.i18n import ENGLISH, _, speak, speaking
from bot.tables.errors import TableError
from cogs.table.refusals import refuse

if TYPE_CHECKING:
    from cogs.table.bet_command import BettingCog

#: The answers to the secret-bet question that mean yes, in each language (English's too).
# TRANSLATORS: the words a player may type to answer yes, separated by commas; the first is
# the one the bot shows.
YES: Final = _("yes, y")


class BetForm(discord.ui.Modal):
    """The form a Bet button opens."""

    def __init__(self, betting: BettingCog, locale: object) -> None:
        with speaking(locale) as language:
            super().__init__(title=speak("Your sealed bet"))
            self.amount: discord.ui.TextInput[BetForm] = discord.ui.TextInput(
                label=speak("Chips"), max_length=32
            )
            self.secret: discord.ui.TextInput[BetForm] = discord.ui.TextInput(
                label=speak("Your one secret bet? (yes or no)"), default=speak("no"), max_length=8
            )
        self._yes = {*listed(YES, ENGLISH), *listed(YES, language)}
        self.add_item(self.amount)
        self.add_item(self.secret)
        self._betting = betting

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        secret = folded(str(self.secret.value)) in self._yes
        try:
            await self._betting.place(interaction, str(self.amount.value).strip(), secret=secret)
        except TableError as error:
            await refuse(interaction, error, self._betting.messages)

    async def on_error(  # type: ignore[override]  # discord.py 2.7 types it as a view's
        self, interaction: discord.Interaction[Any], error: Exception, /
    ) -> None:
        """A failed bet is answered (discord.py only logs it)."""
        await answer_failure(interaction, error, "a bet form")
