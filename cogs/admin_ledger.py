"""``/blackjack-admin ledger``: a member's ledger, newest first, paged with Older / Newer buttons.

So a server admin can answer "where did my chips go?" without database access.
The page to show is in each button's custom id (``bjl:{user}:{older|newer}:{row id}``),
so paging works after a restart; every click checks Manage Server again.
"""

from __future__ import annotations

import re
from typing import Any, Final

import discord

from bot.discord_reply import tell
from bot.failures import failures_answered
from bot.i18n import Text, _, speak, speaking, tr
from bot.shown_names import shown_name
from bot.tables.results import signed
from cogs.table.render import chips
from db import Store
from db.models import LedgerEntry, LedgerPage

PER_PAGE: Final = 10
#: How much of an admin's reason a ledger line shows.
REASON_LIMIT: Final = 100
LEDGER_COLOUR: Final = 0x95A5A6
NOT_ALLOWED: Final = _("Only members with the Manage Server permission can use /blackjack-admin.")
#: How each kind of row reads.
KIND_NAMES: Final[dict[str, Text]] = {
    "bet": _("bet"),
    "double": _("double"),
    "split": _("split"),
    "insurance": _("insurance"),
    "side_bet": _("side bets"),
    "payout": _("payout"),
    "side_payout": _("side bets won"),
    "refund": _("refund"),
    "grant": _("starting chips"),
    "daily": _("daily"),
    "admin": _("admin"),
    "cash_in": _("cash-in from UnbelievaBoat"),
    "cash_out": _("cash-out to UnbelievaBoat"),
    "cash_return": _("cash-out refused, chips returned"),
}


def entry_line(entry: LedgerEntry) -> str:
    """``#id`` when · what · amount → balance, with the round or the admin and reason."""
    what = tr(KIND_NAMES.get(entry.kind, entry.kind))
    parts = [
        f"`#{entry.entry_id}` <t:{int(entry.created_at.timestamp())}:f>",
        f"{what} **{tr(signed(entry.delta))}** → {chips(entry.balance_after)}",
    ]
    if entry.round_id is not None:
        parts.append(speak("round {round}", round=str(entry.round_id)))
    if entry.actor_id is not None:
        parts.append(speak("by {admin}", admin=f"<@{entry.actor_id}>"))
    if entry.reason:
        parts.append(f"“{shown_name(entry.reason, REASON_LIMIT)}”")
    return " · ".join(parts)


def ledger_title(member_name: str) -> Text:
    """The embed's title, naming the member harmlessly."""
    return _("Ledger · {member}", member=shown_name(member_name))


def ledger_embed(page: LedgerPage, title: str) -> discord.Embed:
    """One page of a member's ledger."""
    embed = discord.Embed(title=title, colour=LEDGER_COLOUR)
    if page.entries:
        embed.description = "\n".join(entry_line(e) for e in page.entries)
    else:
        embed.description = speak("No ledger entries: this member has never had chips here.")
    embed.set_footer(text=speak("Newest first · every change of a balance is one row"))
    return embed


class LedgerButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"bjl:(?P<user>[0-9]{1,20}):(?P<direction>older|newer):(?P<anchor>[0-9]{1,20})",
):
    """Older / Newer: the page just past the anchor row, for the member in the custom id."""

    def __init__(self, user_id: int, direction: str, anchor: int, *, disabled: bool) -> None:
        super().__init__(
            discord.ui.Button(
                label=speak("◀ Newer") if direction == "newer" else speak("Older ▶"),
                custom_id=f"bjl:{user_id}:{direction}:{anchor}",
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
            )
        )
        self.user_id, self.direction, self.anchor = user_id, direction, anchor

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> LedgerButton:
        """Rebuild from a click."""
        return cls(int(match["user"]), match["direction"], int(match["anchor"]), disabled=False)

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """The bot's gate (not while stopping), then Manage Server, checked at every click."""
        if not await interaction.client.admit(interaction):
            return False
        if interaction.guild_id is not None and interaction.permissions.manage_guild:
            return True
        interaction.client.metrics.refused(interaction)
        await tell(interaction, NOT_ALLOWED)
        return False

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Edit the message to the next page."""
        async with failures_answered(interaction, "a click on the ledger"):
            older = self.direction == "older"
            shown = interaction.message.embeds if interaction.message is not None else []
            # The bot sees no member list (no members intent): keep the title page one had.
            title = (shown[0].title if shown else None) or _(
                "Ledger · member {member}", member=str(self.user_id)
            )
            embed, view = await ledger_page(
                interaction,
                self.user_id,
                title,
                before_id=self.anchor if older else None,
                after_id=None if older else self.anchor,
            )
            await interaction.response.edit_message(embed=embed, view=view)


def page_view(user_id: int, page: LedgerPage) -> discord.ui.View:
    """Newer and Older, each disabled when there is nothing that way."""
    view = discord.ui.View(timeout=None)
    newest = page.entries[0].entry_id if page.entries else 0
    oldest = page.entries[-1].entry_id if page.entries else 0
    view.add_item(LedgerButton(user_id, "newer", newest, disabled=not page.has_newer))
    view.add_item(LedgerButton(user_id, "older", oldest, disabled=not page.has_older))
    return view


async def ledger_page(
    interaction: discord.Interaction[Any],
    user_id: int,
    title: str,
    *,
    before_id: int | None = None,
    after_id: int | None = None,
) -> tuple[discord.Embed, discord.ui.View]:
    """The embed and buttons for a page of ``user_id``'s ledger in the interaction's guild."""
    store: Store = interaction.client.store
    assert interaction.guild_id is not None
    page = await store.reports.ledger_page(
        interaction.guild_id,
        user_id,
        per_page=PER_PAGE,
        before_id=before_id,
        after_id=after_id,
    )
    with speaking(interaction.locale):
        return ledger_embed(page, tr(title)), page_view(user_id, page)
