"""A table posted as a new message: before its message is an hour old, when its server
changed layout, after a deletion, and a pocket table's answer that replaces its worn one.

A new message takes the layout its server wants now: this is the one way a table changes
layout, since a V2 message cannot become an embed again.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.clock import Clock
from bot.tables.errors import TableError
from bot.tables.snapshot import TablePhase, TableSnapshot
from cogs.table.layouts import COMPONENTS, EMBED, note_fields
from cogs.table.message_state import TableMessage
from cogs.table.pocket import PocketAnchors
from cogs.table.renderer import TableRenderer
from cogs.table.restart_text import jump_link, moved_text

log = logging.getLogger(__name__)

#: The service's ``attach_message(table_id, message_id)``: where a re-posted table now is.
Attach = Callable[[str, int], Awaitable[None]]


class Reposts:
    """Posting a table afresh, and telling the service where it went."""

    def __init__(self, client: discord.Client, clock: Clock, renderer: TableRenderer) -> None:
        self._client = client
        self._clock = clock
        self._renderer = renderer
        self.attach: Attach | None = None

    async def layout_of(self, table: TableMessage) -> str | None:
        """The layout of a message an earlier run posted (None if it cannot be read: the
        edit that follows meets the same error, and is answered as such errors are)."""
        if table.pocket or table.message_id is None:
            return None  # a pocket table is an embed; its message is read through no channel
        channel = self._client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        try:
            message = await channel.fetch_message(table.message_id)
        except discord.HTTPException:
            return None
        return COMPONENTS if message.flags.components_v2 else EMBED

    async def _posted(self, table: TableMessage, message_id: int, layout: str) -> None:
        table.message_id, table.posted_at, table.layout = message_id, self._clock.now(), layout
        if self.attach is not None:
            with contextlib.suppress(TableError):  # closed meanwhile: its last edit follows
                await self.attach(table.table_id, message_id)

    async def move(self, table: TableMessage, snapshot: TableSnapshot) -> None:
        """Post the table afresh (at a round boundary past its age, or when its server
        changed layout, or at once on a 30046), remember the new message durably, and point
        the old one to it; if the old one refuses that edit too, a click on it is answered
        with the link (``TableMessages.moved_from``)."""
        old, old_layout = table.message_id, table.layout
        assert old is not None
        channel = self._client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        layout = await self._renderer.layout(snapshot)
        payload = await self._renderer.payload(snapshot, layout, faces=False)
        new = await channel.send(**payload.fields())
        table.shown = max(table.shown, snapshot.version)
        log.info("table %s moved from message %s to %s", table.table_id, old, new.id)
        await self._posted(table, new.id, layout)
        link = jump_link(table.guild_id, table.channel_id, new.id)
        text = moved_text(link).in_language(await self._renderer.language(table.guild_id))
        try:
            await channel.get_partial_message(old).edit(**note_fields(old_layout or layout, text))
        except discord.HTTPException as error:
            log.info("table %s: its old message keeps its buttons (%s)", table.table_id, error)

    async def post_again(self, table: TableMessage) -> bool:
        """Someone deleted the message of an open table: post the table again, below.

        The players' bets and hands stay as they are (a bet just taken is not refunded
        by a table closing under it). False if the table is closing or cannot be posted.
        """
        snapshot = table.latest
        if (
            snapshot is None
            or snapshot.phase is TablePhase.CLOSED
            or self.attach is None
            or table.pocket  # no channel message may be posted
        ):
            return False
        layout = await self._renderer.layout(snapshot)
        payload = await self._renderer.payload(snapshot, layout, faces=False)
        channel = self._client.get_partial_messageable(table.channel_id)
        try:
            message = await channel.send(**payload.fields())
        except discord.HTTPException:
            log.info("could not post table %s again", table.table_id, exc_info=True)
            return False
        log.info("table %s's message was deleted: posted it again", table.table_id)
        table.shown = table.sent = max(table.shown, snapshot.version)
        await self._posted(table, message.id, layout)
        return True

    async def move_pocket(
        self,
        table: TableMessage,
        snapshot: TableSnapshot,
        interaction: discord.Interaction[Any],
        anchors: PocketAnchors,
    ) -> None:
        """A pocket table's message took its last edit (30046, an hour old): the click
        answers with the table as a new message, which its token owns from now on (a click
        on the old one is told where the table went)."""
        layout = await self._renderer.layout(snapshot)
        payload = await self._renderer.payload(snapshot, layout)
        followup_id = None
        if interaction.response.is_done():  # deferred: the table comes as a followup
            followup = await interaction.followup.send(**payload.fields(), wait=True)
            new_id = followup_id = followup.id
        else:
            await interaction.response.send_message(**payload.fields())
            new_id = (await interaction.original_response()).id
        log.info(
            "pocket table %s moved from message %s to %s", table.table_id, table.message_id, new_id
        )
        table.shown = table.sent = max(table.shown, snapshot.version)
        anchors.anchor(snapshot.table_id, interaction, followup_id)
        await self._posted(table, new_id, layout)
