"""Live tournaments: entries, sealed bets, the hands, eliminations, the end; resumed after a stop.

The hands are dealt and played by the engine (``bot.engine.Round``) on tournament chips,
which never leave the tournament. Economy chips move only through the prize pool
(db.ops.tournaments). Every change runs under the tournament's lock and is stored before
it is answered; a write that fails leaves the tournament as the store has it.

Each hand's shoe is ``continuation_seed(seed, hand)`` of one seed committed (its SHA-256 in
the shoes table) when the tournament is created, and revealed when it ends: every table of
a duplicate tournament deals the same cards to the same seats, and anyone can check them
with ``python -m bot verify``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from typing import Final

import db
from bot.clock import Clock
from bot.engine import Action, Round, Shoe, commitment, continuation_seed
from bot.engine.analysis import infinite_lookup
from bot.i18n import Text, _, signed
from bot.shown_names import shown_name
from bot.tables import achievements
from bot.tables.errors import TableError
from bot.tables.play_words import refused_text
from bot.tables.players import Player
from bot.tables.refusals import judged
from bot.tournaments import rules as R
from bot.tournaments.state import (
    Entrant,
    Phase,
    Status,
    TableState,
    Tournament,
    UnreadableTournament,
    document,
    format_json,
    restore,
)
from db.tournament_store import EliminationRow, Place, TournamentClosed

log = logging.getLogger(__name__)

#: Shows a tournament after it changed (the cog edits its messages); not awaited.
Publish = Callable[[Tournament], None]


#: The line each table of a resumed tournament shows until its next hand.
BACK: Final = _("The bot restarted: this tournament is back, with every stack and bet as it was.")


#: Why a tournament nobody plays at ends.
IDLE_END: Final = _("Nobody played for a while: it ended, and every fee was refunded.")


class TournamentError(Exception):
    """A refusal: the text (its first argument, a catalog message) says why, for the player;
    nothing changed."""


def _name(entrant: Entrant) -> str:
    return shown_name(entrant.name)


class TournamentService:
    """Every open tournament of this process, and what hosts and players may do in them."""

    def __init__(self, store: db.Store, *, clock: Clock, publish: Publish | None = None) -> None:
        self._store = store
        self._clock = clock
        self.publish: Publish = publish or (lambda t: None)
        self.live: dict[int, Tournament] = {}
        #: Makes each new tournament's secret seed (tests give a known one).
        self.new_seed: Callable[[], bytes] = lambda: secrets.token_bytes(32)

    # ----------------------------------------------------------------- reading

    def in_channel(self, channel_id: int) -> Tournament | None:
        """The open tournament with a table in this channel, or None."""
        for t in self.live.values():
            if t.open and t.table_of(channel_id) is not None:
                return t
        return None

    def _here(self, channel_id: int) -> tuple[Tournament, TableState]:
        t = self.in_channel(channel_id)
        table = None if t is None else t.table_of(channel_id)
        if t is None or table is None:
            raise TournamentError(_("There is no tournament in this channel."))
        return t, table

    def standings(self, t: Tournament) -> list[R.Entry]:
        """Every player, best first (all tables of a duplicate tournament together)."""
        hand = max((table.hand_no for table in t.tables), default=0)
        return R.standings((e.entry() for e in t.entrants), hand, t.seats())

    # ----------------------------------------------------------------- changes

    async def _change(self, t: Tournament, step: Callable[[], Awaitable[None]]) -> None:
        """Run ``step`` under the lock; on any failure the tournament is left as it was
        (a refusal changes nothing; a failed write was rolled back in the store)."""
        async with t.lock:
            if not t.open:
                raise TournamentError(_("This tournament has ended."))
            before = document(t)
            try:
                await step()
            except BaseException:
                self._reload(t, before)
                raise
        self._arm(t)
        self.publish(t)

    def _reload(self, t: Tournament, text: str) -> None:
        back = restore(t.tournament_id, t.guild_id, t.host_id, t.pool_round_id, text)
        for name in ("status", "pool", "tables", "entrants", "final", "idle_since"):
            setattr(t, name, getattr(back, name))

    async def _save(self, t: Tournament) -> None:
        await self._store.tournaments.save(t.tournament_id, document(t))

    # ----------------------------------------------------------------- entering

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
    ) -> Tournament:
        """Open a tournament taking entries in this channel. With ``duplicate``, a duplicate
        tournament this host is still filling in this server gets this channel as one more
        table instead. ``prize``: chips the host puts in the pool (only without a fee)."""
        fmt.check()
        if self.in_channel(channel_id) is not None:
            raise TournamentError(_("This channel already has a tournament."))
        if prize and fmt.fee:
            raise TournamentError(
                "A tournament with an entry fee pays its prizes from the fees: leave prize out."
            )
        if duplicate:
            for t in self.live.values():
                if (
                    t.duplicate
                    and t.guild_id == guild_id
                    and t.host_id == host.user_id
                    and t.status is Status.REGISTERING
                ):

                    async def add_table(t: Tournament = t) -> None:
                        t.tables.append(TableState(channel_id))
                        await self._save(t)

                    await self._change(t, add_table)
                    return t
        now = self._clock.now()
        seed = self.new_seed()
        t = Tournament(
            tournament_id=0,
            guild_id=guild_id,
            host_id=host.user_id,
            fmt=fmt,
            pool_round_id=0,
            duplicate=duplicate,
            seed=seed,
            bet_s=timers[0],
            action_s=timers[1],
            idle_s=timers[2],
            idle_since=now,
            tables=[TableState(channel_id)],
        )
        t.tournament_id, t.pool_round_id = await self._store.tournaments.create(
            guild_id, channel_id, host.user_id, format_json(fmt), commitment(seed), document(t)
        )
        self.live[t.tournament_id] = t
        if prize:

            async def fund() -> None:
                t.pool = prize
                await self._pay_in(t, host.user_id, prize, _("funding the prize pool"))

            try:
                await self._change(t, fund)
            except TournamentError:
                await self._close(t, _("The host could not fund the prize pool."))
                raise
        self._arm(t)
        return t

    async def _pay_in(self, t: Tournament, user_id: int, amount: int, what: Text) -> None:
        try:
            await self._store.tournaments.pay_in(
                t.tournament_id, t.guild_id, user_id, amount, document(t)
            )
        except db.InsufficientChips as error:
            raise TournamentError(
                _(
                    "You have {balance} chips: not enough for {what} ({amount} chips).",
                    balance=error.balance,
                    what=what,
                    amount=amount,
                )
            ) from None
        except db.PlayRefused as error:  # the payer's own limits, checked as the fee is staked
            raise TournamentError(refused_text(error)) from None

    async def attach_message(self, t: Tournament, channel_id: int, message_id: int) -> None:
        """Remember the table message of this channel (it is edited after a restart too)."""
        table = t.table_of(channel_id)
        if table is None:
            return

        async def attach() -> None:
            table.message_id = message_id
            await self._save(t)

        with contextlib.suppress(TournamentError, TournamentClosed):
            await self._change(t, attach)

    async def join(self, channel_id: int, player: Player) -> Tournament:
        """Enter the channel's tournament, paying its fee."""
        t, table = self._here(channel_id)

        async def enter() -> None:
            if t.status is not Status.REGISTERING:
                raise TournamentError(_("This tournament has started: entries are closed."))
            if t.entrant(player.user_id) is not None:
                raise TournamentError(_("You are already in this tournament."))
            seated = t.at(table)
            if len(seated) >= R.MAX_PLAYERS:
                raise TournamentError(
                    _("This table is full ({count} players).", count=R.MAX_PLAYERS)
                )
            index = t.tables.index(table)
            stack = t.fmt.stack
            t.entrants.append(
                Entrant(player.user_id, player.name, index, len(seated), stack, stack)
            )
            t.pool += t.fmt.fee
            t.idle_since = self._clock.now()
            await self._pay_in(t, player.user_id, t.fmt.fee, _("the entry fee"))

        await self._change(t, enter)
        return t

    async def start(self, channel_id: int, by: Player, *, may_manage: bool) -> Tournament:
        """Close entries and deal the first hand at every table (the host, or a manager)."""
        t, _table = self._here(channel_id)

        async def begin() -> None:
            if by.user_id != t.host_id and not may_manage:
                raise TournamentError(
                    _("Only the host or someone with Manage Channels can start it.")
                )
            if t.status is not Status.REGISTERING:
                raise TournamentError(_("This tournament has already started."))
            if len(t.entrants) < 2:
                raise TournamentError(_("A tournament needs at least two players."))
            empty = [table for table in t.tables if not t.at(table)]
            if empty:
                raise TournamentError(_("Every table of this tournament needs a player first."))
            t.status = Status.PLAYING
            t.idle_since = self._clock.now()
            for table in t.tables:
                self._open_hand(t, table)
            await self._save(t)

        await self._change(t, begin)
        return t

    async def cancel(self, channel_id: int, by: Player, *, may_manage: bool) -> Tournament:
        """End the tournament now, refunding every fee (the host, or a manager)."""
        t, _table = self._here(channel_id)
        if by.user_id != t.host_id and not may_manage:
            raise TournamentError(_("Only the host or someone with Manage Channels can cancel it."))
        await self._close(
            t, _("Cancelled by {host}. Every fee was refunded.", host=shown_name(by.name))
        )
        return t

    async def stop_in_guild(self, guild_id: int, reason: Text) -> list[Tournament]:
        """Cancel every open tournament of the server (an admin stopped all play): every fee,
        and a host's prize pool, refunded, the seed revealed, ``reason`` on its tables."""
        stopped = []
        for t in [t for t in self.live.values() if t.guild_id == guild_id and t.open]:
            with contextlib.suppress(TournamentError, TournamentClosed):  # it ended meanwhile
                await self._close(t, reason)
                stopped.append(t)
        return stopped

    # ----------------------------------------------------------------- betting

    async def bet(self, channel_id: int, player: Player, amount: int, *, secret: bool) -> str:
        """Seal the player's bet for this hand; the note for them."""
        t, table = self._here(channel_id)
        note = ""

        async def seal() -> None:
            nonlocal note
            entrant = t.entrant(player.user_id)
            if entrant is None or t.tables[entrant.table] is not table:
                raise TournamentError(_("You are not playing at this table."))
            if table.phase is not Phase.BETTING:
                raise TournamentError(_("Bets are closed: wait for the next hand."))
            if not entrant.playing:
                raise TournamentError(_("You are out of this tournament."))
            if entrant.bet is not None:
                raise TournamentError(_("Your bet for this hand is already sealed."))
            low, high = min(t.fmt.min_bet, entrant.chips), min(t.fmt.max_bet, entrant.chips)
            if not low <= amount <= high:
                raise TournamentError(
                    _("Bet between {low} and {high} chips this hand.", low=low, high=high)
                )
            if secret and entrant.secret_used:
                raise TournamentError(_("You have already used your one secret bet."))
            entrant.bet, entrant.secret = amount, secret
            entrant.secret_used = entrant.secret_used or secret
            t.idle_since = self._clock.now()
            if all(e.bet is not None for e in t.at(table) if e.playing):
                await self._deal(t, table)
            else:
                await self._save(t)
            if secret:
                note = _("Your secret bet of {amount} chips is sealed.", amount=amount)
            else:
                note = _("Your bet of {amount} chips is sealed.", amount=amount)

        await self._change(t, seal)
        return note

    # ----------------------------------------------------------------- playing

    async def act(
        self, tournament_id: int, channel_id: int, hand_no: int, player: Player, action: Action
    ) -> None:
        """A button on the table message: the player's decision on their current hand."""
        t = self.live.get(tournament_id)
        table = None if t is None else t.table_of(channel_id)
        if t is None or table is None:
            raise TournamentError(_("This tournament has ended."))

        async def press() -> None:
            round_ = table.round
            if table.phase is not Phase.PLAYING or table.hand_no != hand_no or round_ is None:
                raise TournamentError(_("That hand is over."))
            entrant = t.entrant(player.user_id)
            if entrant is None or not round_.has_player(entrant.pid):
                raise TournamentError(_("You have no hand at this table."))
            try:
                verdict = judged(round_, entrant.pid, action)
            except TableError as error:
                raise TournamentError(error.args[0]) from None
            free = entrant.chips - sum(hand.stake for hand in round_.hands(entrant.pid))
            if verdict.cost > free:
                raise TournamentError(
                    _(
                        "That needs {cost} tournament chips and you have {free} left.",
                        cost=verdict.cost,
                        free=free,
                    )
                )
            round_.play(verdict)
            t.idle_since = self._clock.now()
            if round_.is_finished:
                await self._settle(t, table)
            else:
                await self._save(t)

        await self._change(t, press)

    # ----------------------------------------------------------------- the steps

    def _open_hand(self, t: Tournament, table: TableState) -> None:
        table.hand_no += 1
        table.phase = Phase.BETTING
        table.deadline = self._clock.now() + t.bet_s
        table.events = []
        for e in t.at(table):
            e.bet, e.secret, e.chips_before = None, False, e.chips

    async def _deal(self, t: Tournament, table: TableState) -> None:
        """Reveal the sealed bets (the minimum for whoever did not bet) and deal the hand."""
        players = [e for e in t.at(table) if e.playing]
        for e in players:
            if e.bet is None:
                e.bet = min(t.fmt.min_bet, e.chips)
                table.events.append(
                    _(
                        "{player} did not bet in time and bets the minimum, {amount} chips.",
                        player=_name(e),
                        amount=e.bet,
                    )
                )
        rules = t.rules
        shoe = Shoe(rules.decks, rules.penetration, continuation_seed(t.seed, table.hand_no))
        bets = [(e.pid, [e.bet or 0]) for e in players]
        table.round = Round.deal(rules, shoe, bets)
        table.phase = Phase.PLAYING
        table.deadline = self._clock.now() + t.action_s
        if table.round.is_finished:
            await self._settle(t, table)
        else:
            await self._save(t)

    def _auto_play(self, t: Tournament, table: TableState) -> None:
        """Play every hand still waiting by basic strategy, saying so on the table."""
        round_ = table.round
        assert round_ is not None
        lookup = infinite_lookup(t.rules)
        for pid in round_.players_to_act():
            entrant = t.entrant(int(pid))
            assert entrant is not None
            while pid in round_.players_to_act():
                index = round_.current_hand_index(pid) or 0
                cards = round_.hands(pid)[index].cards
                free = entrant.chips - sum(hand.stake for hand in round_.hands(pid))
                legal = {a for a in round_.legal_actions(pid) if round_.judge(pid, a).cost <= free}
                round_.act(pid, lookup.advise(list(cards), round_.dealer_up_card, legal))
            table.events.append(
                _(
                    "{player} did not act in time: basic strategy played their hand.",
                    player=_name(entrant),
                )
            )

    async def _settle(self, t: Tournament, table: TableState) -> None:
        """Pay the hand in tournament chips, reveal secret bets, eliminate, go on or end."""
        round_ = table.round
        assert round_ is not None
        settlement = round_.settlement()
        lines: list[str] = [
            _(
                "Dealer: {cards} ({total}).",
                cards=" ".join(str(c) for c in settlement.dealer_cards),
                total=settlement.dealer_total,
            )
        ]
        for e in t.at(table):
            if not round_.has_player(e.pid):
                continue
            net = settlement.player(e.pid).net
            e.chips += net
            if e.secret:
                lines.append(
                    _(
                        "{player}'s secret bet was {amount} chips: {net} chips, {chips} now.",
                        player=_name(e),
                        amount=e.bet,
                        net=signed(net),
                        chips=e.chips,
                    )
                )
            else:
                lines.append(
                    _(
                        "{player}: {net} chips, {chips} now.",
                        player=_name(e),
                        net=signed(net),
                        chips=e.chips,
                    )
                )
        earned = achievements.earned(round_, achievements.TOURNAMENT_HAND_CHECKS)
        table.round = None
        table.deadline = None
        hand = table.hand_no
        seated = t.at(table)
        still = [e for e in seated if e.out_after is None]
        rows: list[EliminationRow] = []
        news: list[str] = []
        if t.fmt.is_elimination(hand):
            out = R.eliminated([e.stack() for e in still], hand, len(seated))
            for e in still:
                gone = out is not None and out.user_id == e.user_id
                if gone:
                    e.out_after = hand
                    lines.append(
                        _(
                            "{player} has the fewest chips after hand {hand} and is out.",
                            player=_name(e),
                            hand=hand,
                        )
                    )
                rows.append(
                    EliminationRow(table.channel_id, hand, e.user_id, e.chips_before, e.chips, gone)
                )
        table.results = [*(e for e in table.events if e != BACK), *lines]
        table.events = []
        if (
            hand >= t.fmt.hands
            or not [e for e in seated if e.playing]
            or len([e for e in seated if e.out_after is None]) < 2
        ):
            table.phase = Phase.DONE
        else:
            self._open_hand(t, table)
            if self._clock.now() - t.idle_since >= t.idle_s:
                await self._close(
                    t,
                    IDLE_END,
                    locked=True,
                )
                return
        if rows or earned:
            awarded = await self._store.tournaments.record_elimination(
                t.tournament_id,
                t.guild_id,
                rows,
                document(t),
                survivor_key=achievements.TOURNAMENT_SURVIVOR.key,
                earned=earned,
            )
            news = achievements.announcements(awarded, self._names(t))
            table.results.extend(news)
        if all(other.phase is Phase.DONE for other in t.tables):
            await self._finish(t, news)
        elif not (rows or earned):
            await self._save(t)

    @staticmethod
    def _names(t: Tournament) -> dict[str, str]:
        """Each player's id and name as the tournament's texts show it."""
        return {e.pid: _name(e) for e in t.entrants}

    async def _finish(self, t: Tournament, news: Sequence[str] = ()) -> None:
        """Rank everyone, pay the prizes, reveal the seed, close. ``news``: achievements
        the last hand earned, announced with the result (the table's Latest line is gone)."""
        ranking = self.standings(t)
        paid = R.prizes(t.pool, t.fmt.split, len(ranking))
        places = []
        final: list[str] = []
        for place, entry in enumerate(ranking, start=1):
            prize = paid[place - 1] if place <= len(paid) else 0
            entrant = t.entrant(entry.user_id)
            assert entrant is not None
            channel = t.tables[entrant.table].channel_id
            places.append(Place(entry.user_id, channel, place, entry.chips, entry.out_after, prize))
            if prize:
                line = _(
                    "{place}. {player}: {chips} tournament chips, wins {prize} chips",
                    place=place,
                    player=_name(entrant),
                    chips=entry.chips,
                    prize=prize,
                )
            else:
                line = _(
                    "{place}. {player}: {chips} tournament chips",
                    place=place,
                    player=_name(entrant),
                    chips=entry.chips,
                )
            final.append(line)
        t.status = Status.FINISHED
        t.final = final
        for table in t.tables:
            table.deadline = None
        done = await self._store.tournaments.finish(
            t.tournament_id,
            t.guild_id,
            places,
            (commitment(t.seed), t.seed.hex()),
            document(t),
            winner_key=achievements.TOURNAMENT_WINNER.key,
        )
        t.final.extend([*news, *achievements.announcements(done.awarded, self._names(t))])

    async def _close(self, t: Tournament, reason: Text, *, locked: bool = False) -> None:
        """End the tournament without a winner: every fee refunded, the seed revealed."""

        async def end() -> None:
            t.status = Status.CANCELLED
            t.final = [reason]
            for table in t.tables:
                table.deadline = None
                table.round = None
            await self._store.tournaments.cancel(
                t.tournament_id, reason, (commitment(t.seed), t.seed.hex()), document(t)
            )

        if locked:
            await end()
            return
        await self._change(t, end)

    # ----------------------------------------------------------------- time

    def _due(self, t: Tournament) -> float | None:
        if t.status is Status.REGISTERING:
            return t.idle_since + t.idle_s
        if t.status is not Status.PLAYING:
            return None
        times = [table.deadline for table in t.tables if table.deadline is not None]
        return min(times) if times else None

    def _arm(self, t: Tournament) -> None:
        """(Re)start the tournament's timer for its next deadline."""
        current = asyncio.current_task()
        if t.timer is not None and t.timer is not current:
            t.timer.cancel()
        t.timer = None
        if not t.open:
            self.live.pop(t.tournament_id, None)
            return
        due = self._due(t)
        if due is not None:
            t.timer = asyncio.create_task(
                self._wake(t, due), name=f"table tournament {t.tournament_id}"
            )

    async def _wake(self, t: Tournament, due: float) -> None:
        await self._clock.sleep_until(due)
        try:
            await self._change(t, lambda: self._on_time(t))
        except (TournamentError, TournamentClosed):
            pass
        except Exception:
            log.exception("tournament %s: a timed step failed", t.tournament_id)

    async def _on_time(self, t: Tournament) -> None:
        now = self._clock.now()
        if t.status is Status.REGISTERING:
            if now - t.idle_since >= t.idle_s:
                await self._close(
                    t,
                    IDLE_END,
                    locked=True,
                )
            return
        for table in t.tables:
            if table.deadline is None or table.deadline > now or not t.open:
                continue
            if table.phase is Phase.BETTING:
                await self._deal(t, table)
            elif table.phase is Phase.PLAYING and table.round is not None:
                self._auto_play(t, table)
                await self._settle(t, table)

    # ----------------------------------------------------------------- start-up and stop

    async def resume(self) -> list[Tournament]:
        """Make every stored open tournament live again, where it was. A deadline that
        passed while the bot was down starts again in full. One that cannot be read is
        cancelled, its fees refunded."""
        resumed = []
        for stored in await self._store.tournaments.open_tournaments():
            if stored.tournament_id in self.live:
                continue
            try:
                t = restore(
                    stored.tournament_id,
                    stored.guild_id,
                    stored.host_id,
                    stored.pool_round_id,
                    stored.state_json,
                )
            except UnreadableTournament as error:
                log.warning("tournament %s: %s; refunding it", stored.tournament_id, error)
                await self._store.tournaments.cancel(
                    stored.tournament_id, str(error), None, stored.state_json
                )
                continue
            now = self._clock.now()
            for table in t.tables:
                if table.deadline is not None and table.deadline <= now:
                    full = t.bet_s if table.phase is Phase.BETTING else t.action_s
                    table.deadline = now + full
            if t.status is Status.REGISTERING and t.idle_since + t.idle_s <= now:
                t.idle_since = now
            self.live[t.tournament_id] = t
            if t.status is Status.PLAYING and all(x.phase is Phase.DONE for x in t.tables):
                # Stopped after the last hand's document and before the end was stored.
                await self._change(t, self._finisher(t))
            for table in t.tables:
                table.events.append(BACK)
            self._arm(t)
            resumed.append(t)
        return resumed

    def _finisher(self, t: Tournament) -> Callable[[], Awaitable[None]]:
        return lambda: self._finish(t)

    async def suspend(self) -> None:
        """Stop every timer (a graceful stop); the tournaments resume at the next start."""
        for t in self.live.values():
            if t.timer is not None:
                t.timer.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await t.timer
