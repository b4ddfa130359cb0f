"""Opening a table: /blackjack start, and the table message it is shown on.

One table per channel: a channel whose table is live here (perhaps paused), or open
in the store from before a restart, gets a pointer to it instead of a second table.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import db
from bot.clock import Clock
from bot.engine import Rules
from bot.i18n import _
from bot.tables.changes import TableChanges, TableStep
from bot.tables.errors import TableAlreadyOpen, TableError
from bot.tables.flow import RoundFlow
from bot.tables.players import Player
from bot.tables.preset_limits import table_rules
from bot.tables.registry import TableRegistry
from bot.tables.resume import Resumer
from bot.tables.side_bets import side_bet_rules
from bot.tables.snapshot import Reply, TableSnapshot
from bot.tables.table import SeatState, Table, Timers

#: /blackjack start while the store cannot be read.
NO_STORE = _("The chip store is unavailable right now. Nothing changed; try again in a moment.")
#: /blackjack start in a channel whose table waits for the store.
PAUSED_THERE = _(
    "A table is already open in this channel. It is paused while the chip store is"
    " unavailable, and goes on by itself when the store is back."
)


class Opening(TableStep):
    """New tables, one at a time (two /blackjack start in one channel open one table)."""

    def __init__(
        self,
        store: db.Store,
        clock: Clock,
        registry: TableRegistry,
        flow: RoundFlow,
        changes: TableChanges,
        resumer: Resumer,
    ) -> None:
        super().__init__(store, clock, registry, flow, changes)
        self._resumer = resumer
        self._opening = asyncio.Lock()

    async def start(
        self,
        guild_id: int,
        channel_id: int,
        host: Player,
        *,
        preset: str | None = None,
        min_bet: int | None = None,
        max_bet: int | None = None,
        warm: Callable[[Rules], None],
        practice: bool = False,
    ) -> Reply:
        """Open a table in the channel with the host seated, and open betting at once.

        ``warm`` is told the table's rules as it opens (the strategy worker starts on them);
        ``practice``: a counting trainer's table.
        """
        try:
            snapshot = await self._open_table(
                guild_id, channel_id, host, preset, min_bet, max_bet, warm, practice
            )
        except db.StoreUnavailable:
            raise TableError(NO_STORE) from None
        await self._changes.emit(snapshot)
        note = await self._flow.seat_taken(self._registry.table(snapshot.table_id), host.user_id)
        return Reply(snapshot, note)

    async def _open_table(
        self,
        guild_id: int,
        channel_id: int,
        host: Player,
        preset: str | None,
        min_bet: int | None,
        max_bet: int | None,
        warm: Callable[[Rules], None],
        practice: bool = False,
    ) -> TableSnapshot:
        async with self._opening:
            await self._check_channel_free(channel_id)
            settings = await self._store.get_guild_settings(guild_id)
            name = preset or settings.default_preset
            rules = table_rules(name, settings, min_bet, max_bet)
            await self._store.ensure_account(guild_id, host.user_id)
            shoe = self._flow.new_shoe_for(rules)
            await self._store.shoes.open_shoe(guild_id, channel_id, shoe.commitment)
            previous = await self._store.shoes.last_revealed_shoe(guild_id, channel_id)
            table = Table(
                table_id=self._registry.new_id(),
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host.user_id,
                preset=name,
                rules=rules,
                timers=Timers(settings.bet_timer_s, settings.action_timer_s, settings.idle_close_s),
                shoe=shoe,
                previous_shoe=previous,
                previous_decks=None,
                idle_since=self._clock.now(),
            )
            table.side_bets = side_bet_rules(settings, rules)
            table.practice = practice or bool(settings.practice_tables)
            table.seats.append(SeatState(host))
            warm(rules)
            async with table.lock:
                await self._flow.open_betting(table)
                self._registry.add(table)
                return self._changes.changed(table)

    async def open_for(self, table: Table) -> TableSnapshot:
        """Open ``table``, made by a game mode's coordinator (a tournament's), in its channel:
        saved as it is, with no round open yet. TableAlreadyOpen if the channel has a table."""
        async with self._opening:
            await self._check_channel_free(table.channel_id)
            table.table_id = self._registry.new_id()
            async with table.lock:
                await self._flow.save(table)
                self._registry.add(table)
                return self._changes.changed(table)

    async def _check_channel_free(self, channel_id: int) -> None:
        """TableAlreadyOpen if the channel has a table: live here (perhaps paused), or open
        in the store and not live (its write or close failed before a restart): then it is
        resumed first, or refunded if it cannot resume."""
        if self._registry.live_in(channel_id) is None:
            await self._resumer.resume_in(channel_id)
        table = self._registry.live_in(channel_id)
        if table is not None:
            assert table.snapshot is not None
            text = PAUSED_THERE if table.paused else _("A table is already open in this channel.")
            raise TableAlreadyOpen(table.snapshot, text)

    async def attach_message(self, table_id: str, message_id: int) -> None:
        """Remember the table message; it is stored on each round for recovery."""
        table = self._registry.table(table_id)
        async with table.lock:
            self._changes.check_open(table)
            table.message_id = message_id
            table.message_at = self._clock.now()
            if table.round_id is not None:
                await self._store.set_round_message(table.round_id, message_id)
            await self._flow.save(table)
