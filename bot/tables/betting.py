"""Bets: /bet and the Bet buttons, staked at once; the cards are dealt when everyone has bet."""

from __future__ import annotations

import db
from bot.bet_amount import (
    BetAmountError,
    needs_balance,
    parse_bet,
    short_of_chips,
    stake_words,
)
from bot.tables.chip_limit import at_the_limit, best_win
from bot.tables.errors import BetRefused, NotEnoughChips, StaleButton, WrongPhase
from bot.tables.players import Player
from bot.tables.refusals import EARLIER_ROUND
from bot.tables.registry import TableRegistry
from bot.tables.snapshot import Reply, TablePhase
from bot.tables.table import SeatState, Table


def spots_allowed(max_spots: int) -> str:
    """The refusal for a number of hands the table does not allow."""
    if max_spots == 1:
        return "You can play one hand at this table."
    return f"You can play 1 to {max_spots} hands at this table."


class TableBetting(TableRegistry):
    """Placing bets at a table."""

    async def bet(self, channel_id: int, player: Player, amount: str, spots: int = 1) -> Reply:
        """Place the player's bet for this round, seating them if there is room.

        The stake is taken at once; when every seated player has bet, the cards are dealt.
        """
        table = self._in_channel(channel_id)
        message, snapshot = await self._mutate(
            table, lambda: self._place_bet(table, player, amount, spots)
        )
        return Reply(snapshot, message)

    async def rebet(self, table_id: str, round_no: int, player: Player, factor: int) -> Reply:
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
        return Reply(snapshot, message)

    async def _place_bet(self, table: Table, player: Player, amount: str, spots: int) -> str:
        if table.phase is not TablePhase.BETTING or table.round_id is None:
            raise WrongPhase("The cards are out: bet when the next round opens.")
        seat = table.seat_of(player.user_id)
        if seat is not None and seat.spots:
            raise BetRefused(
                f"You have already bet this round ({stake_words(seat.bet, seat.spots)})."
            )
        if not isinstance(spots, int) or not 1 <= spots <= table.rules.max_spots:
            raise BetRefused(spots_allowed(table.rules.max_spots))
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
        seated, idle_since = seat, table.idle_since
        if seat is None:
            seat = SeatState(player)
            table.seats.append(seat)
        seat.bet, seat.spots = stake, spots
        table.idle_since = self._clock.now()
        try:
            # The store's conditional debit (two tables cannot spend the same chips), with
            # the table's new document in the same transaction.
            balance = await self._store.stake(
                table.guild_id,
                player.user_id,
                stake * spots,
                "bet",
                table.round_id,
                headroom=best_win(rules, stake, spots),
                table=self._write(table),
            )
        except (db.BalanceLimitExceeded, db.InsufficientChips) as error:
            seat.bet = seat.spots = 0  # nothing changed after all
            table.idle_since = idle_since
            if seated is None:
                table.seats.remove(seat)
            if isinstance(error, db.BalanceLimitExceeded):
                raise BetRefused(at_the_limit(error, f"a bet of {stake * spots:,}")) from None
            if not needs_balance(amount):  # the words parse_bet gives with the balance read
                raise BetRefused(short_of_chips(error.amount, error.balance)) from None
            raise NotEnoughChips(error.amount, error.balance, "That bet") from None
        if all(s.spots for s in table.seats):
            await self._deal(table)
        return f"Bet {stake_words(stake, spots)}. Balance: {balance:,}."
