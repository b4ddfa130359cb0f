"""Keeping each table's message current: coalesced edits, a deleted table posted again, and
closing a table the bot can no longer show.

The table service calls :meth:`TableMessages.publish` after every change. A click answers with its
own type-7 response, so while a click is being answered the table is *held* and no channel edit
starts; any newer snapshot is edited in once the hold ends. At most one edit is in flight per
table, it always renders the newest snapshot, and a version already shown is never sent again.

A click never waits for an edit in flight (a rate-limited edit could outlast the 3 s answer
window). When two answers, or an answer and an edit, are in flight at once, Discord may apply them
in either order, and an answer sent after a newer table went out puts an older table back: the
message is then *uncertain* and the newest snapshot is sent once more. Answers whose requests do
not overlap, in version order, need no extra edit. Discord caps edits of messages older than an
hour (30046): see ``Reposts.move``.

A pocket table (a DM, a group DM, a server without the bot) has another upkeep: its message is an
interaction's answer, edited only through interaction tokens (``PocketAnchors``): no channel edit,
no message posted again or moved.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import discord

from bot.clock import Clock, SystemClock
from bot.config import TABLE_MESSAGE_MAX_AGE_S
from bot.i18n import _
from bot.tables.snapshot import TablePhase, TableSnapshot
from cogs.table import discord_codes as codes
from cogs.table.layouts import TablePayload
from cogs.table.message_state import TableMessage
from cogs.table.notices import tell_host
from cogs.table.pocket import TIMED_OUT_REASON, PocketAnchors, is_pocket_table
from cogs.table.renderer import TableRenderer
from cogs.table.reposts import Attach, Reposts
from cogs.table.response_window import overloaded
from cogs.table.restart_text import jump_link, moved_text

log = logging.getLogger(__name__)

Close = Callable[[str, str], Awaitable[None]]


class TableMessages:
    """Where each table's message is, and the edits that keep it up to date."""

    def __init__(
        self,
        client: discord.Client,
        *,
        clock: Clock | None = None,
        max_age_s: float = TABLE_MESSAGE_MAX_AGE_S,
    ) -> None:
        self._client = client
        self._clock = clock or SystemClock()
        self._max_age_s = max_age_s
        self._tables: dict[str, TableMessage] = {}
        self._close: Close | None = None
        #: Each table's faces, language and layout, and its payloads.
        self.renderer = TableRenderer()
        #: Posting a table as a new message.
        self.reposts = Reposts(client, self._clock, self.renderer)
        #: The interaction tokens that keep the pocket tables' messages current.
        self.pocket = PocketAnchors(self._clock)

    def bind(self, close: Close, attach: Attach | None = None) -> None:
        """The service's ``close(table_id, reason)``, called when a message is lost, and its
        ``attach_message``, called when the table gets a new message (a deleted one posted
        again, or a fresh one before the old is an hour old)."""
        self._close = close
        self.reposts.attach = attach

    def _entry(self, snapshot: TableSnapshot) -> TableMessage:
        table = self._tables.get(snapshot.table_id)
        if table is None:
            table = self._tables[snapshot.table_id] = TableMessage(
                snapshot.channel_id,
                snapshot.host_id,
                snapshot.guild_id,
                table_id=snapshot.table_id,
                pocket=is_pocket_table(snapshot),
            )
        return table

    async def payload(self, snapshot: TableSnapshot, *, faces: bool = True) -> TablePayload:
        """The table message for ``snapshot`` in the layout of the message it goes on (for a
        table with no message yet: the layout its server wants)."""
        table = self._tables.get(snapshot.table_id)
        if table is None or table.message_id is None:
            layout = await self.renderer.layout(snapshot)
            if table is not None:
                table.layout = layout
            return await self.renderer.payload(snapshot, layout, faces=faces)
        if table.layout is None:  # a resumed table's message: as an earlier run posted it
            found = await self.reposts.layout_of(table)
            table.layout = found or await self.renderer.layout(snapshot)
        return await self.renderer.payload(snapshot, table.layout, faces=faces)

    async def publish(self, snapshot: TableSnapshot) -> None:
        """The service's publish callback: remember the newest snapshot and schedule an edit."""
        table = self._entry(snapshot)
        if table.latest is None or snapshot.version > table.latest.version:
            table.latest = snapshot
        self._kick(snapshot.table_id, table)

    def answered_with_table(
        self, snapshot: TableSnapshot, interaction: discord.Interaction[Any]
    ) -> None:
        """``interaction``'s original response is the table message (it posted it, or it
        was a click on it): a pocket table is edited through its token from now on."""
        if is_pocket_table(snapshot):
            self.pocket.anchor(snapshot.table_id, interaction)

    def attach(self, snapshot: TableSnapshot, message_id: int, layout: str) -> None:
        """The table message was posted showing ``snapshot``, in ``layout``."""
        table = self._entry(snapshot)
        table.message_id, table.posted_at = message_id, self._clock.now()
        table.layout = layout
        self.shown(snapshot)
        # A change published before the message existed (a join right after /blackjack start).
        self._kick(snapshot.table_id, table)

    def adopt(self, snapshot: TableSnapshot, message_id: int, posted_at: float | None) -> None:
        """A resumed table: its message (posted by an earlier run) is edited to ``snapshot``."""
        table = self._entry(snapshot)
        table.message_id, table.posted_at = message_id, posted_at
        if table.latest is None or snapshot.version > table.latest.version:
            table.latest = snapshot
        self._kick(snapshot.table_id, table)

    def shown(self, snapshot: TableSnapshot) -> None:
        """A click's response put ``snapshot`` on the message: never send it (or older) again."""
        table = self._tables.get(snapshot.table_id)
        if table is None:
            return
        if not table.uncertain:
            table.shown = max(table.shown, snapshot.version)
        if snapshot.version >= table.sent:
            table.between_rounds = snapshot.phase is TablePhase.BETTING
        if table.latest is None or snapshot.version > table.latest.version:
            table.latest = snapshot

    def timer_may_act(self, table_id: str) -> bool:
        """The table service's timer gate: a pocket table's timer acts only while its anchor's
        token can show what it did."""
        table = self._tables.get(table_id)
        return table is None or not table.pocket or self.pocket.valid(table_id)

    async def end_expired(self, table_id: str) -> TableSnapshot | None:
        """A pocket table whose anchor expired ends now, its round in progress refunded: the
        closed table, for the click or command that found it so to answer with; None if the
        table is not one such."""
        if self._close is None or not self.pocket.expired(table_id):
            return None
        log.info("closing pocket table %s: its last interaction token expired", table_id)
        await self._close(table_id, TIMED_OUT_REASON)
        table = self._tables.get(table_id)
        return None if table is None else table.latest

    def shown_version(self, table_id: str) -> int | None:
        """The newest version the table message shows (None once the table is forgotten)."""
        table = self._tables.get(table_id)
        return None if table is None else table.shown

    def overloaded(self, table_id: str) -> bool:
        """Answer "busy" now: too many interactions wait for this table."""
        table = self._tables.get(table_id)
        return overloaded(0 if table is None else table.holds)

    def moved_from(self, table_id: str, message_id: int | None) -> str | None:
        """For a click on an old message of the table: where the table is now."""
        table = self._tables.get(table_id)
        if table is None or table.message_id is None or message_id in (None, table.message_id):
            return None
        return moved_text(jump_link(table.guild_id, table.channel_id, table.message_id))

    async def move_now(self, table_id: str, snapshot: TableSnapshot) -> str | None:
        """Discord refused an update of the old message (30046): post the table afresh.

        Where the table is now, or None if no new message could be posted.
        """
        table = self._tables.get(table_id)
        if table is None or table.message_id is None:
            return None
        old = table.message_id
        await self.reposts.move(table, snapshot)
        return self.moved_from(table_id, old)

    def pocket_worn(self, table_id: str) -> TableSnapshot | None:
        """A pocket table whose message is ``max_age_s`` old (Discord takes only a few more
        edits of a message past an hour): the newest snapshot, for the next click to answer
        with as a new message (``move_pocket``); None otherwise."""
        table = self._tables.get(table_id)
        if table is None or not table.pocket or table.posted_at is None:
            return None
        if self._clock.now() - table.posted_at < self._max_age_s:
            return None
        return table.latest

    async def move_pocket(
        self, snapshot: TableSnapshot, interaction: discord.Interaction[Any]
    ) -> None:
        """A pocket table's message took its last edit: the click answers with the table as
        a new message (``Reposts.move_pocket``)."""
        await self.reposts.move_pocket(self._entry(snapshot), snapshot, interaction, self.pocket)

    async def renew_pocket(self, table_id: str, interaction: discord.Interaction[Any]) -> None:
        """A /bet at a pocket table (answered already): if the table's token is near its end,
        the table moves to a new message answering the /bet, so playing by /bet alone keeps
        the table going as clicks do."""
        table = self._tables.get(table_id)
        if table is None or not table.pocket or table.latest is None:
            return
        if self.pocket.needs_renewal(table_id):
            await self.move_pocket(table.latest, interaction)

    def message_of(self, table_id: str) -> tuple[int, int] | None:
        """The table's (channel id, message id), once posted."""
        table = self._tables.get(table_id)
        if table is None or table.message_id is None:
            return None
        return table.channel_id, table.message_id

    @contextlib.asynccontextmanager
    async def holding(self, table_id: str) -> AsyncIterator[None]:
        """No channel edit of this table starts while a click is answered."""
        table = self._tables.get(table_id)
        if table is None:
            yield
            return
        table.holds += 1
        try:
            yield
        finally:
            table.holds -= 1
            self._kick(table_id, table)

    @contextlib.asynccontextmanager
    async def answering(self, snapshot: TableSnapshot) -> AsyncIterator[None]:
        """Around a click's answer that carries ``snapshot`` (inside :meth:`holding`)."""
        table = self._tables.get(snapshot.table_id)
        if table is None:
            yield
            return
        # Another answer (or an edit) on its way may reach Discord after this one,
        # whatever order they were sent in; and an answer older than one already sent
        # puts an older table back. Either way the newest must be sent again. Only the
        # requests' flight counts: clicks merely waiting for the table overlap all the
        # time under load, and marking those cost an extra edit per round or two.
        if (
            table.answering > 0
            or (table.task is not None and not table.task.done())
            or snapshot.version < table.sent
        ):
            table.uncertain = True
        table.sent = max(table.sent, snapshot.version)
        table.answering += 1
        try:
            yield
        finally:
            table.answering -= 1

    @contextlib.asynccontextmanager
    async def busy(self, table_id: str | None) -> AsyncIterator[None]:
        """A command is changing this table (a /bet): its edit waits until no command is.

        Five players betting at once then cost one edit of the table message, not five
        (Discord limits edits per channel); a lone bet is shown as soon as it is answered.
        """
        if table_id is None:
            yield
            return
        async with self.holding(table_id):
            yield

    async def idle(self) -> None:
        """Return once no edit is in flight or due (for shutdown and tests)."""
        while True:
            tasks = [t.task for t in self._tables.values() if t.task and not t.task.done()]
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)

    def _due(self, table: TableMessage) -> bool:
        return (
            not table.lost
            and table.holds == 0
            and table.message_id is not None
            and table.latest is not None
            and table.latest.version > table.shown
            # A pocket table is edited only through a valid token; else the next click shows it.
            and (not table.pocket or self.pocket.valid(table.table_id))
        )

    def _forget(self, table_id: str) -> None:
        self._tables.pop(table_id, None)
        self.renderer.forget(table_id)
        self.pocket.forget(table_id)

    def _kick(self, table_id: str, table: TableMessage) -> None:
        if table.task is not None and not table.task.done():
            return  # the running edit loop picks up the newest snapshot when it finishes
        if self._due(table):
            table.task = asyncio.create_task(self._edit_loop(table_id, table))
        elif (
            table.latest is not None
            and table.latest.phase is TablePhase.CLOSED
            and (table.lost or table.latest.version <= table.shown)
        ):
            self._forget(table_id)

    async def _edit_loop(self, table_id: str, table: TableMessage) -> None:
        while self._due(table):
            snapshot = table.latest
            assert snapshot is not None
            assert table.message_id is not None
            table.uncertain = False  # this edit sends the newest: it settles any doubt
            table.sent = max(table.sent, snapshot.version)
            try:
                await self._show(table_id, table, snapshot)
            except (discord.NotFound, discord.Forbidden) as error:
                if error.code == codes.UNKNOWN_MESSAGE and await self.reposts.post_again(table):
                    continue
                await self._lost(table_id, table, error)
                break
            except discord.HTTPException as error:
                if table.pocket and error.code == codes.OLD_MESSAGE_EDITS:
                    # Its token may edit it no more: the timers wait, the next click moves it.
                    log.info("pocket table %s: its message takes no more edits", table_id)
                    self.pocket.forget(table_id)
                    break
                # A 5xx that discord.py already retried: try again on the next change.
                log.warning("could not edit table %s's message", table_id, exc_info=True)
                break
            table.shown = max(table.shown, snapshot.version)
            table.between_rounds = snapshot.phase is TablePhase.BETTING
        if (
            table.latest is not None
            and table.latest.phase is TablePhase.CLOSED
            and not self._due(table)
        ):
            self._forget(table_id)

    async def _due_for_new_message(self, table: TableMessage, snapshot: TableSnapshot) -> bool:
        """Whether the message is due for replacing: at a round boundary (betting open) when
        it is nearly an hour old; when its server changed layout, at betting open or at the
        first edit after it (a lone player's bet deals at once: the message never shows
        that betting is open)."""
        if table.pocket:  # its message answers an interaction: never posted afresh
            return False
        betting = snapshot.phase is TablePhase.BETTING
        old = table.posted_at is not None and self._clock.now() - table.posted_at >= self._max_age_s
        if betting and old:
            return True
        if not (betting or table.between_rounds) or table.layout is None:
            return False
        return table.layout != await self.renderer.layout(snapshot)

    async def _show(self, table_id: str, table: TableMessage, snapshot: TableSnapshot) -> None:
        """Edit the message to ``snapshot``, or move the table to a fresh one when due."""
        assert table.message_id is not None
        if table.pocket:
            await self.pocket.edit(table_id, await self.payload(snapshot))
            return
        if await self._due_for_new_message(table, snapshot):
            await self.reposts.move(table, snapshot)
            return
        try:
            await self._edit(table.channel_id, table.message_id, snapshot)
        except discord.HTTPException as error:
            if error.code != codes.OLD_MESSAGE_EDITS:
                raise
            await self.reposts.move(table, snapshot)

    async def _edit(self, channel_id: int, message_id: int, snapshot: TableSnapshot) -> None:
        payload = await self.payload(snapshot)
        message = self._client.get_partial_messageable(channel_id).get_partial_message(message_id)
        await message.edit(**payload.fields())

    async def _lost(self, table_id: str, table: TableMessage, error: discord.HTTPException) -> None:
        """The message was deleted or the bot lost access: close the table, tell the host."""
        table.lost = True
        if error.code == codes.UNKNOWN_MESSAGE:
            reason = _("the table message was deleted")
        elif error.code == codes.UNKNOWN_CHANNEL:
            reason = _("the table's channel was deleted")
        else:
            reason = _("the bot lost a permission it needs in this channel")
        log.info("closing table %s: %s (Discord error %s)", table_id, reason, error.code)
        if self._close is not None:
            await self._close(table_id, reason)
        if error.code in (codes.MISSING_ACCESS, codes.MISSING_PERMISSIONS) and not table.pocket:
            language = await self.renderer.language(table.guild_id)
            await tell_host(self._client, table.channel_id, table.host_id, language)
