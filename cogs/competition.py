"""Seasons and achievements as players see them: ``/leaderboard season`` and ``/stats``.

``/leaderboard`` and ``/stats`` are the economy's commands (cogs/economy.py); they call
here for a season's standings, the names of seasons to pick from, and the achievements
a player holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import discord
from discord import app_commands
from discord.utils import escape_markdown, escape_mentions

from bot.discord_reply import tell
from bot.i18n import _, speak, speaking, tr
from bot.shown_names import shown_name
from bot.tables.achievements import ACHIEVEMENTS
from bot.tables.results import signed
from cogs.table.embed_limits import FIELD_VALUE_LIMIT
from db import AwardRecord, SeasonStandings, Store

#: Places a season's standings show (then the reader's own).
SEASON_PLACES: Final = 10
SEASON_COLOUR: Final = 0x2ECC71
#: Words a player may type for the season in progress.
THIS_SEASON: Final = ("current", "this", "now")


def season_embed(standings: SeasonStandings, guild_name: str, reader_id: int) -> discord.Embed:
    """A season's top places, the reader's own place, and when the season ends (or ended)."""
    season = standings.season
    title = speak("Season {season} · {server}", season=season.name, server=shown_name(guild_name))
    embed = discord.Embed(title=title, colour=SEASON_COLOUR)
    if standings.entries:
        embed.description = "\n".join(
            f"`#{entry.rank}` <@{entry.user_id}> · {tr(signed(entry.net))}"
            for entry in standings.entries[:SEASON_PLACES]
        )
    else:
        embed.description = speak("Nobody has finished a round this season yet.")
    mine = standings.entry_of(reader_id)
    if mine is not None:
        you = speak(
            "`#{rank}` of {count} · {net}",
            rank=mine.rank,
            count=len(standings.entries),
            net=signed(mine.net),
        )
    else:
        you = speak("You have not played a round in this season.")
    embed.add_field(name=speak("You"), value=you, inline=False)
    ends = int(season.ends_at.timestamp())
    if season.is_current:
        footer = speak(
            "Net chips won in the rounds settled this season. Ends <t:{ends}:R>.", ends=str(ends)
        )
    else:
        footer = speak(
            "Final standings: net chips won in the season's rounds. Ended <t:{ends}:D>.",
            ends=str(ends),
        )
    embed.add_field(name=speak("Season"), value=footer, inline=False)
    return embed


async def show_season(store: Store, interaction: discord.Interaction[Any], season: str) -> None:
    """``/leaderboard season:<name>``: that season's standings, or this season's."""
    assert interaction.guild_id is not None
    wanted = season.strip()
    name = None if wanted.lower() in THIS_SEASON else wanted
    standings = await store.competition.season_standings(interaction.guild_id, name)
    if standings is None:
        names = await store.competition.season_names(interaction.guild_id, limit=5)
        await tell(
            interaction,
            _(
                "There is no season {season} in this server. Seasons: {names}.",
                season=escape_mentions(escape_markdown(wanted)),
                names=", ".join(names),
            ),
        )
        return
    with speaking(interaction.locale):
        guild_name = interaction.guild.name if interaction.guild else speak("this server")
        embed = season_embed(standings, guild_name, interaction.user.id)
    await interaction.response.send_message(embed=embed, ephemeral=True)


async def season_choices(
    store: Store, interaction: discord.Interaction[Any], typed: str
) -> list[app_commands.Choice[str]]:
    """The seasons whose names hold what was typed: this season first, then newest first."""
    assert interaction.guild_id is not None
    names = await store.competition.season_names(interaction.guild_id, limit=1000)
    choices = []
    with speaking(interaction.locale):
        for index, name in enumerate(names):
            if typed.strip().lower() not in name.lower():
                continue
            shown = speak("{season} (this season)", season=name) if index == 0 else name
            choices.append(app_commands.Choice(name=shown, value=name))
    return choices[:25]


def add_achievements(embed: discord.Embed, held: Sequence[AwardRecord]) -> None:
    """The achievements a player holds, in the catalogue's order, as a field of ``embed``
    (in the language being spoken)."""
    keys = {award.key for award in held}
    earned = [a for a in ACHIEVEMENTS if a.key in keys]
    value = "\n".join(f"🏆 **{tr(a.name)}**: {tr(a.wording)}" for a in earned)
    if len(value) > FIELD_VALUE_LIMIT:  # many held: their names alone
        value = "\n".join(f"🏆 {tr(a.name)}" for a in earned)
    if not earned:
        value = speak("None yet. A blackjack earns the first.")
    title = speak("Achievements ({count} of {total})", count=len(earned), total=len(ACHIEVEMENTS))
    embed.add_field(name=title, value=value, inline=False)
