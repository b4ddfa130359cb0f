"""Each table's message as its server wants it: in its language, with its card faces, in its
layout, as one :class:`~cogs.table.layouts.TablePayload`."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import discord

from bot.i18n import ENGLISH, language_of
from bot.tables.snapshot import TableSnapshot
from cogs.table.buttons import ButtonSpec
from cogs.table.card_art import Faces
from cogs.table.layouts import EMBED, TablePayload, components_payload, embed_payload
from cogs.table.pocket import is_pocket_table
from cogs.table.render import RenderedTable, render_table

#: A server's card faces (card emojis) if it shows pictures, None for text cards.
FacesFor = Callable[[int], Awaitable[Faces | None]]
#: The language a server's tables speak (a Discord locale code, ``bot.i18n.LANGUAGES``).
LanguageFor = Callable[[int], Awaitable[str]]
#: The layout a server's table messages take (``db.models.LAYOUTS``).
LayoutFor = Callable[[int], Awaitable[str]]


class TableRenderer:
    """Where each server's faces, language and layout come from, and the payloads made with
    them (text cards, English and embeds until told otherwise)."""

    def __init__(self) -> None:
        self._faces_for: FacesFor | None = None
        self._language_for: LanguageFor | None = None
        self._layout_for: LayoutFor | None = None
        #: Each pocket table's language: its host's client's (a pocket table has no server).
        self._pocket_languages: dict[str, str] = {}
        #: The last embed-layout view sent per table, and the buttons it was made from.
        self._views: dict[str, tuple[tuple[ButtonSpec, ...], discord.ui.View]] = {}

    def use_faces(self, faces_for: FacesFor) -> None:
        """Where each server's card faces come from."""
        self._faces_for = faces_for

    def use_language(self, language_for: LanguageFor) -> None:
        """Where each server's table language comes from."""
        self._language_for = language_for

    def use_layout(self, layout_for: LayoutFor) -> None:
        """Where each server's table layout comes from."""
        self._layout_for = layout_for

    async def language(self, guild_id: int) -> str:
        """The language of the server's tables."""
        return ENGLISH if self._language_for is None else await self._language_for(guild_id)

    async def layout(self, snapshot: TableSnapshot) -> str:
        """The layout ``snapshot``'s server wants (a pocket table: the embed; it has none)."""
        if self._layout_for is None or is_pocket_table(snapshot):
            return EMBED
        return await self._layout_for(snapshot.guild_id)

    def opened_pocket(self, table_id: str, host_locale: object) -> None:
        """A pocket table opened by a host whose client speaks ``host_locale``."""
        self._pocket_languages[table_id] = language_of(host_locale)

    def forget(self, table_id: str) -> None:
        """The table closed: drop what was kept for it."""
        self._pocket_languages.pop(table_id, None)
        self._views.pop(table_id, None)

    async def table_language(self, snapshot: TableSnapshot) -> str:
        """The language ``snapshot``'s message speaks: its server's (a pocket table: its
        host's)."""
        language = (
            self._pocket_languages.get(snapshot.table_id) if is_pocket_table(snapshot) else None
        )
        return language if language is not None else await self.language(snapshot.guild_id)

    async def _faces(self, snapshot: TableSnapshot, faces: bool) -> Faces | None:
        if faces and self._faces_for is not None:
            return await self._faces_for(snapshot.guild_id)
        return None

    async def render(self, snapshot: TableSnapshot, *, faces: bool = True) -> RenderedTable:
        """The embed-layout table for ``snapshot`` in its language, cards as its server
        shows them (as text without ``faces``)."""
        shown = await self._faces(snapshot, faces)
        return render_table(snapshot, shown, await self.table_language(snapshot))

    async def payload(
        self, snapshot: TableSnapshot, layout: str, *, faces: bool = True
    ) -> TablePayload:
        """The table message for ``snapshot`` in ``layout``.

        Within a phase the buttons rarely change: an embed's view is then sent again as it
        was (a V2 view carries the text too, and is made afresh)."""
        if layout != EMBED:
            shown = await self._faces(snapshot, faces)
            return components_payload(snapshot, shown, await self.table_language(snapshot))
        rendered = await self.render(snapshot, faces=faces)
        known = self._views.get(snapshot.table_id)
        if known is not None and known[0] == rendered.buttons:
            return embed_payload(rendered, known[1])
        payload = embed_payload(rendered)
        assert isinstance(payload.view, discord.ui.View)
        self._views[snapshot.table_id] = (rendered.buttons, payload.view)
        return payload
