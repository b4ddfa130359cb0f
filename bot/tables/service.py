"""The table service: every live table, one per channel, and what players may do at it.

Each public method validates first (a TableError changes nothing), then moves
chips through the store before it changes the engine's round, all under the
table's lock; the new snapshot is published after the lock is released.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping, Sequence

import db
from bot.clock import Clock
from bot.engine import Action, Rules
from bot.i18n import ENGLISH, Text, _
from bot.shown_names import shown_name
from bot.tables.advice import Advice
from bot.tables.changes import Publish, TableChanges, TimerGate, every_timer_acts
from bot.tables.coach import Coach
from bot.tables.decisions import Playing
from bot.tables.errors import NotAllowed, NothingToDo, StaleButton, TablePaused
from bot.tables.fairness import Fairness
from bot.tables.flow import RoundFlow, ShoeFactory
from bot.tables.opening import Opening
from bot.tables.players import Player
from bot.tables.practice import (
    NO_QUIZ,
    NOT_A_COUNT,
    NOT_PRACTICE,
    count_text,
    quiz_verdict,
    read_count,
    table_count,
)
from bot.tables.preset_limits import table_rules
from bot.tables.press_checks import player_in_round
from bot.tables.registry import TableRegistry
from bot.tables.resume import Resumer, ResumeReport
from bot.tables.side_bets import rules_lines, side_bet_rules
from bot.tables.snapshot import Reply, TableSnapshot
from bot.tables.staking import Betting


class TableService:
    """Live blackjack tables, one per channel: what the cogs call.

    Every call that changes a table answers with one shape, a ``Reply``: the table as
    it now stands and a note for the caller ("" when there is nothing to say).

    The work is done by its parts, each built here with what it uses: the registry
    (which tables are live), the round flow (the steps of a round), the changes (a
    change under the table's lock, the timers, the pause), betting (bets and seats),
    playing (the players' decisions), the resumer (stored tables made live again)
    and opening (a new table and its message).
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
        self._store = store
        self.registry = TableRegistry()
        self.flow = RoundFlow(store, clock, self.registry, shoe_factory)
        self.changes = TableChanges(store, clock, self.registry, self.flow, publish)
        self.betting = Betting(store, clock, self.registry, self.flow, self.changes)
        self.playing = Playing(store, clock, self.registry, self.flow, self.changes)
        self.resumer = Resumer(store, self.registry, self.flow, self.changes)
        self.opening = Opening(store, clock, self.registry, self.flow, self.changes, self.resumer)
        self.advice = advice or Advice()  # charts, edges and Hint figures off the event loop
        self._closing: set[asyncio.Task[None]] = set()
        #: Every settled round's decisions graded in the advice's worker, after the round.
        self.coach = Coach(store, self.advice)
        self.flow.on_settled.append(self.coach.journal_settled)

    @property
    def shard_count(self) -> int:
        """SHARD_COUNT of this process (1 unsharded), stored with each table."""
        return self.flow.shard_count

    @shard_count.setter
    def shard_count(self, count: int) -> None:
        self.flow.shard_count = count

    def gate_timers(self, gate: TimerGate | None) -> None:
        """Let ``gate(table_id)`` decide whether a table's timer may act when it wakes (a
        table shown through interaction tokens only); None: every timer acts."""
        self.changes.timer_gate = gate or every_timer_acts

    # ----------------------------------------------------------- reading

    def table_in(self, channel_id: int) -> TableSnapshot | None:
        """The open table in this channel, or None."""
        return self.registry.table_in(channel_id)

    def open_tables(self) -> list[TableSnapshot]:
        """Every open table's latest snapshot."""
        return self.registry.open_tables()

    def get(self, table_id: str) -> TableSnapshot:
        """The table's latest snapshot; StaleButton if the id is unknown or closed."""
        return self.registry.get(table_id)

    def rules_of(self, table_id: str) -> Rules:
        """The table's rules (its preset with the table's bet limits)."""
        return self.registry.rules_of(table_id)

    def side_bet_lines(self, table_id: str) -> list[str]:
        """The side bets the table offers, with pay tables and exact house edges."""
        return self.registry.side_bet_lines(table_id)

    async def server_rules(self, guild_id: int) -> tuple[str, Rules, list[str]]:
        """What ``/blackjack start`` would open in the server now: its default preset, the
        rules with the server's limits, and the side bets it would offer."""
        settings = await self._store.get_guild_settings(guild_id)
        name = settings.default_preset
        rules = table_rules(name, settings, None, None)
        return name, rules, rules_lines(side_bet_rules(settings, rules), rules)

    def fairness(self, channel_id: int) -> Fairness:
        """The current shoe's commitment and the previous shoe's revealed seed."""
        return self.registry.fairness(channel_id)

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
        practice: bool = False,
    ) -> Reply:
        """Open a table in the channel with the host seated, and open betting at once;
        ``practice``: a counting trainer's table (its Count button, a quiz at the reshuffle)."""
        return await self.opening.start(
            guild_id,
            channel_id,
            host,
            preset=preset,
            min_bet=min_bet,
            max_bet=max_bet,
            warm=self.advice.warm,
            practice=practice,
        )

    async def attach_message(self, table_id: str, message_id: int) -> None:
        """Remember the table message; it is stored on each round for recovery."""
        await self.opening.attach_message(table_id, message_id)

    # ----------------------------------------------------------- seats and bets

    async def bet(
        self,
        channel_id: int,
        player: Player,
        amount: str,
        spots: int = 1,
        side: Mapping[str, int] | None = None,
        *,
        secret: bool = False,
        language: str = ENGLISH,
    ) -> Reply:
        """Place the player's bet for this round (and side bets, stake per spot by bet),
        seating them if there is room; ``amount`` is read as ``language`` writes it;
        ``secret``: a tournament's secret bet."""
        return await self.betting.bet(
            channel_id, player, amount, spots, side, secret=secret, language=language
        )

    def notice_due(self, user_id: int) -> Text | None:
        """The no-value notice to say with the answer to the player's first bet, once."""
        return self.betting.notice_due(user_id)

    async def rebet(self, table_id: str, round_no: int, player: Player, factor: int) -> Reply:
        """The Bet buttons: repeat the player's last bet (factor 1) or double it (factor 2)."""
        return await self.betting.rebet(table_id, round_no, player, factor)

    async def join(self, channel_id: int, player: Player) -> Reply:
        """Seat the player at the channel's table (they play from the next deal)."""
        return await self.betting.join(channel_id, player)

    async def join_table(self, table_id: str, player: Player) -> Reply:
        """Seat the player at this table: its Join button."""
        return await self.betting.join_table(table_id, player)

    async def leave(self, channel_id: int, player: Player) -> Reply:
        """Stand up from the channel's table: now, or when the round ends."""
        return await self.betting.leave(channel_id, player)

    async def leave_table(self, table_id: str, player: Player) -> Reply:
        """Stand up from this table: its Leave button."""
        return await self.betting.leave_table(table_id, player)

    # ----------------------------------------------------------- playing

    async def act(self, table_id: str, round_no: int, player: Player, action: Action) -> Reply:
        """Apply a button press to the player's first unfinished hand (or insurance decision);
        NotEnoughChips, and nothing changes, if its cost is more than the balance."""
        return await self.playing.act(table_id, round_no, player, action)

    async def hint(self, table_id: str, round_no: int, player: Player) -> Reply:
        """Basic-strategy advice for the player's current hand, in one sentence (the note)."""
        table = self.registry.table(table_id)
        async with table.lock:
            self.changes.check_open(table)
            pid = player_in_round(table, round_no, player.user_id)
            round_ = table.round
            assert round_ is not None
            legal = round_.legal_actions(pid)
            if not legal:
                raise NothingToDo(_("You have no decision to make right now."))
            index = round_.current_hand_index(pid)
            cards = list(round_.hands(pid)[index or 0].cards)
            up = round_.dealer_up_card
            snapshot = table.snapshot
            assert snapshot is not None
        return Reply(snapshot, await self.advice.hint(table.rules, cards, up, legal))

    async def count(self, table_id: str, player: Player) -> Reply:
        """A practice table's Hi-Lo count, for anyone who asks (the note)."""
        table = self.registry.table(table_id)
        async with table.lock:
            self.changes.check_open(table)
            if not table.practice:
                raise NotAllowed(NOT_PRACTICE)
            snapshot = table.snapshot
            assert snapshot is not None
            return Reply(snapshot, count_text(table_count(table)))

    async def answer_quiz(self, table_id: str, player: Player, text: str) -> Reply:
        """A player's answer to a practice table's count quiz, kept once; the verdict."""
        table = self.registry.table(table_id)
        async with table.lock:
            self.changes.check_open(table)
            if table.quiz is None:
                raise NothingToDo(NO_QUIZ)
            answer = read_count(text)
            if answer is None:
                raise NotAllowed(NOT_A_COUNT)
            shoe, running = table.quiz
            snapshot = table.snapshot
            assert snapshot is not None
        kept = await self._store.coach.record_quiz(
            table.guild_id, player.user_id, shoe, answer, running
        )
        if not kept:
            raise NothingToDo(_("You have answered this count quiz already."))
        return Reply(snapshot, quiz_verdict(answer, running))

    # ----------------------------------------------------------- closing

    async def stop(self, channel_id: int, by: Player, *, may_manage_channel: bool) -> Reply:
        """Close the table (the host, or anyone with Manage Channels); refund an open round."""
        table = self.registry.in_channel(channel_id)

        async def stop_table() -> None:
            if table.mode != "cash":
                raise NotAllowed(_("A tournament's table ends with it: see /tournament cancel."))
            if by.user_id != table.host_id and not may_manage_channel:
                raise NotAllowed(
                    _("Only the host or someone with Manage Channels can stop this table.")
                )
            reason = _("Stopped by {player}.", player=shown_name(by.name))
            if table.round is None:
                await self.flow.close(table, reason)
                return
            # Cards are out: the round plays out on its timers, so nobody (the host least of
            # all) can cancel a round they are losing. The table closes when it is settled.
            if table.closing:
                raise NothingToDo(_("This table already closes when this round ends."))
            table.closing = reason
            table.events.append(_("The table closes when this round ends."))
            await self.flow.save(table)

        _nothing, snapshot = await self.changes.mutate(table, stop_table)
        return Reply(snapshot)

    async def close(self, table_id: str, reason: str) -> None:
        """Close the table (its message is gone, or the bot cannot post); refund an open round.

        Closing a table that is already closed does nothing.
        """
        table = self.registry.tables.get(table_id)
        if table is None:
            return
        # Closed meanwhile (its round voided), or paused: it closes when its message is
        # found gone again after the store is back.
        with contextlib.suppress(StaleButton, TablePaused):
            await self.changes.mutate(table, lambda: self.flow.close(table, reason))

    def close_soon(self, table_id: str, reason: str) -> None:
        """``close`` the table without waiting for it: how a coordinator over several tables
        (a tournament) ends the others from under the lock of one of them."""
        task = asyncio.create_task(self.close(table_id, reason), name=f"table {table_id} end")
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    # ----------------------------------------------------------- start-up and stop

    async def check_shard_count(self) -> None:
        """ShardCountChanged if an open table was saved by a process with another SHARD_COUNT."""
        await self.resumer.check_shard_count()

    async def resume(self, guild_ids: Sequence[int] | None = None) -> ResumeReport:
        """Resume every stored open table of ``guild_ids`` (all when None); see ``Resumer``."""
        return await self.resumer.resume(guild_ids)

    async def suspend(self) -> None:
        """A graceful stop: steps in flight finish (each durable), every timer stops, then
        the strategy worker. Nothing is voided: every table resumes at the next start."""
        await self.changes.suspend()
        self.advice.close()
