"""The bridge's automatic transfers, each an admin's setting (off by default): a buy-in
when a player sits down with fewer chips than ``bridge_buy_in``, a cash-out of all their
chips when they leave a table (``bridge_cash_out_on_leave``) and after
``bridge_idle_cash_out_min`` minutes in which their chips did not move.

They are ordinary transfers (bot.bridge.transfers: pending first, one queue per server),
run in background tasks: a seat is answered at once, and the table never waits on
UnbelievaBoat. The round flow tells this of seats taken and left
(``RoundFlow.on_seat_taken``, ``on_seat_left``); a seat is left only once the player's
round is settled, and the idle check passes over a player with chips in a round, so chips
at stake never move. A buy-in our own books refuse (the daily loss limit, the chip
ceiling) is said in the seat's answer (``refused``'s words); any other outcome is handed
to ``report`` (the Discord layer tells the player privately).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from typing import Any, Final, Literal

import db
from bot.bridge.transfers import Bridge, BridgeRefusal, TransferResult
from bot.clock import Clock
from bot.i18n import _
from bot.server_settings import ServerSettings
from bot.tables.table import Table

log = logging.getLogger(__name__)

#: How often the idle cash-out looks for idle chips.
IDLE_CHECK_S: Final = 60.0
#: A cash table's mode (a tournament's chips are its own, not the server's).
CASH: Final = "cash"

Move = Literal["buy_in", "cash_out"]
Outcome = TransferResult | BridgeRefusal | db.InsufficientChips | db.BalanceLimitExceeded
#: Told (guild id, user id, the move, its outcome) once an automatic transfer ends.
Report = Callable[[int, int, Move, Outcome], Awaitable[None]]
#: (guild id, user id) -> whether the player is seated at a table of the server / has
#: chips in a round being played there.
Seated = Callable[[int, int], bool]


class AutoTransfers:
    """Buy-ins on sitting down, cash-outs on leaving and after an idle time."""

    def __init__(
        self,
        bridge: Bridge,
        settings: ServerSettings,
        clock: Clock,
        *,
        seated: Seated,
        at_stake: Seated,
        report: Report,
        refused: Callable[[BridgeRefusal | db.BalanceLimitExceeded], str],
    ) -> None:
        self._bridge = bridge
        self._store = bridge.store
        self._settings = settings
        self._clock = clock
        self._seated = seated
        self._at_stake = at_stake
        self._report = report
        self._refused = refused
        self._tasks: set[asyncio.Task[None]] = set()
        #: Set once a server has the idle cash-out on: only then does the watcher wait on
        #: the clock (a server without it costs no timer).
        self.idle_wanted = asyncio.Event()

    # ----------------------------------------------------------- the seat's events

    async def seat_taken(self, table: Table, user_id: int) -> str:
        """A player sat down: a buy-in of what they lack is queued; the note says so."""
        guild_id = table.guild_id
        if table.mode != CASH:
            return ""
        buy_in = (await self._settings.of(guild_id)).bridge_buy_in
        if not buy_in:
            return ""
        record = await self._store.bridge.bridge(guild_id)
        if record is None:
            return ""
        short = buy_in - await self._store.read_balance(guild_id, user_id)
        if short <= 0:
            return ""
        steps = -(-short // record.rate_chips)  # whole steps of the rate: at least `short`
        cash, chips = steps * record.rate_cash, steps * record.rate_chips
        try:  # our own refusals are said in the seat's answer: no outcome races it
            await self._bridge.check_cash_in(guild_id, user_id, cash)
        except (BridgeRefusal, db.BalanceLimitExceeded) as refusal:
            return self._refused(refusal)
        self._spawn(self._buy_in(guild_id, user_id, cash), f"bridge buy-in {user_id}")
        return _(
            "Your buy-in of {chips} chips for {cash} UnbelievaBoat cash is on its way: the"
            " chips arrive as soon as UnbelievaBoat answers.",
            chips=chips,
            cash=cash,
        )

    def seat_left(self, table: Table, user_id: int) -> None:
        """A player left a table (their round settled): their chips go back if the admin
        says so and they sit at no other table of the server."""
        if table.mode == CASH:
            self._spawn(self._leave(table.guild_id, user_id), f"bridge leave {user_id}")

    # ----------------------------------------------------------- idle chips

    async def watch_idle(self, guild_ids: Callable[[], Iterable[int]]) -> None:
        """Every IDLE_CHECK_S on the bot's clock, once a server wants it, cash out idle
        chips in ``guild_ids()``."""
        if await self._store.bridge.idle_cash_out_set():
            self.idle_wanted.set()
        while True:
            await self.idle_wanted.wait()
            await self._clock.sleep(IDLE_CHECK_S)
            self._spawn(self.cash_out_idle(list(guild_ids())), "bridge idle cash-out")

    async def cash_out_idle(self, guild_ids: list[int]) -> None:
        """Cash out the chips that have not moved for the server's idle time (none at stake)."""
        for guild_id in guild_ids:
            minutes = (await self._settings.of(guild_id)).bridge_idle_cash_out_min
            if not minutes:
                continue
            since = round((self._clock.now() - minutes * 60) * 1_000_000)
            for user_id, _chips in await self._store.bridge.idle_holders(guild_id, since):
                if not self._at_stake(guild_id, user_id):
                    await self._cash_out(guild_id, user_id)

    # ----------------------------------------------------------- running them

    async def drain(self) -> None:
        """Wait until every automatic transfer started so far has ended."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def close(self) -> None:
        """Stop every automatic transfer (one cut short is reconciled at the next start)."""
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def _spawn(self, work: Coroutine[Any, Any, None], name: str) -> None:
        task = asyncio.create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("%s failed", task.get_name(), exc_info=task.exception())

    async def _buy_in(self, guild_id: int, user_id: int, cash: int) -> None:
        try:
            outcome: Outcome = await self._bridge.cash_in(guild_id, user_id, cash)
        except (BridgeRefusal, db.BalanceLimitExceeded) as refusal:
            outcome = refusal
        await self._report(guild_id, user_id, "buy_in", outcome)

    async def _leave(self, guild_id: int, user_id: int) -> None:
        if not (await self._settings.of(guild_id)).bridge_cash_out_on_leave:
            return
        if not self._seated(guild_id, user_id):
            await self._cash_out(guild_id, user_id)

    async def _cash_out(self, guild_id: int, user_id: int) -> None:
        """All the player's chips (whole steps of the rate) back as cash."""
        record = await self._store.bridge.bridge(guild_id)
        if record is None:
            return
        balance = await self._store.read_balance(guild_id, user_id)
        chips = balance - balance % record.rate_chips
        if chips <= 0:
            return
        try:
            outcome: Outcome = await self._bridge.cash_out(guild_id, user_id, chips)
        except (BridgeRefusal, db.InsufficientChips) as refusal:
            outcome = refusal  # a bet took the chips meanwhile, or a transfer is open
        await self._report(guild_id, user_id, "cash_out", outcome)
