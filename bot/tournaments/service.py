"""Tournaments: a coordinator over live tables that play its hands (bot.tournaments.mode):
entries and their fees (each committed with the table's new seat), the start, each table's
end, the prizes or refunds, and the seed's reveal. Economy chips move only through the prize
pool (db.ops.tournaments)."""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict
from functools import partial
from typing import Final

import db
from bot.clock import Clock
from bot.engine import commitment
from bot.i18n import Text, _
from bot.shown_names import shown_name
from bot.tables import TableService
from bot.tables.achievements import TOURNAMENT_WINNER, announcements
from bot.tables.errors import NotAllowed, NotEnoughChips, TableError, TableFull
from bot.tables.play_words import blocked
from bot.tables.players import Player
from bot.tables.results import unpaid_line
from bot.tables.snapshot import Reply, TableSnapshot
from bot.tables.table import SeatState, Table
from bot.tournaments import elimination as R
from bot.tournaments.mode import KEY, Stack, TournamentMode, entries_table, stacks_of
from bot.tournaments.state import Entrant, Status, Tournament, UnreadableTournament, standings_lines
from db.tournament_store import Place, TournamentClosed

log = logging.getLogger(__name__)

IDLE_END: Final = _("Nobody played for a while: it ended, and every fee was refunded.")
TABLE_DONE: Final = _("This table has played its last hand.")
NO_TOURNAMENT: Final = _("There is no tournament in this channel.")
#: How many ended tournaments are kept for their tables' last messages.
ENDED_KEPT: Final = 64


class Tournaments:
    """Every open tournament of this process's servers, and what hosts and players do."""

    def __init__(self, store: db.Store, clock: Clock, tables: TableService) -> None:
        self._store, self._clock, self._tables = store, clock, tables
        self.live: dict[int, Tournament] = {}
        #: Tournaments that ended lately (their tables show them as they close).
        self.ended_by_id: dict[int, Tournament] = {}
        #: Told when a tournament ends (the Discord layer posts its result).
        self.ended: Callable[[Tournament], None] = lambda t: None
        #: Makes each new tournament's secret seed (tests give a known one).
        self.new_seed: Callable[[], bytes] = lambda: secrets.token_bytes(32)
        self.mode = TournamentMode(store, clock, self)
        tables.flow.modes[KEY] = self.mode

    def of(self, table: Table) -> Tournament:
        """The tournament a tournament table plays for (open, or just ended)."""
        t = self.find(table)
        if t is None:
            raise TableError(_("This tournament has ended."))
        return t

    def find(self, table: Table) -> Tournament | None:
        """The tournament of a tournament table, or None (it ended before a restart)."""
        key = stacks_of(table).tournament_id
        return self.live.get(key) or self.ended_by_id.get(key)

    def in_channel(self, channel_id: int) -> Tournament | None:
        """The open tournament with a table in this channel, or None."""
        return next((t for t in self.live.values() if channel_id in t.channels), None)

    def ended_in(self, channel_id: int) -> Tournament | None:
        """The last tournament that ended in this channel (while it is kept), or None."""
        ended = reversed(self.ended_by_id.values())
        return next((t for t in ended if channel_id in t.channels), None)

    def _here(self, channel_id: int) -> tuple[Tournament, Table]:
        t = self.in_channel(channel_id)
        table = None if t is None else self._tables_of(t)[t.channels.index(channel_id)]
        if t is None or table is None:
            raise TableError(NO_TOURNAMENT)
        return t, table

    def _tables_of(self, t: Tournament) -> list[Table | None]:
        """Each table of ``t`` by its index; None where it is not live (closed, not resumed)."""
        return [self._tables.registry.tables.get(table_id) for table_id in t.table_ids]

    def standings(self, t: Tournament) -> list[R.Entry]:
        """Every player, best first (all tables of a duplicate tournament together)."""
        entries, hand = [], 0
        for index, table in enumerate(self._tables_of(t)):
            if index in t.results:
                entries.extend(t.results[index])
                hand = max(hand, t.fmt.hands)
            elif table is not None:
                entries.extend(stacks_of(table).entries([e.user_id for e in t.at(index)]))
                hand = max(hand, table.round_no)
        seats = max((len(t.at(i)) for i in range(len(t.channels))), default=0)
        return R.standings(entries, hand, seats)

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        host: Player,
        fmt: R.Format,
        *,
        duplicate: bool = False,
        prize: int = 0,
        timers: tuple[int, int, int] = (30, 30, 300),
    ) -> tuple[Tournament, TableSnapshot]:
        """A tournament taking entries at a new table in this channel; with ``duplicate``,
        this host's duplicate tournament still taking entries here gets one more table.
        ``prize``: chips the host puts in the pool (only without a fee)."""
        if self.in_channel(channel_id) is not None:
            raise TableError(_("This channel already has a tournament."))
        if prize and fmt.check().fee:
            raise TableError(
                _("A tournament with an entry fee pays its prizes from the fees: leave prize out.")
            )
        for t in self.live.values():
            filling = t.duplicate and t.status is Status.REGISTERING
            if duplicate and filling and (t.guild_id, t.host_id) == (guild_id, host.user_id):
                return t, await self._add_table(t, channel_id)
        seed = self.new_seed()
        t = Tournament(0, guild_id, host.user_id, fmt, 0, duplicate, seed, timers)
        t.tournament_id, t.pool_round_id = await self._store.tournaments.create(
            guild_id,
            channel_id,
            host.user_id,
            json.dumps(asdict(fmt), sort_keys=True),
            commitment(seed),
            t.document(),
        )
        self.live[t.tournament_id] = t
        try:
            snapshot = await self._add_table(t, channel_id)
            if prize:
                t.pool = prize
                await self._pay_in(t, host.user_id, prize, "Funding the prize pool", None)
        except BaseException:
            await self._end(t, _("The tournament could not open."))
            raise
        return t, snapshot

    async def _add_table(self, t: Tournament, channel_id: int) -> TableSnapshot:
        table = entries_table(t, channel_id, self._clock.now())
        snapshot = await self._tables.opening.open_for(table)
        t.channels.append(channel_id)
        t.table_ids.append(table.table_id)
        try:
            await self._store.tournaments.save(t.tournament_id, t.document())
        except BaseException:
            del t.channels[-1], t.table_ids[-1]
            await self._tables.close(table.table_id, _("The tournament could not open."))
            raise
        return snapshot

    async def _pay_in(
        self, t: Tournament, user_id: int, amount: int, what: str, table: Table | None
    ) -> None:
        """Take ``amount`` into the pool (``what`` names it in a refusal: "The entry fee",
        "Funding the prize pool"), with ``table``'s new document if given."""
        write = None if table is None else self._tables.flow.write(table)
        try:
            await self._store.tournaments.pay_in(
                t.tournament_id, t.guild_id, user_id, amount, t.document(), table=write
            )
        except db.InsufficientChips as error:
            raise NotEnoughChips(error.amount, error.balance, what) from None
        except db.PlayRefused as error:  # the payer's own limits, checked as the fee is staked
            raise blocked(error, fee=True) from None

    async def join(self, channel_id: int, player: Player) -> tuple[Tournament, Reply]:
        """Enter the channel's tournament: its fee paid with the seat, in one transaction."""
        t, table = self._here(channel_id)

        async def enter() -> None:
            if t.status is not Status.REGISTERING:
                raise TableError(_("This tournament has started: entries are closed."))
            if t.entrant(player.user_id) is not None:
                raise TableError(_("You are already in this tournament."))
            if len(table.seats) >= R.MAX_PLAYERS:
                raise TableFull(_("This table is full ({count} players).", count=R.MAX_PLAYERS))
            index = stacks_of(table).index
            t.entrants.append(Entrant(player.user_id, player.name, index, len(table.seats)))
            table.seats.append(SeatState(player))
            stacks_of(table).stacks[player.user_id] = Stack(t.fmt.stack, t.fmt.stack)
            t.pool += t.fmt.fee
            table.deadline = self._clock.now() + t.timers[2]
            try:
                await self._pay_in(t, player.user_id, t.fmt.fee, "The entry fee", table)
            except BaseException:
                del t.entrants[-1], table.seats[-1], stacks_of(table).stacks[player.user_id]
                t.pool -= t.fmt.fee
                raise

        _nothing, snapshot = await self._tables.changes.mutate(table, enter)
        return t, Reply(snapshot)

    async def start(self, channel_id: int, by: Player, *, may_manage: bool) -> Tournament:
        """Close entries and deal the first hand at every table (the host, or a manager)."""
        t, _table = self._here(channel_id)
        if by.user_id != t.host_id and not may_manage:
            raise NotAllowed(_("Only the host or someone with Manage Channels can start it."))
        if t.status is not Status.REGISTERING:
            raise TableError(_("This tournament has already started."))
        if len(t.entrants) < 2:
            raise TableError(_("A tournament needs at least two players."))
        if any(not t.at(index) for index in range(len(t.channels))):
            raise TableError(_("Every table of this tournament needs a player first."))
        t.status = Status.PLAYING
        try:
            await self._store.tournaments.save(t.tournament_id, t.document())
        except BaseException:
            t.status = Status.REGISTERING
            raise
        for table in filter(None, self._tables_of(t)):
            with contextlib.suppress(TableError):  # paused: it deals once the store is back
                await self._tables.changes.mutate(table, partial(self.after_hand, table))
        return t

    def table_done(self, table: Table) -> bool:
        """Whether the hand just paid was the table's last; if so its results are kept."""
        t, state = self.of(table), stacks_of(table)
        done = table.round_no >= t.fmt.hands or sum(s.playing for s in state.stacks.values()) < 2
        if done:
            t.results[state.index] = state.entries([e.user_id for e in t.at(state.index)])
        return done

    async def after_hand(self, table: Table) -> None:
        """Under the table's lock, after a hand is paid (or the start, or a restart): the
        next hand, the table's end, the tournament's end, or its end for want of players."""
        flow, index = self._tables.flow, stacks_of(table).index
        t = self.live.get(stacks_of(table).tournament_id)
        if t is None or not t.open:
            await flow.close(table, t.final[0] if t is not None and t.final else TABLE_DONE)
        elif t.status is Status.REGISTERING:
            await flow.save(table)
        elif index in t.results:
            if len(t.results) == len(t.channels):
                await self._finish(t, table)
            else:
                await flow.close(table, TABLE_DONE)
        elif table.round_no and self._clock.now() - table.idle_since >= t.timers[2]:
            await self._end(t, IDLE_END, table)
        else:
            for seat in table.seats:
                stack = stacks_of(table).stacks[seat.player.user_id]
                stack.chips_before, seat.leaving = stack.chips, not stack.playing
            await flow.open_betting(table)

    async def idle_end(self, table: Table) -> None:
        """Entries ran out of time with nobody starting it: it ends, every fee refunded."""
        await self._end(self.of(table), IDLE_END, table)

    async def _finish(self, t: Tournament, table: Table) -> None:
        """Rank everyone, pay the prizes (up to the chip ceiling), reveal the seed, close."""
        ranking = self.standings(t)
        paid = R.prizes(t.pool, t.fmt.split, len(ranking))
        prizes = paid + [0] * (len(ranking) - len(paid))
        places = [
            Place(e.user_id, t.channels[e.table], n, e.chips, e.out_after, prize)
            for n, (e, prize) in enumerate(zip(ranking, prizes, strict=True), start=1)
        ]
        t.status, t.final = Status.FINISHED, standings_lines(t, ranking, paid)
        try:
            done = await self._store.tournaments.finish(
                t.tournament_id,
                t.guild_id,
                places,
                (commitment(t.seed), t.seed.hex()),
                t.document(),
                winner_key=TOURNAMENT_WINNER.key,
            )
        except BaseException:
            t.status, t.final = Status.PLAYING, []
            raise
        # The last hand's achievements, the winner's, and what the chip ceiling kept.
        t.final.extend(table.events)
        names = {str(e.user_id): shown_name(e.name) for e in t.entrants}
        t.final.extend([*announcements(done.awarded, names), *_unpaid_lines(t, done.unpaid)])
        self._forget(t)
        await self._tables.flow.close(table, TABLE_DONE)

    async def cancel(self, channel_id: int, by: Player, *, may_manage: bool) -> Tournament:
        """End the tournament now, refunding every fee (the host, or a manager)."""
        t, _table = self._here(channel_id)
        if by.user_id != t.host_id and not may_manage:
            raise NotAllowed(_("Only the host or someone with Manage Channels can cancel it."))
        await self._end(
            t, _("Cancelled by {host}. Every fee was refunded.", host=shown_name(by.name))
        )
        return t

    async def stop_in_guild(self, guild_id: int, reason: str) -> list[Tournament]:
        """Cancel every open tournament of the server (an admin stopped all play)."""
        stopped = [t for t in self.live.values() if t.guild_id == guild_id]
        for t in stopped:
            await self._end(t, reason)
        return stopped

    async def _end(self, t: Tournament, reason: str, locked: Table | None = None) -> None:
        """End it without a winner: every fee refunded (up to the chip ceiling), the seed
        revealed, each table closed (``locked``: the one whose lock the caller holds)."""
        status, final = t.status, t.final
        t.status, t.final = Status.CANCELLED, [reason]
        try:
            voided = await self._store.tournaments.cancel(
                t.tournament_id, reason, (commitment(t.seed), t.seed.hex()), t.document()
            )
            t.final.extend(_unpaid_lines(t, voided.unpaid))
        except TournamentClosed:
            pass  # it ended meanwhile (another table's timer, another command)
        except BaseException:
            t.status, t.final = status, final
            raise
        self._forget(t)
        for table in self._tables_of(t):
            if table is not None and table is not locked:
                self._tables.close_soon(table.table_id, reason)
        if locked is not None:
            await self._tables.flow.close(locked, reason)

    def _forget(self, t: Tournament) -> None:
        """``t`` ended: its result is told; its tables still show it until they close."""
        self.live.pop(t.tournament_id, None)
        self.ended_by_id[t.tournament_id] = t
        while len(self.ended_by_id) > ENDED_KEPT:
            del self.ended_by_id[next(iter(self.ended_by_id))]
        self.ended(t)

    async def resume(self, guild_ids: Sequence[int] | None = None) -> None:
        """Before the tables resume: every stored open tournament of these servers (all
        when None) is live again. One that cannot be read is refunded."""
        for stored in await self._store.tournaments.open_tournaments(guild_ids):
            key, text = stored.tournament_id, stored.state_json
            if key in self.live:
                continue
            try:
                self.live[key] = Tournament.restore(stored)
            except UnreadableTournament as error:
                log.warning("tournament %s: %s; refunding it", key, error)
                await self._store.tournaments.cancel(key, str(error), None, text)

    async def settle_resumed(self) -> None:
        """After the tables resumed: one stopped between its last table's end and its
        prizes is finished; one whose tables are all gone is refunded; a table whose
        tournament ended (a stop came between the end and the table's close) closes."""
        for table in list(self._tables.registry.tables.values()):
            if table.mode == KEY and stacks_of(table).tournament_id not in self.live:
                await self._tables.close(table.table_id, TABLE_DONE)
        for t in list(self.live.values()):
            tables = [x for x in self._tables_of(t) if x is not None]
            if not tables:
                await self._end(t, _("Its tables could not resume: every fee was refunded."))
            elif t.status is Status.PLAYING and len(t.results) == len(t.channels):
                await self._tables.changes.mutate(tables[0], partial(self._finish, t, tables[0]))


def _unpaid_lines(t: Tournament, unpaid: Mapping[int, int]) -> list[Text]:
    """What the chip ceiling kept from each player of ``t`` (by user id), as lines."""
    names = {e.user_id: shown_name(e.name) for e in t.entrants}
    return [unpaid_line(names.get(user, str(user)), over) for user, over in unpaid.items()]
