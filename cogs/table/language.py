"""The language a server's table messages speak: the one an admin set with
``/blackjack-admin config language``, or else the server's preferred locale."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord

from bot.i18n import LANGUAGES, _, joined, language_of
from db.models import GuildSettings

log = logging.getLogger(__name__)

#: The setting that follows the server's preferred locale.
SERVER: str = "server"
#: Every value of the setting: the server's locale, or a language the bot speaks.
SETTINGS: tuple[str, ...] = (SERVER, *LANGUAGES)


def language_setting(value: str) -> str:
    """``value`` if it is a table language setting (:data:`SETTINGS`), else ValueError with
    the reason for the admin: Discord offers only these, so only a client that ignores the
    offered choices sends another."""
    if value not in SETTINGS:
        raise ValueError(
            _("the table language must be one of {settings}", settings=joined(SETTINGS))
        )
    return value


class TableLanguages:
    """Each server's table language, from its settings (``settings_of``: the bot's one
    cache of them, bot.server_settings)."""

    def __init__(
        self, client: discord.Client, settings_of: Callable[[int], Awaitable[GuildSettings]]
    ) -> None:
        self._client = client
        self._settings_of = settings_of

    async def of(self, guild_id: int) -> str:
        """The language of the server's tables (a code of ``bot.i18n.LANGUAGES``)."""
        try:
            setting = (await self._settings_of(guild_id)).language
        except Exception:  # the table must still be shown: asked again next time
            log.exception("could not read the table language of guild %s", guild_id)
            setting = SERVER
        if setting in LANGUAGES:
            return setting
        guild = self._client.get_guild(guild_id)
        return language_of(guild.preferred_locale if guild is not None else None)
