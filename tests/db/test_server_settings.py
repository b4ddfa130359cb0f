"""The one cache of each server's settings (bot.server_settings): read from the store once,
written through, and what every reader sees at once after an admin's change."""

from __future__ import annotations

import pytest

import db
from bot.server_settings import ServerSettings

GUILD = 900_000_000_000_000_001


async def test_a_server_s_settings_are_read_once_then_kept(store: db.Store) -> None:
    settings = ServerSettings(store)
    assert (await settings.of(GUILD)).language == "server"
    # Written behind the cache's back (no process does this: see the module), so not seen.
    await store.set_guild_settings(GUILD, language="es-ES")
    assert (await settings.of(GUILD)).language == "server"
    assert (await ServerSettings(store).of(GUILD)).language == "es-ES"  # a new process reads


async def test_a_write_goes_to_the_store_and_every_reader_sees_it(store: db.Store) -> None:
    settings = ServerSettings(store)
    await settings.of(GUILD)
    written = await settings.write(GUILD, card_style="text", min_bet=25)
    assert (written.card_style, written.min_bet) == ("text", 25)
    assert await settings.of(GUILD) == written
    assert await store.get_guild_settings(GUILD) == written


async def test_a_refused_write_changes_nothing(store: db.Store) -> None:
    settings = ServerSettings(store)
    before = await settings.of(GUILD)
    with pytest.raises((ValueError, db.SettingsCrossed)):
        await settings.write(GUILD, min_bet=500, max_bet=100)
    assert await settings.of(GUILD) == before
    assert await store.get_guild_settings(GUILD) == before
