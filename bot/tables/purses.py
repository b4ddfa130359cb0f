"""Purses: where a table's seats keep their chips (bot.tables.modes.Purse).

``EconomyPurse`` is the server's economy (the store's balances and ledger): a cash table's.
``DocumentPurse`` keeps chips in the table's own document (a tournament's stacks): a stake
is of the chips not already at stake in the round, and the chips change only when the game
mode's settlement says so, committed with the table's document.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import db

if TYPE_CHECKING:
    from bot.tables.table import Table


class EconomyPurse:
    """The server's economy: the store's balances and ledger."""

    def __init__(self, store: db.Store) -> None:
        self._store = store

    async def balance(self, table: Table, user_id: int) -> int:
        return await self._store.balance(table.guild_id, user_id)

    async def stake(
        self,
        table: Table,
        user_id: int,
        amount: int,
        kind: str,
        *,
        write: db.TableWrite | None = None,
        actions: Sequence[db.TableAction] = (),
        headroom: int = 0,
        side_amount: int = 0,
    ) -> int:
        assert table.round_id is not None
        # The store's conditional debit: two tables cannot spend the same chips.
        return await self._store.stake(
            table.guild_id,
            user_id,
            amount,
            kind,
            table.round_id,
            table=write,
            actions=actions,
            headroom=headroom,
            side_amount=side_amount,
        )

    async def stake_bet(
        self,
        table: Table,
        user_id: int,
        amount: int,
        *,
        write: db.TableWrite,
        headroom: int = 0,
        side_amount: int = 0,
        notice: bool = False,
    ) -> db.Staked:
        assert table.round_id is not None
        return await self._store.stake_bet(
            table.guild_id,
            user_id,
            amount,
            table.round_id,
            table=write,
            headroom=headroom,
            side_amount=side_amount,
            notice=notice,
        )


class DocumentPurse:
    """Chips kept in the table's document: ``chips_of(table, user_id)`` reads them (None:
    the player has none here)."""

    def __init__(self, store: db.Store, chips_of: Callable[[Table, int], int | None]) -> None:
        self._store = store
        self._chips_of = chips_of

    async def balance(self, table: Table, user_id: int) -> int:
        chips, pid, round_ = self._chips_of(table, user_id) or 0, str(user_id), table.round
        if round_ is not None and round_.has_player(pid):
            chips -= sum(hand.stake for hand in round_.hands(pid))
        return chips

    async def stake(
        self,
        table: Table,
        user_id: int,
        amount: int,
        kind: str,
        *,
        write: db.TableWrite | None = None,
        actions: Sequence[db.TableAction] = (),
        headroom: int = 0,
        side_amount: int = 0,
    ) -> int:
        free = await self.balance(table, user_id)
        if amount + side_amount > free:
            raise db.InsufficientChips(free, amount + side_amount)
        if write is not None:
            await self._store.tables.save_table(write, actions)
        else:
            await self._store.tables.append_actions(actions)
        return free - amount - side_amount

    async def stake_bet(
        self,
        table: Table,
        user_id: int,
        amount: int,
        *,
        write: db.TableWrite,
        headroom: int = 0,
        side_amount: int = 0,
        notice: bool = False,
    ) -> db.Staked:
        free = await self.balance(table, user_id)
        if amount + side_amount > free:
            raise db.InsufficientChips(free, amount + side_amount)
        noticed = user_id if notice else None
        first = await self._store.tables.save_table(write, notice_for=noticed)
        return db.Staked(free - amount - side_amount, first)
