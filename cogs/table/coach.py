"""``/blackjack coach``: the player's last graded round, privately, the teach mode switch,
and teach mode's notes.

The grades are the table service's (``bot.tables.coach``, worked out after each round in
the strategy worker and stored); the command answers from the store alone, so it costs a
read. Teach mode's note goes by direct message: it is sent once the round is graded, in
the background, when no interaction of the player's may be open (a round ended by the
timers, or graded after a restart), and a follow-up needs one's token; a DM needs none.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands

from bot.coach_grading import GradedDecision
from bot.discord_reply import tell
from bot.i18n import _, speaking, tr
from bot.tables.coach import TEACH_OVER, record_of
from bot.tables.coach_words import round_review, teach_note
from bot.user_install import economy_scope
from cogs.table.language import TableLanguages

if TYPE_CHECKING:
    from bot.app import BlackjackBot

log = logging.getLogger(__name__)

#: The coach's modes: teach sends a private note after each round on a costly decision.
COACH_MODES: Final = [
    app_commands.Choice(name="teach", value="teach"),
    app_commands.Choice(name="quiet", value="quiet"),
]
TEACH_ON: Final = _(
    "Teach mode is on: after each round, a private message explains each decision of "
    "yours that cost more than 2% of the bet."
)
TEACH_OFF: Final = _("Teach mode is off: the coach answers when you ask.")
#: The most characters of a message's content (Discord's limit).
MESSAGE_LIMIT: Final = 2000


async def coach_answer(
    bot: BlackjackBot, interaction: discord.Interaction[Any], mode: str | None
) -> None:
    """The player's last graded round (and, with ``mode``, the switch of teach mode)."""
    scope, user_id = economy_scope(interaction), interaction.user.id
    note = None
    if mode is not None:
        teach = mode == "teach"
        await bot.store.coach.set_teaching(scope, user_id, teach)
        note = TEACH_ON if teach else TEACH_OFF
    review = round_review(await bot.store.coach.last_round(scope, user_id))
    with speaking(interaction.locale):
        text = tr(review) if note is None else f"{tr(note)}\n\n{tr(review)}"
    await tell(interaction, fitted(text))


def fitted(text: str) -> str:
    """``text`` cut at a line so it fits one message."""
    if len(text) <= MESSAGE_LIMIT:
        return text
    kept = text[: MESSAGE_LIMIT - 2].rsplit("\n", 1)[0]
    return f"{kept}\n…"


class TeachNotes:
    """After each graded round: a direct message to each player in teach mode about each
    decision of theirs that cost more than ``TEACH_OVER`` of the bet."""

    def __init__(self, bot: BlackjackBot, languages: TableLanguages) -> None:
        self._bot = bot
        self._languages = languages

    async def graded(self, guild_id: int, decisions: Sequence[GradedDecision]) -> None:
        """The coach's listener: the notes of a round just graded."""
        costly: dict[int, list[GradedDecision]] = {}
        for decision in decisions:
            if decision.cost > TEACH_OVER:
                costly.setdefault(decision.user_id, []).append(decision)
        if not costly:
            return
        taught = await self._bot.store.coach.teaching(guild_id, list(costly))
        if not taught:
            return
        language = await self._languages.of(guild_id)
        for user_id in sorted(taught):
            note = teach_note([record_of(decision) for decision in costly[user_id]])
            with speaking(language):
                text = fitted(tr(note))
            try:
                channel = await self._bot.create_dm(discord.Object(id=user_id))
                await channel.send(text)
            except discord.HTTPException as error:  # DMs closed, or the user unknown
                log.info("no teach note for %s: %s", user_id, error)
