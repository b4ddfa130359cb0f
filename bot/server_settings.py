"""Each server's settings, read once per process and then kept: the one cache of them.

Every reader (the play gate, the table language, the card style) asks
:meth:`ServerSettings.of` each time it needs a setting, and keeps no copy of its own; the
one writer is :meth:`ServerSettings.write` (the admin's commands), which stores the change
and keeps the stored result. So an admin's change reaches every reader at once, and no
feature reaches into another to clear a copy.

The kept copy is never stale: Discord sends every interaction of a server to the one shard,
and so the one process, that owns it, so an admin's change and the members' plays of a
server meet in the same process; a process that starts, or takes a server over, reads the
settings afresh.
"""

from __future__ import annotations

from typing import Any

import db


class ServerSettings:
    """The settings of the servers this process serves, read through and written through."""

    def __init__(self, store: db.Store) -> None:
        self._store = store
        self._kept: dict[int, db.GuildSettings] = {}

    async def of(self, guild_id: int) -> db.GuildSettings:
        """The server's settings (read from the store the first time; raises its errors,
        such as ``db.StoreUnavailable``, and then asks again next time)."""
        settings = self._kept.get(guild_id)
        if settings is None:
            settings = await self._store.get_guild_settings(guild_id)
            self._kept[guild_id] = settings
        return settings

    async def write(self, guild_id: int, **changes: Any) -> db.GuildSettings:
        """Store ``changes`` (all or none: the store's refusals are raised) and keep the
        result."""
        settings = await self._store.set_guild_settings(guild_id, **changes)
        self._kept[guild_id] = settings
        return settings
