"""The two layouts of a table message, and :class:`TablePayload`, the one shape every path
that shows a table sends (answers, coalesced edits, reposts, moves, pocket tables,
tournament tables), so no call site knows which layout a server chose.

``embed`` is one embed with action rows under it. ``components`` is a Components V2
message (``IS_COMPONENTS_V2``): a container with the phase and the dealer, a text display
per seat, the news and the footer, then the same action rows. Both are drawn from the same
rendered pieces (:func:`cogs.table.render.render_table`): the V2 layout reads the embed's
title, description, fields and footer, so the table says the same in either.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import discord

from bot.tables.snapshot import TableSnapshot
from cogs.table.buttons import ButtonSpec
from cogs.table.card_art import Faces
from cogs.table.embed_limits import clip, clip_lines
from cogs.table.made_items import MadeItems
from cogs.table.render import RenderedTable, render_table
from db.models import LAYOUTS

EMBED: Final = LAYOUTS[0]
COMPONENTS: Final = LAYOUTS[1]
#: Discord's limits on a Components V2 message: components counted with nested ones, and
#: characters across its text displays.
COMPONENTS_LIMIT: Final = 40
TEXT_LIMIT: Final = 4000

View = discord.ui.View | discord.ui.LayoutView


@dataclass(frozen=True, slots=True)
class TablePayload:
    """A table message ready to send or edit in, in either layout."""

    layout: str
    #: The embed (``embed`` layout); None in a V2 message, which is components only.
    embed: discord.Embed | None
    view: View
    buttons: tuple[ButtonSpec, ...]

    def fields(self) -> dict[str, Any]:
        """Keyword arguments for any of discord.py's send and edit methods.

        ``embed=None`` in a V2 message sends ``embeds: []``, which Discord asks for when a
        message takes the flag on an edit."""
        return {"embed": self.embed, "view": self.view}


def note_fields(layout: str, text: str) -> dict[str, Any]:
    """An edit that leaves only ``text`` on a table message of ``layout`` (a V2 message
    cannot go back to content: the note is a text display)."""
    if layout == COMPONENTS:
        view = discord.ui.LayoutView(timeout=None)
        view.add_item(discord.ui.TextDisplay(clip(text, TEXT_LIMIT)))
        view.stop()
        return {"embed": None, "view": view}
    return {"content": text, "embed": None, "view": None}


def embed_fields(embed: discord.Embed, *, v2: bool) -> dict[str, Any]:
    """An edit that leaves only ``embed`` (no buttons) on a message: as its text displays in
    a container where the message is a V2 one."""
    if not v2:
        return {"embed": embed, "view": None}
    pieces = _pieces(embed, 0)
    _fit(pieces)
    view = layout_view(pieces.header, (), pieces.extras, pieces.footer, pieces.colour)
    view.stop()
    return {"embed": None, "view": view}


def embed_payload(rendered: RenderedTable, view: discord.ui.View | None = None) -> TablePayload:
    """The ``embed`` layout: the embed and its buttons (``view``: one already made of them)."""
    return TablePayload(EMBED, rendered.embed, view or rendered.view(), rendered.buttons)


@dataclass(slots=True)
class _Pieces:
    """The table's text, by part, as the V2 message shows it."""

    header: str
    seats: list[str]
    extras: list[str]
    footer: str
    colour: int | None

    def size(self) -> int:
        return sum(len(text) for text in (self.header, *self.seats, *self.extras, self.footer))


def _pieces(embed: discord.Embed, seats: int) -> _Pieces:
    fields = [f"**{field.name}**\n{field.value}" for field in embed.fields]
    header = "\n".join(part for part in (f"### {embed.title}", embed.description or "") if part)
    footer = f"-# {embed.footer.text}" if embed.footer.text else ""
    colour = embed.colour.value if embed.colour is not None else None
    return _Pieces(header, fields[:seats], fields[seats:], footer, colour)


def components_payload(
    snapshot: TableSnapshot, faces: Faces | None, language: str, made: MadeItems | None = None
) -> TablePayload:
    """The ``components`` layout of ``snapshot``, within Discord's V2 limits: past 4,000
    characters the cards show as text, then the news gives way (newest kept), then each
    seat is clipped to an equal share, as the embed degrades. ``made``: the items of the
    table's last message, given again where they show the same."""
    made = MadeItems() if made is None else made
    rendered = render_table(snapshot, faces, language)
    seats = len(snapshot.seats)  # the embed's first fields (all of them, at most)
    pieces = _pieces(rendered.embed, seats)
    if pieces.size() > TEXT_LIMIT and faces is not None:
        rendered = render_table(snapshot, None, language)
        pieces = _pieces(rendered.embed, seats)
    _fit(pieces)
    view = layout_view(
        pieces.header, pieces.seats, pieces.extras, pieces.footer, pieces.colour, made
    )
    for row in made.action_rows(rendered.buttons):
        view.add_item(row)
    view.stop()
    return TablePayload(COMPONENTS, None, view, rendered.buttons)


def _fit(pieces: _Pieces) -> None:
    """Within 4,000 characters: the news gives way (newest kept), then a long header (a game
    mode's panel) is clipped to a quarter, then each seat to an equal share."""
    while pieces.size() > TEXT_LIMIT and pieces.extras:
        pieces.extras.pop()
    if pieces.size() > TEXT_LIMIT and len(pieces.header) > TEXT_LIMIT // 4:
        pieces.header = clip_lines(pieces.header.split("\n"), TEXT_LIMIT // 4)
    if pieces.size() > TEXT_LIMIT:
        room = TEXT_LIMIT - len(pieces.header) - len(pieces.footer)
        share = room // max(1, len(pieces.seats)) - 1
        pieces.seats[:] = [clip_lines(seat.split("\n"), share) for seat in pieces.seats]


def layout_view(
    header: str,
    seats: Sequence[str],
    extras: Sequence[str],
    footer: str,
    colour: int | None,
    made: MadeItems | None = None,
) -> discord.ui.LayoutView:
    """A container: the header, a separator, a text display per seat (seats share displays
    when a full table would pass the component limit), the news, the footer (``made``:
    where its separators come from)."""
    made = MadeItems() if made is None else made
    made.new_message()
    container: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(
        accent_colour=colour
    )
    container.add_item(made.text(clip(header, TEXT_LIMIT)))
    blocks = _grouped(list(seats), COMPONENTS_LIMIT - 20 - len(extras))
    separators = 0
    for index, block in enumerate(blocks):
        if index == 0 or len(blocks) <= 8:
            container.add_item(made.separator(separators))
            separators += 1
        container.add_item(made.text(block))
    if extras:
        container.add_item(made.separator(separators))
        for extra in extras:
            container.add_item(made.text(extra))
    if footer:
        container.add_item(made.text(footer))
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(container)
    return view


def _grouped(seats: list[str], most: int) -> list[str]:
    """The seats' texts in at most ``most`` displays (neighbours joined)."""
    if len(seats) <= most:
        return seats
    size = -(-len(seats) // most)
    return ["\n\n".join(seats[i : i + size]) for i in range(0, len(seats), size)]
