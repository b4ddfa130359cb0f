"""The table service: every live table, one per channel, and what players may do at it.

Each public method validates first (a TableError changes nothing), then moves
chips through the store before it changes the engine's round, all under the
table's lock; the new snapshot is published after the lock is released.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from typing import TypeVar

import db
from bot.clock import Clock
from bot.engine import Action
from bot.shown_names import shown_name
from bot.tables.advice import Advice
from bot.tables.betting import TableBetting
from bot.tables.durable import UnreadableTable
from bot.tables.errors import (
    NotAllowed,
    NotEnoughChips,
    NothingToDo,
    NotSeated,
    StaleButton,
    TableAlreadyOpen,
    TableError,
    TablePaused,
)
from bot.tables.flow import Publish, ShoeFactory
from bot.tables.journal import JournalError, decision
from bot.tables.players import Player
from bot.tables.refusals import judged, player_in_round
from bot.tables.resume import ResumableFlow
from bot.tables.snapshot import Reply, TablePhase, TableSnapshot
from bot.tables.table import SeatState, Table, Timers
from bot.tables.table_rules import table_rules

T = TypeVar("T")
log = logging.getLogger(__name__)

_COST_KINDS = {Action.DOUBLE: "double", Action.SPLIT: "split", Action.INSURANCE: "insurance"}
#: /blackjack start while the store cannot be read.
NO_STORE = "The chip store is unavailable right now. Nothing changed; try again in a moment."
#: /blackjack start in a channel whose table waits for the store.
PAUSED_THERE = (
    "A table is already open in this channel. It is paused while the chip store is"
    " unavailable, and goes on by itself when the store is back."
)
_COST_WORDS = {Action.DOUBLE: "Doubling", Action.SPLIT: "Splitting", Action.INSURANCE: "Insurance"}


class TableService(TableBetting, ResumableFlow):
    """Live blackjack tables, one per channel.

    Every call that changes a table answers with one shape, a ``Reply``: the table as
    it now stands and a note for the caller ("" when there is nothing to say).
    """

    def __init__(
        self,
        store: db.Store,
        *,
        clock: Clock,
        publish: Publish | None = None,
        shoe_factory: ShoeFactory | None = None,
        advice: Advice | None = None,
    ) -> None:
        super().__init__(store, clock, publish, shoe_factory)
        self._opening = asyncio.Lock()
        self.advice = advice or Advice()  # charts, edges and Hint figures off the event loop

    # ----------------------------------------------------------- opening

    async def start(
        self,
        guild_id: int,
        channel_id: int,
        host: Player,
        *,
        preset: str | None = None,
        min_bet: int | None = None,
        max_bet: int | None = None,
    ) -> Reply:
        """Open a table in the channel with the host seated, and open betting at once."""
        try:
            snapshot = await self._open_table(guild_id, channel_id, host, preset, min_bet, max_bet)
        except db.StoreUnavailable:
            raise TableError(NO_STORE) from None
        await self._emit(snapshot)
        return Reply(snapshot)

    async def _open_table(
        self,
        guild_id: int,
        channel_id: int,
        host: Player,
        preset: str | None,
        min_bet: int | None,
        max_bet: int | None,
    ) -> TableSnapshot:
        async with self._opening:
            await self._check_channel_free(channel_id)
            settings = await self._store.get_guild_settings(guild_id)
            name = preset or settings.default_preset
            rules = table_rules(name, settings, min_bet, max_bet)
            await self._store.ensure_account(guild_id, host.user_id)
            shoe = self._shoe_factory(rules)
            await self._store.open_shoe(guild_id, channel_id, shoe.commitment)
            previous = await self._store.last_revealed_shoe(guild_id, channel_id)
            table = Table(
                table_id=self._new_id(),
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
            table.seats.append(SeatState(host))
            self.advice.warm(rules)
            async with table.lock:
                await self._open_betting(table)
                self._tables[table.table_id] = table
                self._by_channel[channel_id] = table.table_id
                return self._changed(table)

    async def _check_channel_free(self, channel_id: int) -> None:
        """TableAlreadyOpen if the channel has a table: live here (perhaps paused), or open
        in the store and not live (its write or close failed before a restart): then it is
        resumed first, or refunded if it cannot resume."""
        existing = self._by_channel.get(channel_id)
        if existing is None:
            for stored in await self._store.open_tables_in(channel_id):
                try:
                    await self._resume_one(stored)
                except (UnreadableTable, JournalError) as error:
                    await self._give_up(stored, str(error))
            existing = self._by_channel.get(channel_id)
        if existing is not None:
            table = self._tables[existing]
            assert table.snapshot is not None
            text = PAUSED_THERE if table.paused else "A table is already open in this channel."
            raise TableAlreadyOpen(table.snapshot, text)

    def _new_id(self) -> str:
        while True:
            table_id = secrets.token_hex(4)
            if table_id not in self._tables and table_id not in self._closed_ids:
                return table_id

    async def attach_message(self, table_id: str, message_id: int) -> None:
        """Remember the table message; it is stored on each round for recovery."""
        table = self._table(table_id)
        async with table.lock:
            self._check_open(table)
            table.message_id = message_id
            table.message_at = self._clock.now()
            if table.round_id is not None:
                await self._store.set_round_message(table.round_id, message_id)
            await self._save(table)

    # ----------------------------------------------------------- seats

    async def join(self, channel_id: int, player: Player) -> Reply:
        """Seat the player at the channel's table (they play from the next deal)."""
        return await self._join(self._in_channel(channel_id), player)

    async def join_table(self, table_id: str, player: Player) -> Reply:
        """Seat the player at this table: its Join button."""
        return await self._join(self._table(table_id), player)

    async def _join(self, table: Table, player: Player) -> Reply:
        async def seat_player() -> None:
            seat = table.seat_of(player.user_id)
            if seat is not None and not seat.leaving:
                raise TableError("You are already seated at this table.")
            if seat is not None:
                seat.leaving = False  # joining again cancels a pending leave
                await self._save(table)
                return
            self._check_room(table)
            await self._store.ensure_account(table.guild_id, player.user_id)
            table.seats.append(SeatState(player))
            await self._save(table)

        _, snapshot = await self._mutate(table, seat_player)
        return Reply(snapshot)

    async def leave(self, channel_id: int, player: Player) -> Reply:
        """Stand up from the channel's table: now, or when the round ends if the player
        has chips in it."""
        return await self._leave(self._in_channel(channel_id), player)

    async def leave_table(self, table_id: str, player: Player) -> Reply:
        """Stand up from this table: its Leave button."""
        return await self._leave(self._table(table_id), player)

    async def _leave(self, table: Table, player: Player) -> Reply:
        async def stand_up() -> str:
            seat = table.seat_of(player.user_id)
            if seat is None:
                raise NotSeated("You are not seated at this table.")
            if seat.leaving:
                raise TableError("You are already leaving when this round ends.")
            seat.leaving = True
            if seat.spots or table.in_round(seat):
                await self._save(table)
                return "You'll leave when this round ends."
            self._remove_leavers(table)
            if not table.seats:
                await self._close(table, "Everyone left the table.")
                return "You left."
            await self._save(table)
            if table.phase is TablePhase.BETTING and all(s.spots for s in table.seats):
                await self._deal(table)  # everyone still seated has bet
            return "You left."

        message, snapshot = await self._mutate(table, stand_up)
        return Reply(snapshot, message)

    # ----------------------------------------------------------- playing

    async def act(self, table_id: str, round_no: int, player: Player, action: Action) -> Reply:
        """Apply a button press to the player's first unfinished hand (or insurance decision).

        The cost (double, split, insurance) is staked first; if the balance cannot
        cover it, NotEnoughChips and nothing changes.
        """
        table = self._table(table_id)

        async def press() -> None:
            pid = player_in_round(table, round_no, player.user_id)
            round_ = table.round
            assert round_ is not None
            assert table.round_id is not None
            verdict = judged(round_, pid, action)  # the one legality check of this press
            cost, checked = verdict.cost, verdict.action
            assert checked is not None
            # Journaled before the click is answered; with its stake when it costs chips.
            row = decision(table, pid, checked, self._clock.now())
            if cost:
                try:
                    await self._store.stake(
                        table.guild_id,
                        player.user_id,
                        cost,
                        _COST_KINDS[checked],
                        table.round_id,
                        actions=[row],
                    )
                except db.InsufficientChips as error:
                    raise NotEnoughChips(
                        error.amount, error.balance, _COST_WORDS[checked]
                    ) from None
            else:
                await self._store.append_actions([row])
            await self._apply(table, row, verdict)

        _, snapshot = await self._mutate(table, press)
        return Reply(snapshot)

    async def hint(self, table_id: str, round_no: int, player: Player) -> Reply:
        """Basic-strategy advice for the player's current hand, in one sentence (the note)."""
        table = self._table(table_id)
        async with table.lock:
            self._check_open(table)
            pid = player_in_round(table, round_no, player.user_id)
            round_ = table.round
            assert round_ is not None
            legal = round_.legal_actions(pid)
            if not legal:
                raise NothingToDo("You have no decision to make right now.")
            index = round_.current_hand_index(pid)
            cards = list(round_.hands(pid)[index or 0].cards)
            up = round_.dealer_up_card
            snapshot = table.snapshot
            assert snapshot is not None
        return Reply(snapshot, await self.advice.hint(table.rules, cards, up, legal))

    # ----------------------------------------------------------- closing

    async def stop(self, channel_id: int, by: Player, *, may_manage_channel: bool) -> Reply:
        """Close the table (the host, or anyone with Manage Channels); refund an open round."""
        table = self._in_channel(channel_id)

        async def stop_table() -> None:
            if by.user_id != table.host_id and not may_manage_channel:
                raise NotAllowed(
                    "Only the host or someone with Manage Channels can stop this table."
                )
            await self._close(table, f"Stopped by {shown_name(by.name)}.")

        _, snapshot = await self._mutate(table, stop_table)
        return Reply(snapshot)

    async def close(self, table_id: str, reason: str) -> None:
        """Close the table (its message is gone, or the bot cannot post); refund an open round.

        Closing a table that is already closed does nothing.
        """
        table = self._tables.get(table_id)
        if table is None:
            return
        # Closed meanwhile (its round voided), or paused: it closes when its message is
        # found gone again after the store is back.
        with contextlib.suppress(StaleButton, TablePaused):
            await self._mutate(table, lambda: self._close(table, reason))

    async def suspend(self) -> None:
        """The graceful stop (see ``ResumableFlow.suspend``), then the strategy worker's."""
        await super().suspend()
        self.advice.close()
