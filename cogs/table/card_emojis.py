"""The card pictures as this application's own emojis: uploaded once, shared by every process.

At start-up the bot lists its application emojis and uploads only the cards missing
(never a second copy: Discord refuses a name already taken, and the list is read again),
one at a time so Discord's rate limits (which discord.py waits out) are respected. Until
that is done, or if it fails, tables deal text cards; a failure is logged once and the
upload is tried again at the next start. Each server chooses pictures or text
(``/blackjack-admin config cards``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Final

import aiohttp
import discord

from cogs.table.card_art import PREFIX, Faces, card_images, markup, wanted_names
from db.models import CARD_STYLES, GuildSettings

log = logging.getLogger(__name__)

#: Discord's answer to a create whose name is taken (400, Invalid Form Body).
INVALID_FORM_BODY: Final = 50035
#: The style that asks for text cards.
TEXT: Final = CARD_STYLES[1]
#: How long a resume waits for the card emojis: listing them is one request when nothing
#: needs uploading; a longer upload leaves those tables in text until their next edit.
SETTLE_WAIT_S: Final = 3.0

SettingsOf = Callable[[int], Awaitable[GuildSettings]]


class CardsMissing(Exception):
    """Some card emojis could not be found or made."""


async def upload_missing(client: discord.Client) -> tuple[dict[str, str], int]:
    """Every card's emoji markup by code, and how many this call uploaded.

    A name taken meanwhile (another process uploading the same card) is not an error:
    the list is read again and that emoji used. An old picture of a card (a name with
    another hash) is deleted once its replacement exists, so redraws never pile up
    towards the 2,000-emoji cap.
    """
    wanted = wanted_names()
    images = card_images()
    listed = {emoji.name: emoji for emoji in await client.fetch_application_emojis()}
    uploaded = 0
    for name, code in wanted.items():
        if name in listed:
            continue
        try:
            listed[name] = await client.create_application_emoji(name=name, image=images[code])
        except discord.HTTPException as error:
            if error.status != 400 or error.code != INVALID_FORM_BODY:
                raise
            listed = {emoji.name: emoji for emoji in await client.fetch_application_emojis()}
            if name not in listed:
                raise  # refused for another reason than a name already taken
        else:
            uploaded += 1
    missing = sorted(name for name in wanted if name not in listed)
    if missing:
        raise CardsMissing(f"no emoji for {', '.join(missing)}")
    for name, emoji in listed.items():
        if is_old_card(name, wanted):
            await emoji.delete()
    faces = {code: markup(name, listed[name].id) for name, code in wanted.items()}
    return faces, uploaded


def is_old_card(name: str, wanted: dict[str, str]) -> bool:
    """An emoji of ours for a card whose picture has been redrawn since."""
    if not name.startswith(PREFIX) or name in wanted:
        return False
    code = name[len(PREFIX) :].rpartition("_")[0]
    return code in wanted.values()


class CardEmojis:
    """The faces map once uploaded, and each server's choice of pictures or text."""

    def __init__(self, *, enabled: bool) -> None:
        #: False: never upload, always text (``CARD_PICTURES=off``).
        self.enabled = enabled
        #: Card code to markup; None while uploading, after a failure, or when disabled.
        self.faces: dict[str, str] | None = None
        #: How many emojis this process uploaded.
        self.uploaded = 0
        #: Set when the start-up upload has finished, whatever its outcome.
        self.ready = asyncio.Event()
        self._settings_of: SettingsOf | None = None
        self._task: asyncio.Task[None] | None = None

    def start(self, client: discord.Client, settings_of: SettingsOf) -> None:
        """Upload in the background (tables deal text cards meanwhile)."""
        self._settings_of = settings_of
        if not self.enabled:
            self.ready.set()
            return
        if self._task is None:
            self._task = asyncio.create_task(self.sync(client), name="card emojis")

    async def sync(self, client: discord.Client) -> None:
        """List, upload what is missing, and keep the map; on failure log once and go on."""
        try:
            self.faces, self.uploaded = await upload_missing(client)
            log.info("card emojis ready (%d uploaded by this process)", self.uploaded)
        except (discord.DiscordException, aiohttp.ClientError, CardsMissing, OSError) as error:
            log.warning(
                "card pictures unavailable, dealing text cards until the next start: %s", error
            )
        finally:
            self.ready.set()

    async def settled(self, limit: float = SETTLE_WAIT_S) -> None:
        """Wait (at most ``limit`` s) for the start-up list or upload, so that tables shown
        now, such as those resumed after a restart, come back with their pictures."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.ready.wait(), limit)

    async def stop(self) -> None:
        """Cancel an upload still running (a graceful stop)."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def faces_for(self, guild_id: int) -> Faces | None:
        """The faces map for a server that wants pictures; None for text cards."""
        if self.faces is None:
            return None
        if self._settings_of is None:
            return self.faces
        try:
            style = (await self._settings_of(guild_id)).card_style
        except Exception:  # the table must still be shown: in text, asked again next time
            log.exception("could not read the card style of guild %s", guild_id)
            return None
        return self.faces if style != TEXT else None
