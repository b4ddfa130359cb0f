"""Each table's message as its server wants it: in its language, with its card faces, in its
layout, as one :class:`~cogs.table.layouts.TablePayload`."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.i18n import ENGLISH, language_of
from bot.tables.snapshot import TableSnapshot
from cogs.table.card_art import Faces
from cogs.table.layouts import EMBED, TablePayload, components_payload, embed_payload
from cogs.table.made_items import MadeItems
from cogs.table.pocket import is_pocket_table
from cogs.table.render import render_table

#: A server's card faces (card emojis) if it shows pictures, None for text cards.
FacesFor = Callable[[int], Awaitable[Faces | None]]
#: The language a server's tables speak (a Discord locale code, ``bot.i18n.LANGUAGES``).
LanguageFor = Callable[[int], Awaitable[str]]
#: The layout a server's table messages take (``db.models.LAYOUTS``).
LayoutFor = Callable[[int], Awaitable[str]]


@dataclass(frozen=True, slots=True)
class _Made:
    """A table's last payload and what it was made of."""

    snapshot: TableSnapshot
    layout: str
    language: str
    faces: Faces | None
    payload: TablePayload

    def shows(
        self, snapshot: TableSnapshot, layout: str, language: str, faces: Faces | None
    ) -> bool:
        """Whether this payload is ``snapshot``'s in ``layout``, ``language`` and ``faces``
        (the table's state, not its version alone: a closed table's snapshot is remade)."""
        return (
            self.layout == layout
            and self.language == language
            and self.faces is faces
            and (self.snapshot is snapshot or self.snapshot == snapshot)
        )


class TableRenderer:
    """Where each server's faces, language and layout come from, and the payloads made with
    them (text cards, English and embeds until told otherwise)."""

    def __init__(self) -> None:
        self._faces_for: FacesFor | None = None
        self._language_for: LanguageFor | None = None
        self._layout_for: LayoutFor | None = None
        #: Each pocket table's language: its host's client's (a pocket table has no server).
        self._pocket_languages: dict[str, str] = {}
        #: Each table's last payload, and the discord.py items its next may reuse.
        self._made: dict[str, _Made] = {}
        self._items: dict[str, MadeItems] = {}

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
        self._made.pop(table_id, None)
        self._items.pop(table_id, None)

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

    async def payload(
        self, snapshot: TableSnapshot, layout: str, *, faces: bool = True
    ) -> TablePayload:
        """The table message for ``snapshot`` in ``layout``, made once per table state: the
        answer to a click and a coalesced edit of the same state send the same payload.

        Each new payload reuses the items of the table's last one that show the same
        (``cogs.table.made_items``): an embed's view while the buttons are the same."""
        shown = await self._faces(snapshot, faces)
        language = await self.table_language(snapshot)
        table_id = snapshot.table_id
        last = self._made.get(table_id)
        if last is not None and last.shows(snapshot, layout, language, shown):
            return last.payload
        items = self._items.get(table_id)
        if items is None:
            items = self._items[table_id] = MadeItems()
        if layout == EMBED:
            rendered = render_table(snapshot, shown, language)
            payload = embed_payload(rendered, items.view(rendered.buttons))
        else:
            payload = components_payload(snapshot, shown, language, items)
        self._made[table_id] = _Made(snapshot, layout, language, shown, payload)
        return payload
