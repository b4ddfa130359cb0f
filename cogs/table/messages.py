"""Keeping each table's message current: coalesced edits, a deleted table posted again, and
closing a table the bot can no longer show.

The table service calls :meth:`TableMessages.publish` after every change. A click
answers with its own type-7 response, so while a click is being answered the
table is *held* and no channel edit starts; any newer snapshot is edited in once
the hold ends. At most one edit is in flight per table, it always renders the
newest snapshot, and a version already shown is never sent again.

A click never waits for an edit in flight (a rate-limited edit could outlast the
3 s answer window). When two answers, or an answer and an edit, are in flight at
once, Discord may apply them in either order, and an answer sent after a newer
table went out puts an older table back: the message is then *uncertain* and the
newest snapshot is sent once more. Answers whose requests do not overlap, in
version order, need no extra edit.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass

import discord

from bot.tables.errors import TableError
from bot.tables.snapshot import TablePhase, TableSnapshot
from cogs.table.buttons import ButtonSpec
from cogs.table.card_art import Faces
from cogs.table.deadline import overloaded
from cogs.table.render import RenderedTable, render_table

log = logging.getLogger(__name__)

#: Discord error codes that mean the table message can never be edited again.
UNKNOWN_MESSAGE = 10008
UNKNOWN_CHANNEL = 10003
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
#: What the bot needs in a table's channel, with the names Discord's settings use.
NEEDED_PERMISSIONS: tuple[tuple[str, str], ...] = (
    ("view_channel", "View Channel"),
    ("send_messages", "Send Messages"),
    ("embed_links", "Embed Links"),
    ("read_message_history", "Read Message History"),
)

Close = Callable[[str, str], Awaitable[None]]
#: The service's ``attach_message(table_id, message_id)``: where a re-posted table now is.
Attach = Callable[[str, int], Awaitable[None]]
#: Turns a rendered table into the view sent with it (the table cog's DynamicItem buttons).
ViewFactory = Callable[[RenderedTable], discord.ui.View]
#: A server's card faces (card emojis) if it shows pictures, None for text cards.
FacesFor = Callable[[int], Awaitable[Faces | None]]


def missing_permissions(permissions: discord.Permissions) -> list[str]:
    """The names of the permissions a table needs that ``permissions`` lacks."""
    return [shown for name, shown in NEEDED_PERMISSIONS if not getattr(permissions, name)]


@dataclass
class _Table:
    channel_id: int
    host_id: int
    message_id: int | None = None
    latest: TableSnapshot | None = None
    shown: int = -1
    holds: int = 0
    task: asyncio.Task[None] | None = None
    lost: bool = False
    #: The last view sent, and the buttons it was made from: reused while they stay the same.
    view_of: tuple[tuple[ButtonSpec, ...], discord.ui.View] | None = None
    #: A click was answered while an edit was in flight: which one Discord applied
    #: last is unknown, so the newest snapshot must be sent again.
    uncertain: bool = False
    #: Answers (type 7 with the table) whose requests are in flight.
    answering: int = 0
    #: The newest version any answer or edit has sent.
    sent: int = -1


class TableMessages:
    """Where each table's message is, and the edits that keep it up to date."""

    def __init__(self, client: discord.Client) -> None:
        self._client = client
        self._view_factory: ViewFactory = RenderedTable.view
        self._tables: dict[str, _Table] = {}
        self._close: Close | None = None
        self._faces_for: FacesFor | None = None
        self._attach: Attach | None = None

    def bind(self, close: Close, attach: Attach | None = None) -> None:
        """The service's ``close(table_id, reason)``, called when a message is lost, and its
        ``attach_message``, called when a deleted table message is posted again."""
        self._close = close
        self._attach = attach

    def use_views(self, view_factory: ViewFactory) -> None:
        """How the table cog turns a rendered table into a view (its DynamicItem buttons)."""
        self._view_factory = view_factory

    def use_faces(self, faces_for: FacesFor) -> None:
        """Where each server's card faces come from (text cards until this is called)."""
        self._faces_for = faces_for

    async def render(self, snapshot: TableSnapshot) -> RenderedTable:
        """The table message for ``snapshot``, with cards as its server shows them."""
        faces = None if self._faces_for is None else await self._faces_for(snapshot.guild_id)
        return render_table(snapshot, faces)

    # -- what the service and the cogs tell us ---------------------------------------------

    async def publish(self, snapshot: TableSnapshot) -> None:
        """The service's publish callback: remember the newest snapshot and schedule an edit."""
        table = self._tables.get(snapshot.table_id)
        if table is None:
            table = self._tables[snapshot.table_id] = _Table(snapshot.channel_id, snapshot.host_id)
        if table.latest is None or snapshot.version > table.latest.version:
            table.latest = snapshot
        self._kick(snapshot.table_id, table)

    def attach(self, snapshot: TableSnapshot, message_id: int) -> None:
        """The table message was posted showing ``snapshot``."""
        table = self._tables.setdefault(
            snapshot.table_id, _Table(snapshot.channel_id, snapshot.host_id)
        )
        table.message_id = message_id
        self.shown(snapshot)
        # A change published before the message existed (a join right after /blackjack start).
        self._kick(snapshot.table_id, table)

    def shown(self, snapshot: TableSnapshot) -> None:
        """A click's response put ``snapshot`` on the message: never send it (or older) again."""
        table = self._tables.get(snapshot.table_id)
        if table is None:
            return
        if not table.uncertain:
            table.shown = max(table.shown, snapshot.version)
        if table.latest is None or snapshot.version > table.latest.version:
            table.latest = snapshot

    def view_for(self, table_id: str, rendered: RenderedTable) -> discord.ui.View:
        """The view for a rendered table: the last one sent if its buttons are unchanged.

        Building a view (a random id, one component object per button) costs more than
        the rest of a render; within a phase the buttons rarely change.
        """
        table = self._tables.get(table_id)
        if table is not None and table.view_of is not None and table.view_of[0] == rendered.buttons:
            return table.view_of[1]
        view = self._view_factory(rendered)
        if table is not None:
            table.view_of = (rendered.buttons, view)
        return view

    def shown_version(self, table_id: str) -> int | None:
        """The newest version the table message shows (None once the table is forgotten)."""
        table = self._tables.get(table_id)
        return None if table is None else table.shown

    def overloaded(self, table_id: str) -> bool:
        """Answer "busy" now: too many interactions wait for this table."""
        table = self._tables.get(table_id)
        return overloaded(0 if table is None else table.holds)

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

    # -- the edits ---------------------------------------------------------------------------

    def _due(self, table: _Table) -> bool:
        return (
            not table.lost
            and table.holds == 0
            and table.message_id is not None
            and table.latest is not None
            and table.latest.version > table.shown
        )

    def _kick(self, table_id: str, table: _Table) -> None:
        if table.task is not None and not table.task.done():
            return  # the running edit loop picks up the newest snapshot when it finishes
        if self._due(table):
            table.task = asyncio.create_task(self._edit_loop(table_id, table))
        elif (
            table.latest is not None
            and table.latest.phase is TablePhase.CLOSED
            and (table.lost or table.latest.version <= table.shown)
        ):
            self._tables.pop(table_id, None)

    async def _edit_loop(self, table_id: str, table: _Table) -> None:
        while self._due(table):
            snapshot = table.latest
            assert snapshot is not None
            assert table.message_id is not None
            table.uncertain = False  # this edit sends the newest: it settles any doubt
            table.sent = max(table.sent, snapshot.version)
            try:
                await self._edit(table.channel_id, table.message_id, snapshot)
            except (discord.NotFound, discord.Forbidden) as error:
                if error.code == UNKNOWN_MESSAGE and await self._post_again(table_id, table):
                    continue
                await self._lost(table_id, table, error)
                break
            except discord.HTTPException:
                # A 5xx that discord.py already retried: try again on the next change.
                log.warning("could not edit table %s's message", table_id, exc_info=True)
                break
            table.shown = max(table.shown, snapshot.version)
        if (
            table.latest is not None
            and table.latest.phase is TablePhase.CLOSED
            and not self._due(table)
        ):
            self._tables.pop(table_id, None)

    async def _edit(self, channel_id: int, message_id: int, snapshot: TableSnapshot) -> None:
        rendered = await self.render(snapshot)
        channel = self._client.get_partial_messageable(channel_id)
        await channel.get_partial_message(message_id).edit(
            embed=rendered.embed, view=self.view_for(snapshot.table_id, rendered)
        )

    async def _post_again(self, table_id: str, table: _Table) -> bool:
        """Someone deleted the message of an open table: post the table again, below.

        The players' bets and hands stay as they are (a bet just taken is not refunded
        by a table closing under it). False if the table is closing or cannot be posted.
        """
        snapshot = table.latest
        if snapshot is None or snapshot.phase is TablePhase.CLOSED or self._attach is None:
            return False
        rendered = render_table(snapshot)
        channel = self._client.get_partial_messageable(table.channel_id)
        try:
            message = await channel.send(
                embed=rendered.embed, view=self.view_for(table_id, rendered)
            )
        except discord.HTTPException:
            log.info("could not post table %s again", table_id, exc_info=True)
            return False
        log.info("table %s's message was deleted: posted it again", table_id)
        table.message_id = message.id
        table.shown = table.sent = max(table.shown, snapshot.version)
        with contextlib.suppress(TableError):  # closed meanwhile: its last edit follows
            await self._attach(table_id, message.id)
        return True

    async def _lost(self, table_id: str, table: _Table, error: discord.HTTPException) -> None:
        """The message was deleted or the bot lost access: close the table, tell the host."""
        table.lost = True
        if error.code in (UNKNOWN_MESSAGE, UNKNOWN_CHANNEL):
            reason = "the table message was deleted"
        else:
            reason = "the bot lost a permission it needs in this channel"
        log.info("closing table %s: %s (Discord error %s)", table_id, reason, error.code)
        if self._close is not None:
            await self._close(table_id, reason)
        if error.code in (MISSING_ACCESS, MISSING_PERMISSIONS):
            await self._tell_host(table)

    async def _tell_host(self, table: _Table) -> None:
        """Name the missing permission to the host, in the channel if the bot may still post."""
        channel = self._client.get_channel(table.channel_id)
        missing: list[str] = []
        if isinstance(channel, discord.abc.GuildChannel | discord.Thread):
            missing = missing_permissions(channel.permissions_for(channel.guild.me))
        needed = ", ".join(missing) or ", ".join(shown for _, shown in NEEDED_PERMISSIONS)
        if {"View Channel", "Send Messages"} & set(missing):
            log.info("cannot tell the host in %s: missing %s", table.channel_id, needed)
            return
        text = (
            f"<@{table.host_id}> The blackjack table here closed and its round was refunded: "
            f"I am missing {needed} in this channel. Give me that, then /blackjack start."
        )
        try:
            await self._client.get_partial_messageable(table.channel_id).send(
                text, allowed_mentions=discord.AllowedMentions(users=True)
            )
        except discord.HTTPException:
            log.info("could not tell the host of the closed table in %s", table.channel_id)
