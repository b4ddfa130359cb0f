"""The layout a server's table messages take: the one an admin set with
``/blackjack-admin config layout`` (``db.models.LAYOUTS``), the embed until then."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from db.models import LAYOUTS, GuildSettings

log = logging.getLogger(__name__)


class TableLayouts:
    """Each server's table layout, its setting read once and then kept (an admin's change
    is told by :meth:`changed`)."""

    def __init__(self, settings_of: Callable[[int], Awaitable[GuildSettings]]) -> None:
        self._settings_of = settings_of
        self._chosen: dict[int, str] = {}

    def changed(self, guild_id: int, layout: str) -> None:
        """An admin set the server's table layout: tables take it at their next round."""
        self._chosen[guild_id] = layout

    async def of(self, guild_id: int) -> str:
        """The layout of the server's table messages."""
        layout = self._chosen.get(guild_id)
        if layout is None:
            try:
                layout = (await self._settings_of(guild_id)).layout
            except Exception:  # the table must still be shown: asked again next time
                log.exception("could not read the table layout of guild %s", guild_id)
                return LAYOUTS[0]
            self._chosen[guild_id] = layout
        return layout
