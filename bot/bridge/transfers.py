"""Moving value between a server's UnbelievaBoat cash and the bot's chips.

Every transfer is written to our books as pending before UnbelievaBoat is called, and
closed only by its answer:

- the new balance: done (a cash-in gives its chips now);
- an error answer, or no connection made: rolled back (a cash-out's chips come back);
- no answer (a timeout, a dropped connection, a 5xx): never sent again, since
  UnbelievaBoat has no idempotency key. The member's cash is read: the cash before plus
  the change means it was applied, the cash before means it was not, anything else
  (someone else changed it meanwhile) holds the transfer for an admin to settle.

Calls for one server go through one queue (a lock), so a 429's wait holds back that
server's calls only, and a balance read before a change is not crossed by another of
ours. Tables never call this: cash-in and cash-out are their own commands.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from dataclasses import dataclass
from typing import Final, Literal

import db
from bot.bridge.client import ECONOMY, Balance, Token, UnbClient, UnbError, UnknownOutcome
from db import BridgeRecord, TransferRecord

log = logging.getLogger(__name__)

DAY_MICROS: Final = 86_400 * 1_000_000
#: The reason UnbelievaBoat shows in the member's history.
REASON: Final = "Blackjack table chips"

Outcome = Literal["done", "rolled_back", "pending", "held"]


class BridgeRefusal(Exception):
    """A transfer that was not started: nothing changed in either book."""


class NotBridged(BridgeRefusal):
    """The server has no bridge to UnbelievaBoat."""


class NotEnoughCash(BridgeRefusal):
    """The member's cash does not cover the cash-in."""

    def __init__(self, cash: int) -> None:
        super().__init__(f"the member has {cash} cash")
        self.cash = cash


class TransferOpen(BridgeRefusal):
    """The member has a transfer still being checked or waiting for an admin."""


class OffRate(BridgeRefusal):
    """The amount does not convert to whole chips (or cash) at the server's rate: it must
    be a multiple of ``step``."""

    def __init__(self, amount: int, step: int) -> None:
        super().__init__(f"{amount} is not a multiple of {step}")
        self.step = step


class OverLossLimit(BridgeRefusal):
    """The cash-in would take the chips bought today past the player's daily loss limit
    (``/limits``): chips bought are chips that can be lost."""

    def __init__(self, limit: int, bought: int, resets_at: int) -> None:
        super().__init__(f"limit {limit}, bought today {bought}")
        self.limit, self.bought, self.resets_at = limit, bought, resets_at


class Unavailable(BridgeRefusal):
    """UnbelievaBoat could not be asked (error answer, unreachable, no answer)."""


class NoEconomyPermission(BridgeRefusal):
    """The token works, but the application may not change balances in this server."""


@dataclass(frozen=True, slots=True)
class TransferResult:
    """How a transfer ended (for now: 'pending' is still being checked, 'held' waits for
    an admin) and the player's chips after it."""

    transfer: TransferRecord
    outcome: Outcome
    chips: int | None = None


class Bridge:
    """Cash-ins, cash-outs, their reconciliation and an admin's settlement."""

    def __init__(self, store: db.Store, client: UnbClient) -> None:
        #: The store both books' side of ours lives in.
        self.store = store
        self._store = store
        self._client = client
        self._queues: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    async def connect(
        self, guild_id: int, token: Token, actor_id: int, rate_cash: int = 1, rate_chips: int = 1
    ) -> int:
        """Check the token by reading the application's permission here; store it, with the
        rate (``rate_chips`` chips for ``rate_cash`` cash). The permission bits
        (NoEconomyPermission, Unavailable: nothing stored)."""
        async with self._queues[guild_id]:
            try:
                permissions = await self._client.permissions(token, guild_id)
            except UnbError as error:
                raise Unavailable(str(error)) from None
            if not permissions & ECONOMY:
                raise NoEconomyPermission(f"permissions {permissions}")
            await self._store.bridge.connect(
                guild_id, token.reveal(), actor_id, rate_cash, rate_chips
            )
            return permissions

    async def cash_in(self, guild_id: int, user_id: int, cash: int) -> TransferResult:
        """Turn ``cash`` of the member's UnbelievaBoat cash into chips."""
        async with self._queues[guild_id]:
            bridge, token = await self._ready(guild_id, user_id)
            # Our own refusals first: UnbelievaBoat is not asked for a cash-in we refuse.
            chips = await self._allowed(bridge, user_id, cash)
            before = await self._read(token, guild_id, user_id)
            if before.cash < cash:
                raise NotEnoughCash(before.cash)
            transfer = await self._store.bridge.begin(
                guild_id, user_id, "cash_in", cash, chips, before.cash
            )
            return await self._send(token, transfer)

    async def check_cash_in(self, guild_id: int, user_id: int, cash: int) -> None:
        """Refuse now, from our books alone, a cash-in that :meth:`cash_in` would refuse
        before asking UnbelievaBoat (NotBridged, OffRate, OverLossLimit,
        db.BalanceLimitExceeded); UnbelievaBoat's own answer is not foretold."""
        bridge = await self._store.bridge.bridge(guild_id)
        if bridge is None:
            raise NotBridged(f"guild {guild_id} has no bridge")
        await self._allowed(bridge, user_id, cash)

    async def _allowed(self, bridge: BridgeRecord, user_id: int, cash: int) -> int:
        """The chips ``cash`` buys, unless the rate, the loss limit or the ceiling says no."""
        if cash % bridge.rate_cash:
            raise OffRate(cash, bridge.rate_cash)
        chips = cash // bridge.rate_cash * bridge.rate_chips
        await self._within_loss_limit(bridge.guild_id, user_id, chips)
        held = await self._store.read_balance(bridge.guild_id, user_id)
        if held + chips > db.MAX_BALANCE:
            raise db.BalanceLimitExceeded(held, chips, db.MAX_BALANCE, user_id)
        return chips

    async def cash_out(self, guild_id: int, user_id: int, chips: int) -> TransferResult:
        """Turn ``chips`` of the player's chips into UnbelievaBoat cash (InsufficientChips)."""
        async with self._queues[guild_id]:
            bridge, token = await self._ready(guild_id, user_id)
            if chips % bridge.rate_chips:
                raise OffRate(chips, bridge.rate_chips)
            before = await self._read(token, guild_id, user_id)
            cash = chips // bridge.rate_chips * bridge.rate_cash
            transfer = await self._store.bridge.begin(
                guild_id, user_id, "cash_out", cash, chips, before.cash
            )
            return await self._send(token, transfer)

    async def reconcile(self, guild_id: int | None = None) -> list[TransferResult]:
        """Tell the outcome of every pending transfer (of one server, or all: at start)."""
        results = []
        for transfer in await self._store.bridge.open_transfers(guild_id):
            if transfer.status != "pending":
                continue
            async with self._queues[transfer.guild_id]:
                bridge = await self._store.bridge.bridge(transfer.guild_id)
                if bridge is None:
                    await self._store.bridge.hold(transfer.id)
                    results.append(TransferResult(transfer, "held"))
                    continue
                results.append(await self._reconcile(Token(bridge.token), transfer))
        return results

    async def settle(self, transfer_id: int, applied: bool, actor_id: int) -> TransferResult:
        """An admin says whether UnbelievaBoat applied an open transfer (TransferClosed if
        it is already settled)."""
        store = self._store.bridge
        if applied:
            chips = await store.complete(transfer_id, None, actor_id)
            return TransferResult(await self._reread(transfer_id), "done", chips)
        await store.roll_back(transfer_id, actor_id)
        return TransferResult(await self._reread(transfer_id), "rolled_back")

    async def _ready(self, guild_id: int, user_id: int) -> tuple[BridgeRecord, Token]:
        bridge = await self._store.bridge.bridge(guild_id)
        if bridge is None:
            raise NotBridged(f"guild {guild_id} has no bridge")
        token = Token(bridge.token)
        for transfer in await self._store.bridge.open_transfers(guild_id):
            if transfer.user_id == user_id and await self._still_open(token, transfer):
                raise TransferOpen(f"user {user_id} has an open transfer")
        return bridge, token

    async def _within_loss_limit(self, guild_id: int, user_id: int, chips: int) -> None:
        mine = await self._store.play.limits(user_id, guild_id=guild_id)
        limit = mine.limits.daily_loss
        if limit is None:
            return
        day_starts_at = mine.day_ends_at - DAY_MICROS
        bought = await self._store.bridge.cashed_in_since(mine.members, day_starts_at)
        if bought + chips > limit:
            raise OverLossLimit(limit, bought, mine.day_ends_at)

    async def _still_open(self, token: Token, transfer: TransferRecord) -> bool:
        """Whether an open transfer stays open: one waiting for an admin does; a pending
        one (UnbelievaBoat could not be asked when it was checked) is checked again."""
        if transfer.status == "held":
            return True
        return (await self._reconcile(token, transfer)).outcome in ("pending", "held")

    async def _read(self, token: Token, guild_id: int, user_id: int) -> Balance:
        try:
            return await self._client.balance(token, guild_id, user_id)
        except UnbError as error:
            raise Unavailable(str(error)) from None

    async def _send(self, token: Token, transfer: TransferRecord) -> TransferResult:
        try:
            answer = await self._client.change_cash(
                token, transfer.guild_id, transfer.user_id, transfer.cash_delta, REASON
            )
        except UnknownOutcome as error:
            log.warning("bridge transfer %d: %s; reading the balance", transfer.id, error)
            return await self._reconcile(token, transfer)
        except UnbError as error:
            log.info("bridge transfer %d not applied: %s", transfer.id, error)
            await self._store.bridge.roll_back(transfer.id)
            return TransferResult(await self._reread(transfer.id), "rolled_back")
        return await self._complete(transfer, answer.cash)

    async def _complete(self, transfer: TransferRecord, cash_after: int) -> TransferResult:
        """UnbelievaBoat applied it: done; held for an admin if the chips it gives no longer
        fit under the chip ceiling (table winnings since the check before the call)."""
        try:
            chips = await self._store.bridge.complete(transfer.id, cash_after)
        except db.BalanceLimitExceeded:
            await self._store.bridge.hold(transfer.id)
            return TransferResult(await self._reread(transfer.id), "held")
        return TransferResult(await self._reread(transfer.id), "done", chips)

    async def _reconcile(self, token: Token, transfer: TransferRecord) -> TransferResult:
        try:
            now = await self._client.balance(token, transfer.guild_id, transfer.user_id)
        except UnbError as error:
            log.warning("bridge transfer %d stays pending: %s", transfer.id, error)
            return TransferResult(transfer, "pending")
        if now.cash == transfer.cash_before + transfer.cash_delta:
            return await self._complete(transfer, now.cash)
        if now.cash == transfer.cash_before:
            await self._store.bridge.roll_back(transfer.id)
            return TransferResult(await self._reread(transfer.id), "rolled_back")
        await self._store.bridge.hold(transfer.id)
        return TransferResult(await self._reread(transfer.id), "held")

    async def _reread(self, transfer_id: int) -> TransferRecord:
        transfer = await self._store.bridge.transfer(transfer_id)
        assert transfer is not None
        return transfer
