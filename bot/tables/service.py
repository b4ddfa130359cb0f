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
from collections.abc import Awaitable, Callable
from typing import TypeVar

import db
from bot.bet_amount import BetAmountError, needs_balance, parse_bet, short_of_chips
from bot.clock import Clock
from bot.engine import Action, Rules
from bot.tables.advice import Advice
from bot.tables.errors import (
    BetRefused,
    NoTableHere,
    NotAllowed,
    NotEnoughChips,
    NothingToDo,
    NotSeated,
    StaleButton,
    TableAlreadyOpen,
    TableError,
    TableFull,
    WrongPhase,
)
from bot.tables.fairness import Fairness, fairness_of
from bot.tables.flow import Publish, ShoeFactory, TableFlow
from bot.tables.players import Player
from bot.tables.refusals import EARLIER_ROUND, legal_action, player_in_round
from bot.tables.snapshot import TablePhase, TableSnapshot
from bot.tables.table import SeatState, Table, Timers
from bot.tables.table_rules import table_rules

T = TypeVar("T")
log = logging.getLogger(__name__)

RESTARTED = (
    "This table closed when the bot restarted; its round was refunded. "
    "Start a new one with /blackjack start."
)
CLOSED = "This table has closed. Start a new one with /blackjack start."
BROKEN = "Something went wrong at this table: it closed, and any open round was refunded."
_COST_KINDS = {Action.DOUBLE: "double", Action.SPLIT: "split", Action.INSURANCE: "insurance"}
_COST_WORDS = {Action.DOUBLE: "Doubling", Action.SPLIT: "Splitting", Action.INSURANCE: "Insurance"}


class TableService(TableFlow):
    """Live blackjack tables, one per channel (the contract: notes/tables-api.md)."""

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

    # ----------------------------------------------------------- reading

    def table_in(self, channel_id: int) -> TableSnapshot | None:
        """The open table in this channel, or None."""
        table_id = self._by_channel.get(channel_id)
        return None if table_id is None else self._tables[table_id].snapshot

    def get(self, table_id: str) -> TableSnapshot:
        """The table's latest snapshot; StaleButton if the id is unknown or closed."""
        snapshot = self._table(table_id).snapshot
        assert snapshot is not None
        return snapshot

    def rules_of(self, table_id: str) -> Rules:
        """The table's rules (its preset with the table's bet limits)."""
        return self._table(table_id).rules

    def fairness(self, channel_id: int) -> Fairness:
        """The current shoe's commitment and the previous shoe's revealed seed."""
        return fairness_of(self._in_channel(channel_id), self._retired_decks)

    def _table(self, table_id: str) -> Table:
        table = self._tables.get(table_id)
        if table is None:
            raise StaleButton(CLOSED if table_id in self._closed_ids else RESTARTED)
        return table

    def _in_channel(self, channel_id: int) -> Table:
        table_id = self._by_channel.get(channel_id)
        if table_id is None:
            raise NoTableHere()
        return self._tables[table_id]

    @staticmethod
    def _check_open(table: Table) -> None:
        """After waiting for the lock: the table may have closed meanwhile."""
        if table.closed:
            raise StaleButton(CLOSED)

    async def _mutate(
        self, table: Table, change: Callable[[], Awaitable[T]]
    ) -> tuple[T, TableSnapshot]:
        """Run ``change`` under the table's lock, then publish the new snapshot.

        A TableError leaves everything as it was (each check comes before any
        change). Anything else is a bug or a lost database: the table closes and
        refunds its round rather than stay half-changed.
        """
        try:
            async with table.lock:
                self._check_open(table)
                result = await change()
                snapshot = self._changed(table)
        except TableError:
            raise
        except Exception:
            log.exception("table %s failed; closing it", table.table_id)
            await self._emit(await self._close_after_error(table))
            raise TableError(BROKEN) from None
        await self._emit(snapshot)
        return result, snapshot

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
    ) -> TableSnapshot:
        """Open a table in the channel with the host seated, and open betting at once."""
        async with self._opening:
            existing = self.table_in(channel_id)
            if existing is not None:
                raise TableAlreadyOpen(existing, "A table is already open in this channel.")
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
                snapshot = self._changed(table)
        await self._emit(snapshot)
        return snapshot

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
            if table.round_id is not None:
                await self._store.set_round_message(table.round_id, message_id)

    # ----------------------------------------------------------- seats

    async def join(self, channel_id: int, player: Player) -> TableSnapshot:
        """Seat the player (they play from the next deal)."""
        table = self._in_channel(channel_id)

        async def seat_player() -> None:
            seat = table.seat_of(player.user_id)
            if seat is not None and not seat.leaving:
                raise TableError("You are already seated at this table.")
            if seat is not None:
                seat.leaving = False  # joining again cancels a pending leave
                return
            self._check_room(table)
            await self._store.ensure_account(table.guild_id, player.user_id)
            table.seats.append(SeatState(player))

        _, snapshot = await self._mutate(table, seat_player)
        return snapshot

    @staticmethod
    def _check_room(table: Table) -> None:
        if len(table.seats) >= table.rules.max_players:
            raise TableFull(f"The table is full ({table.rules.max_players} players).")

    async def leave(self, channel_id: int, player: Player) -> tuple[TableSnapshot, str]:
        """Stand up now, or when the round ends if the player has chips in it."""
        table = self._in_channel(channel_id)

        async def stand_up() -> str:
            seat = table.seat_of(player.user_id)
            if seat is None:
                raise NotSeated("You are not seated at this table.")
            if seat.leaving:
                raise TableError("You are already leaving when this round ends.")
            seat.leaving = True
            if seat.spots or table.in_round(seat):
                return "You'll leave when this round ends."
            self._remove_leavers(table)
            if not table.seats:
                await self._close(table, "Everyone left the table.")
            elif table.phase is TablePhase.BETTING and all(s.spots for s in table.seats):
                await self._deal(table)  # everyone still seated has bet
            return "You left."

        message, snapshot = await self._mutate(table, stand_up)
        return snapshot, message

    # ----------------------------------------------------------- betting

    async def bet(
        self, channel_id: int, player: Player, amount: str, spots: int = 1
    ) -> tuple[TableSnapshot, str]:
        """Place the player's bet for this round, seating them if there is room.

        The stake is taken at once; when every seated player has bet, the cards are dealt.
        """
        table = self._in_channel(channel_id)
        message, snapshot = await self._mutate(
            table, lambda: self._place_bet(table, player, amount, spots)
        )
        return snapshot, message

    async def rebet(
        self, table_id: str, round_no: int, player: Player, factor: int
    ) -> tuple[TableSnapshot, str]:
        """The Bet buttons: repeat the player's last bet (factor 1) or double it (factor 2)."""
        table = self._table(table_id)

        async def bet_again() -> str:
            if round_no != table.round_no:
                raise StaleButton(EARLIER_ROUND)
            if factor not in (1, 2):
                raise BetRefused("A bet can be repeated or doubled.")
            last = table.last_bets.get(player.user_id)
            if last is None:
                raise BetRefused("You have no earlier bet at this table to repeat. Use /bet.")
            stake, spots = last
            return await self._place_bet(table, player, str(stake * factor), spots)

        message, snapshot = await self._mutate(table, bet_again)
        return snapshot, message

    async def _place_bet(self, table: Table, player: Player, amount: str, spots: int) -> str:
        if table.phase is not TablePhase.BETTING or table.round_id is None:
            raise WrongPhase("The cards are out: bet when the next round opens.")
        seat = table.seat_of(player.user_id)
        if seat is not None and seat.spots:
            hands = f" on {seat.spots} hands" if seat.spots > 1 else ""
            raise BetRefused(f"You already bet {seat.bet:,}{hands} this round.")
        if not isinstance(spots, int) or not 1 <= spots <= table.rules.max_spots:
            raise BetRefused(f"You can play 1 to {table.rules.max_spots} hands at this table.")
        if seat is None:
            self._check_room(table)
        # A plain number needs no balance read: the debit below checks the balance anyway.
        balance: int | None = None
        if needs_balance(amount):
            balance = await self._store.balance(table.guild_id, player.user_id)
        rules = table.rules
        try:
            stake = parse_bet(
                amount, balance=balance, min_bet=rules.min_bet, max_bet=rules.max_bet, spots=spots
            )
        except BetAmountError as error:
            raise BetRefused(str(error)) from None
        try:
            # The store's conditional debit: two tables cannot spend the same chips.
            balance = await self._store.stake(
                table.guild_id, player.user_id, stake * spots, "bet", table.round_id
            )
        except db.InsufficientChips as error:
            if not needs_balance(amount):  # the words parse_bet gives with the balance read
                raise BetRefused(short_of_chips(error.amount, error.balance)) from None
            raise NotEnoughChips(error.amount, error.balance, "That bet") from None
        if seat is None:
            seat = SeatState(player)
            table.seats.append(seat)
        seat.bet, seat.spots = stake, spots
        table.idle_since = self._clock.now()
        if all(s.spots for s in table.seats):
            await self._deal(table)
        hands = f" on {spots} hands" if spots > 1 else ""
        return f"Bet {stake * spots:,}{hands}. Balance: {balance:,}."

    # ----------------------------------------------------------- playing

    async def act(
        self, table_id: str, round_no: int, player: Player, action: Action
    ) -> TableSnapshot:
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
            checked = legal_action(round_, pid, action)
            cost = round_.cost(pid, checked)
            if cost:
                try:
                    await self._store.stake(
                        table.guild_id, player.user_id, cost, _COST_KINDS[checked], table.round_id
                    )
                except db.InsufficientChips as error:
                    raise NotEnoughChips(
                        error.amount, error.balance, _COST_WORDS[checked]
                    ) from None
            await self._apply(table, pid, checked)

        _, snapshot = await self._mutate(table, press)
        return snapshot

    async def hint(self, table_id: str, round_no: int, player: Player) -> str:
        """Basic-strategy advice for the player's current hand, in one sentence."""
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
        return await self.advice.hint(table.rules, cards, round_.dealer_up_card, legal)

    # ----------------------------------------------------------- closing

    async def stop(self, channel_id: int, by: Player, *, may_manage_channel: bool) -> TableSnapshot:
        """Close the table (the host, or anyone with Manage Channels); refund an open round."""
        table = self._in_channel(channel_id)

        async def stop_table() -> None:
            if by.user_id != table.host_id and not may_manage_channel:
                raise NotAllowed(
                    "Only the host or someone with Manage Channels can stop this table."
                )
            await self._close(table, f"Stopped by {by.name}.")

        _, snapshot = await self._mutate(table, stop_table)
        return snapshot

    async def close(self, table_id: str, reason: str) -> None:
        """Close the table (its message is gone, or the bot cannot post); refund an open round.

        Closing a table that is already closed does nothing.
        """
        table = self._tables.get(table_id)
        if table is None:
            return
        with contextlib.suppress(StaleButton):  # closed meanwhile: its round is voided
            await self._mutate(table, lambda: self._close(table, reason))

    async def recover(self) -> list[db.VoidResult]:
        """At start-up, before any table opens: void and refund rounds a previous run left open."""
        return await self._store.recover()

    async def shutdown(self) -> None:
        """Cancel every timer; void and refund every open round (a graceful stop)."""
        timers: list[asyncio.Task[None]] = []
        snapshots: list[TableSnapshot] = []
        for table in list(self._tables.values()):
            async with table.lock:
                if table.closed:
                    continue
                if table.timer is not None and table.timer is not asyncio.current_task():
                    timers.append(table.timer)
                await self._close(table, "The bot is shutting down; the round was refunded.")
                snapshots.append(self._changed(table))  # cancels the timer
        await asyncio.gather(*timers, return_exceptions=True)
        self.advice.close()
        for snapshot in snapshots:
            await self._emit(snapshot)
