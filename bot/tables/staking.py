"""Bets and seats: /bet and the Bet buttons, staked at once (the cards are dealt when
everyone has bet), and /join, /leave and their buttons."""

from __future__ import annotations

from collections.abc import Mapping

import db
from bot.bet_amount import (
    BetAmountError,
    needs_balance,
    parse_bet,
    short_of_chips,
    stake_words,
)
from bot.clock import Clock
from bot.i18n import ENGLISH, Text, _
from bot.tables.changes import TableChanges, TableStep
from bot.tables.chip_limit import at_the_limit, best_win
from bot.tables.errors import (
    BetRefused,
    NotEnoughChips,
    NotSeated,
    StaleButton,
    TableError,
    WrongPhase,
)
from bot.tables.flow import EVERYONE_LEFT, RoundFlow
from bot.tables.play_words import FIRST_BET_NOTICE, blocked
from bot.tables.players import Player
from bot.tables.press_checks import EARLIER_ROUND
from bot.tables.registry import TableRegistry
from bot.tables.side_bets import best_side_win, side_bet_refusal
from bot.tables.snapshot import Reply, TablePhase
from bot.tables.table import SeatState, Table


def spots_allowed(max_spots: int) -> Text:
    """The refusal for a number of hands the table does not allow."""
    if max_spots == 1:
        return _("You can play one hand at this table.")
    return _("You can play 1 to {count} hands at this table.", count=max_spots)


class Betting(TableStep):
    """Taking a seat, betting, and standing up."""

    def __init__(
        self,
        store: db.Store,
        clock: Clock,
        registry: TableRegistry,
        flow: RoundFlow,
        changes: TableChanges,
    ) -> None:
        super().__init__(store, clock, registry, flow, changes)
        #: Players known to have seen the no-value notice: no mark with each of their bets.
        self._noticed: set[int] = set()
        #: Players whose bet marked the notice seen the first time, until it is shown.
        self._unshown: set[int] = set()

    # ----------------------------------------------------------- bets

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
        """Place the player's bet for this round, seating them if there is room.

        ``amount`` is read as ``language`` writes numbers and amount words (``1.000`` is
        a thousand in Spanish). ``side``: side bets, stake per spot by bet ("21+3": 10),
        staked with the bet. ``secret``: the game mode's secret bet (a tournament's),
        hidden until it is paid.
        The stakes are taken at once; when every seated player has bet, the cards are dealt.
        A player's first bet marks the no-value notice seen, to be said with its answer
        (``notice_due``).
        """
        table = self._registry.in_channel(channel_id)
        bet = (amount, spots, side or {})
        (message, first), snapshot = await self._changes.mutate(
            table, lambda: self._place_bet(table, player, bet, language, secret, notice=True)
        )
        if first:
            self._unshown.add(player.user_id)
        return Reply(snapshot, message)

    def notice_due(self, user_id: int) -> Text | None:
        """The no-value notice, if the player's bet marked it seen for the first time and it
        is not said yet: said once, so it is given once."""
        if user_id not in self._unshown:
            return None
        self._unshown.discard(user_id)
        return FIRST_BET_NOTICE

    async def rebet(self, table_id: str, round_no: int, player: Player, factor: int) -> Reply:
        """The Bet buttons: repeat the player's last bet (factor 1) or double it (factor 2)."""
        table = self._registry.table(table_id)

        async def bet_again() -> tuple[str, bool]:
            if round_no != table.round_no:
                raise StaleButton(EARLIER_ROUND)
            if factor not in (1, 2):
                raise BetRefused(_("A bet can be repeated or doubled."))
            if not self._flow.mode_of(table).rebets:
                raise BetRefused(_("Bets here are placed with /bet."))
            last = table.last_bets.get(player.user_id)
            if last is None:
                raise BetRefused(_("You have no earlier bet at this table to repeat. Use /bet."))
            stake, spots = last
            side = table.last_side_bets.get(player.user_id, {})
            # Side bets the table no longer takes at that size are left out, not refused.
            if side_bet_refusal(table.side_bets, side) is not None:
                side = {}
            # Digits alone read the same in every language. The answer is the table: no
            # words go with it, so the notice waits for a /bet.
            return await self._place_bet(table, player, (str(stake * factor), spots, side), ENGLISH)

        (message, _first), snapshot = await self._changes.mutate(table, bet_again)
        return Reply(snapshot, message)

    async def _place_bet(
        self,
        table: Table,
        player: Player,
        bet: tuple[str, int, Mapping[str, int]],
        language: str,
        secret: bool = False,
        *,
        notice: bool = False,
    ) -> tuple[str, bool]:
        """The bet (amount as written, spots, side bets) staked: its receipt, and whether the
        no-value notice was marked seen by it (``notice``: mark it if not known seen)."""
        amount, spots, side = bet
        mode = self._flow.mode_of(table)
        seat = self._check_bet(table, player, spots, side)
        # A plain number needs no balance read: the debit below checks the balance anyway.
        read: int | None = None
        if needs_balance(amount, language=language):
            balance = await mode.purse.balance(table, player.user_id)
            # half, max and all are of what the side bets leave: ``all`` stakes everything.
            read = max(0, balance - sum(side.values()) * spots)
        low, high = mode.bet_limits(table, seat)
        try:
            stake = parse_bet(
                amount, language=language, balance=read, min_bet=low, max_bet=high, spots=spots
            )
        except BetAmountError as error:
            # The refusal as written (a Text), so it is told in the reader's language.
            raise BetRefused(error.args[0]) from None
        undo_secret = mode.note_secret(table, player.user_id, secret)
        side_amount = sum(side.values()) * spots
        notice = notice and player.user_id not in self._noticed
        try:
            staked = await self._take_stake(table, player, seat, (stake, spots, side), notice)
        except (db.BalanceLimitExceeded, db.InsufficientChips, db.PlayRefused) as error:
            undo_secret()
            raise _stake_refused(error, stake * spots + side_amount, read) from None
        if notice:
            self._noticed.add(player.user_id)
        if all(s.spots for s in table.seats):
            await self._flow.deal(table)
        receipt = _receipt(stake, spots, side_amount, staked.balance, secret, mode.sealed)
        return receipt, staked.first_notice

    def _check_bet(
        self, table: Table, player: Player, spots: int, side: Mapping[str, int]
    ) -> SeatState | None:
        """The player's seat (None: a new player, with room for them) if they may bet now
        on ``spots`` hands with these side bets; else the refusal."""
        self._flow.mode_of(table).check_seating(table, player, betting=True)
        if table.phase is not TablePhase.BETTING or table.round_id is None:
            raise WrongPhase(_("The cards are out: bet when the next round opens."))
        seat = table.seat_of(player.user_id)
        if seat is not None and seat.spots:
            raise BetRefused(
                _(
                    "You have already bet this round ({stake}).",
                    stake=stake_words(seat.bet, seat.spots),
                )
            )
        if not isinstance(spots, int) or not 1 <= spots <= table.rules.max_spots:
            raise BetRefused(spots_allowed(table.rules.max_spots))
        side_refused = side_bet_refusal(table.side_bets, side)
        if side_refused is not None:
            raise BetRefused(side_refused)
        if seat is None:
            self._registry.check_room(table)
        return seat

    async def _take_stake(
        self,
        table: Table,
        player: Player,
        seat: SeatState | None,
        bet: tuple[int, int, Mapping[str, int]],
        notice: bool,
    ) -> db.Staked:
        """Seat the player with ``bet`` (stake, spots, side bets) and take it through the
        purse, the table's new document (and with ``notice``, the no-value notice's mark) in
        the same transaction. A refused debit leaves the table as it was."""
        stake, spots, side = bet
        seated, idle_since = seat, table.idle_since
        if seat is None:
            seat = SeatState(player)
            table.seats.append(seat)
        seat.bet, seat.spots, seat.side = stake, spots, dict(side)
        table.idle_since = self._clock.now()
        try:
            return await self._flow.mode_of(table).purse.stake_bet(
                table,
                player.user_id,
                stake * spots,
                headroom=best_win(table.rules, stake, spots)
                + best_side_win(table.side_bets, side, spots),
                write=self._flow.write(table),
                side_amount=sum(side.values()) * spots,
                notice=notice,
            )
        except (db.BalanceLimitExceeded, db.InsufficientChips, db.PlayRefused):
            seat.bet = seat.spots = 0  # nothing changed after all
            seat.side = {}
            table.idle_since = idle_since
            if seated is None:
                table.seats.remove(seat)
            raise

    # ----------------------------------------------------------- seats

    async def join(self, channel_id: int, player: Player) -> Reply:
        """Seat the player at the channel's table (they play from the next deal)."""
        return await self._join(self._registry.in_channel(channel_id), player)

    async def join_table(self, table_id: str, player: Player) -> Reply:
        """Seat the player at this table: its Join button."""
        return await self._join(self._registry.table(table_id), player)

    async def _join(self, table: Table, player: Player) -> Reply:
        async def seat_player() -> bool:
            self._flow.mode_of(table).check_seating(table, player, betting=False)
            seat = table.seat_of(player.user_id)
            if seat is not None and not seat.leaving:
                raise TableError(_("You are already seated at this table."))
            if seat is not None:
                seat.leaving = False  # joining again cancels a pending leave
                await self._flow.save(table)
                return False
            self._registry.check_room(table)
            await self._store.ensure_account(table.guild_id, player.user_id)
            table.seats.append(SeatState(player))
            await self._flow.save(table)
            return True

        seated, snapshot = await self._changes.mutate(table, seat_player)
        note = await self._flow.seat_taken(table, player.user_id) if seated else ""
        return Reply(snapshot, note)

    async def leave(self, channel_id: int, player: Player) -> Reply:
        """Stand up from the channel's table: now, or when the round ends if the player
        has chips in it."""
        return await self._leave(self._registry.in_channel(channel_id), player)

    async def leave_table(self, table_id: str, player: Player) -> Reply:
        """Stand up from this table: its Leave button."""
        return await self._leave(self._registry.table(table_id), player)

    async def _leave(self, table: Table, player: Player) -> Reply:
        async def stand_up() -> str:
            self._flow.mode_of(table).check_seating(table, player, betting=False)
            seat = table.seat_of(player.user_id)
            if seat is None:
                raise NotSeated(_("You are not seated at this table."))
            if seat.leaving:
                raise TableError(_("You are already leaving when this round ends."))
            seat.leaving = True
            if seat.spots or table.in_round(seat):
                await self._flow.save(table)
                return _("You'll leave when this round ends.")
            self._flow.remove_leavers(table)
            if not table.seats:
                await self._flow.close(table, EVERYONE_LEFT)
                return _("You left.")
            await self._flow.save(table)
            if table.phase is TablePhase.BETTING and all(s.spots for s in table.seats):
                await self._flow.deal(table)  # everyone still seated has bet
            return _("You left.")

        message, snapshot = await self._changes.mutate(table, stand_up)
        return Reply(snapshot, message)


def _stake_refused(
    error: db.BalanceLimitExceeded | db.InsufficientChips | db.PlayRefused,
    total: int,
    read: int | None,
) -> TableError:
    """What a player is told when the purse refused their bet of ``total`` chips (``read``:
    the balance read to work out the stake, if it was)."""
    if isinstance(error, db.PlayRefused):  # the player's own limits
        return blocked(error)
    if isinstance(error, db.BalanceLimitExceeded):
        return BetRefused(at_the_limit(error, _("a bet of {amount}", amount=total)))
    if read is None:  # the words parse_bet gives with the balance read
        return BetRefused(short_of_chips(error.amount, error.balance))
    return NotEnoughChips(error.amount, error.balance, "That bet")


def _receipt(
    stake: int, spots: int, side_amount: int, balance: int, secret: bool, sealed: bool
) -> Text:
    """A bet's receipt: the stake and the balance left, or that the bet is sealed."""
    if secret:
        return _("Your secret bet of {amount} chips is sealed.", amount=stake)
    if sealed:
        return _("Your bet of {amount} chips is sealed.", amount=stake)
    if side_amount:
        return _(
            "Bet {stake}. Side bets: {side}. Balance: {balance}.",
            stake=stake_words(stake, spots),
            side=side_amount,
            balance=balance,
        )
    return _("Bet {stake}. Balance: {balance}.", stake=stake_words(stake, spots), balance=balance)
