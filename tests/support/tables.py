"""The table service's tests (tests/tables/): players and places, the snapshots a table
published, its timers run to quiet, and a snapshot of the chips to compare."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

import db
from bot.tables import Player, TableSnapshot
from fakediscord.clock import ManualClock, settle

GUILD = 900_000_000_000_000_001
CHANNEL = 900_000_000_000_000_101
OTHER_CHANNEL = 900_000_000_000_000_102
ALICE = Player(800_000_000_000_000_001, "Alice")
BOB = Player(800_000_000_000_000_002, "Bob")
CAROL = Player(800_000_000_000_000_003, "Carol")
DAVE = Player(800_000_000_000_000_004, "Dave")


@dataclass
class Published:
    """Every snapshot the service published, in order."""

    snapshots: list[TableSnapshot] = field(default_factory=list)

    def append(self, snapshot: TableSnapshot) -> None:
        self.snapshots.append(snapshot)

    @property
    def last(self) -> TableSnapshot:
        return self.snapshots[-1]


@dataclass(frozen=True)
class Chips:
    """Every balance and ledger row of some players: equal before and after = nothing moved."""

    balances: dict[int, int]
    ledgers: dict[int, list[db.LedgerEntry]]


async def chips_of(store: db.Store, *players: Player) -> Chips:
    balances = {p.user_id: await store.balance(GUILD, p.user_id) for p in players}
    ledgers = {p.user_id: await store.reports.ledger(GUILD, p.user_id, 1000) for p in players}
    return Chips(balances, ledgers)


async def ledger_kinds(store: db.Store, player: Player) -> list[tuple[str, int]]:
    """The player's ledger rows, oldest first, as (kind, delta)."""
    rows = await store.reports.ledger(GUILD, player.user_id, 1000)
    return [(row.kind, row.delta) for row in reversed(rows)]


async def quiet(clock: ManualClock, max_wait: float = 30.0) -> None:
    """Return once every table timer task is asleep on the clock or finished.

    The timers' work goes through the database (a thread for SQLite, a socket for
    PostgreSQL), so a woken timer needs more than a few turns of the loop; this
    waits for that work to end instead of guessing a number of turns. ``max_wait`` only
    bounds a hang: late in a full run on the 2-core machine, one timer's database work was
    seen to take over 5 real seconds (it never does alone).
    """
    loop = asyncio.get_running_loop()
    give_up = loop.time() + max_wait
    while True:
        running = [t for t in asyncio.all_tasks() if t.get_name().startswith("table ")]
        if len([t for t in running if not t.done()]) <= clock.sleepers:
            # Let the tasks that just finished publish and return.
            await settle()
            return
        if loop.time() > give_up:
            raise AssertionError(f"table timers still busy after {max_wait}s: {running}")
        await asyncio.sleep(0)


async def tick(clock: ManualClock, seconds: float) -> None:
    """Move the clock ``seconds`` forward one wake-up at a time, each timer's work done
    before the next (``ManualClock.run_for`` with database work in between)."""
    target = clock.now() + seconds
    await quiet(clock)
    while (due := clock.next_wakeup()) is not None and due <= target:
        clock.advance(max(0.0, due - clock.now()))
        await quiet(clock)
    clock.advance(target - clock.now())
    await quiet(clock)


async def chips_from_elsewhere(store: db.Store, user_id: int, target: int) -> None:
    """Chips reach a player from another table while their bets are out, leaving ``target``
    on their balance: a round in another channel, won. (An admin's grant cannot do this: it
    counts the chips the player has at stake, so that their refund always fits.)"""
    balance = await store.balance(GUILD, user_id)
    stake = target // 2
    await store.adjust(GUILD, user_id, target - stake - balance, 1, "a high roller")
    round_id = await store.open_round(GUILD, OTHER_CHANNEL, '{"preset": "vegas-shoe"}', "elsewhere")
    await store.stake(GUILD, user_id, stake, "bet", round_id)
    won = db.HandResult(user_id, "win", stake, 2 * stake)
    await store.settle_round(round_id, {user_id: 2 * stake}, [won], "{}")
    assert await store.balance(GUILD, user_id) == target


#: Names as members could set them (a display name is at most 32 characters).
HOSTILE_NAMES = (
    "**bold** __under__",
    "||spoiler|| `code` ~~gone~~",
    "[click](https://evil.example/x)",
    "<@800000000000000009> @everyone",
    "\u202eevil\u202c <t:0:R> <#1>",
    "# big\n> quoted\n- listed",
    "עברית \\*) @here",
)


HOSTILE_PLAYERS = [
    Player(810_000_000_000_000_000 + n, name) for n, name in enumerate(HOSTILE_NAMES)
]
