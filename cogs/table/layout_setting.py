"""The layout a server's table messages take: the one an admin set with
``/blackjack-admin config layout`` (``db.models.LAYOUTS``), the embed until then."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from db.models import LAYOUTS, GuildSettings

log = logging.getLogger(__name__)


class TableLayouts:
    """Each server's table layout, from its settings (``settings_of``: the bot's one cache of
    them, bot.server_settings); a table takes a change at its next round."""

    def __init__(self, settings_of: Callable[[int], Awaitable[GuildSettings]]) -> None:
        self._settings_of = settings_of

    async def of(self, guild_id: int) -> str:
        """The layout of the server's table messages."""
        try:
            return (await self._settings_of(guild_id)).layout
        except Exception:  # the table must still be shown: asked again next time
            log.exception("could not read the table layout of guild %s", guild_id)
            return LAYOUTS[0]
