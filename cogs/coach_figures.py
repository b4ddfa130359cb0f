"""The coach's figures as players see them: in ``/stats`` and on ``/leaderboard board:sharpest``.

``/stats`` and ``/leaderboard`` are the economy's commands (cogs/economy.py); they call
here. The figures are the store's (``Store.coach``), from the decisions graded after each
round: made, the best, and the expected chips given away (each cost times its stake).
"""

from __future__ import annotations

from typing import Any, Final

import discord
from discord import app_commands

from bot.i18n import Figure, _, speak, speaking, tr
from bot.shown_names import shown_name
from bot.user_install import POCKET_SCOPE, economy_scope
from cogs.table.render import chips
from db import CoachFigures, SharpEntry, Store
from db.models import to_micros

#: Decisions a player needs to be listed on the sharpest board.
SHARPEST_MINIMUM: Final = 10
#: Places the sharpest board shows.
SHARPEST_PLACES: Final = 10
SHARPEST_COLOUR: Final = 0x3498DB
#: The boards ``/leaderboard`` shows: chips (the default) or the sharpest players.
BOARDS: Final = [
    app_commands.Choice(name="chips", value="chips"),
    app_commands.Choice(name="sharpest", value="sharpest"),
]


def _given(amount: float) -> str:
    return tr(_("{chips} chips", chips=Figure(amount, "#,##0.00")))


def figure_rows(lifetime: CoachFigures, season: CoachFigures | None) -> list[tuple[str, str]]:
    """``/stats`` rows of the coach's figures, all time and this season (none before a
    graded decision; no season outside servers)."""
    if not lifetime.decisions:
        return []
    rows = [
        (speak("Decisions graded"), chips(lifetime.decisions)),
        (speak("Best decisions"), chips(lifetime.best)),
        (speak("Chips given away (expected)"), _given(lifetime.given_away)),
    ]
    if season is not None:
        rows += [
            (speak("Decisions this season"), chips(season.decisions)),
            (speak("Best this season"), chips(season.best)),
            (speak("Given away this season"), _given(season.given_away)),
        ]
    return rows


async def add_coach_figures(
    store: Store, embed: discord.Embed, scope: int, user_id: int, locale: object
) -> None:
    """The player's coach figures on their ``/stats`` embed; apart from them, their answers
    to practice tables' count quizzes."""
    quiz = await store.coach.quiz_figures(scope, user_id)
    if quiz.answered:
        with speaking(locale):
            embed.add_field(name=speak("Count quizzes"), value=chips(quiz.answered), inline=True)
            embed.add_field(name=speak("Count quizzes right"), value=chips(quiz.right), inline=True)
    lifetime = await store.coach.figures(scope, user_id)
    if not lifetime.decisions:
        return
    this_season = None
    if scope != POCKET_SCOPE:  # seasons belong to a server
        season = await store.competition.current_season(scope)
        this_season = await store.coach.figures(
            scope, user_id, to_micros(season.starts_at), to_micros(season.ends_at)
        )
    with speaking(locale):
        for label, value in figure_rows(lifetime, this_season):
            embed.add_field(name=label, value=value, inline=True)


def sharpest_embed(entries: list[SharpEntry], guild_name: str) -> discord.Embed:
    """The players who give away the least per 100 decisions."""
    title = speak("Sharpest players · {server}", server=shown_name(guild_name))
    embed = discord.Embed(title=title, colour=SHARPEST_COLOUR)
    if entries:
        embed.description = "\n".join(
            speak(
                "`#{rank}` <@{user}> · {given} given away per 100 decisions ({count} decisions)",
                rank=str(entry.rank),
                user=str(entry.user_id),
                given=_given(entry.per_100),
                count=entry.decisions,
            )
            for entry in entries
        )
    else:
        embed.description = speak(
            "Nobody has {count} graded decisions here yet: play, and the coach grades each one.",
            count=SHARPEST_MINIMUM,
        )
    return embed


async def show_sharpest(store: Store, interaction: discord.Interaction[Any]) -> None:
    """The sharpest board, privately."""
    scope = economy_scope(interaction)
    entries = await store.coach.sharpest(scope, SHARPEST_MINIMUM, SHARPEST_PLACES)
    with speaking(interaction.locale):
        name = interaction.guild.name if interaction.guild else speak("this server")
        embed = sharpest_embed(entries, name)
    await interaction.response.send_message(embed=embed, ephemeral=True)
