"""``/blackjack coach``: the player's last graded round, privately, and the teach mode switch.

The grades are the table service's (``bot.tables.coach``, worked out after each round in
the strategy worker and stored); this answers from the store alone, so it costs a read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands

from bot.discord_reply import tell
from bot.i18n import _, speaking, tr
from bot.pocket import economy_scope
from bot.tables.coach_words import round_review

if TYPE_CHECKING:
    from bot.app import BlackjackBot

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
