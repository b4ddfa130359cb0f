"""The Round details button: the last round's full account, hand by hand and bet by bet,
answered privately to whoever presses it, while the table shows the round at a glance.

The button's whole definition is here (its action, label and style, when it shows, and
its answer); ``cogs.table.buttons`` places it and ``TableCog.press`` routes it here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import discord

from bot.i18n import _, n_, speak, speaking, tr
from bot.tables.snapshot import TablePhase, TableSnapshot
from cogs.table.embed_limits import DESCRIPTION_LIMIT, clip
from cogs.table.render_results import escape_line

#: The button's action in its custom id, its label and its style.
ACTION: Final = "details"
LABEL: Final = _("Round details")
STYLE: Final = discord.ButtonStyle.secondary
#: The answer once a new round has been dealt (the account is the last round's only).
GONE: Final = _("That round's details are gone: a new round has been dealt.")
#: Room kept under the description's limit for the line saying how many lines were left out.
_MORE_ROOM: Final = 80


def shows_details(snapshot: TableSnapshot) -> bool:
    """The button is under the table while bets are taken after a settled round."""
    return snapshot.phase is TablePhase.BETTING and bool(snapshot.last_results)


def account_for(snapshot: TableSnapshot, user_id: int) -> list[str]:
    """The account's lines in reading order: the lines of no player (the dealer's), then
    the presser's, then everyone else's in seat order."""
    lines, owners = snapshot.last_results, snapshot.last_owners
    if len(owners) != len(lines):  # whose each line is not known: as written
        return list(lines)
    mine = str(user_id)
    rank = {"": 0, mine: 1}
    order = sorted(range(len(lines)), key=lambda index: rank.get(owners[index], 2))
    return [lines[index] for index in order]


def packed(lines: Sequence[str], limit: int = DESCRIPTION_LIMIT) -> str:
    """As many whole lines as fit in ``limit`` characters, and how many were left out."""
    kept: list[str] = []
    used = 0
    for line in lines:
        cost = len(line) + (1 if kept else 0)
        if used + cost > limit - _MORE_ROOM:
            break
        kept.append(line)
        used += cost
    left = len(lines) - len(kept)
    if left:
        kept.append(tr(n_("…and {count} more line", "…and {count} more lines", left, count=left)))
    return "\n".join(kept)


def details_embed(snapshot: TableSnapshot, user_id: int) -> discord.Embed:
    """The account as an embed, in the language being spoken, within Discord's limits."""
    lines = [clip(escape_line(tr(line)), 1000) for line in account_for(snapshot, user_id)]
    title = speak("Round {round} details", round=str(max(snapshot.round_no - 1, 1)))
    return discord.Embed(title=title, description=packed(lines))


async def answer_details(
    interaction: discord.Interaction[Any], snapshot: TableSnapshot, locale: object
) -> None:
    """The account to the presser alone: one ephemeral response, nothing changed."""
    with speaking(locale):
        if not snapshot.last_results:
            await interaction.response.send_message(tr(GONE), ephemeral=True)
            return
        embed = details_embed(snapshot, interaction.user.id)
    await interaction.response.send_message(embed=embed, ephemeral=True)
