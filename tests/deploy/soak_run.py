"""The soak: players keep a table busy while the bot process is SIGKILLed and restarted.

``tests/deploy/test_soak.py`` runs a short one in CI; ``bench/soak.py`` runs 50
kills and prints the figures. The moment of each kill is drawn from a seeded
random generator: after a random number of player actions, at one of three
points of the next one (as it is sent, once the bot's first request for it has
reached Discord, or once it was answered, while the table's edits and timers
run). Waiting is always on the fake's state, never a sleep. After each restart
the players go on at the same table message: it resumes.

With ``outages``, the chip store goes away that many times (tests/outage.py: the
PostgreSQL server stopped, or SQLite refusing writes) while the players go on, and
half the time the process is killed during the outage too (it starts again once the
store is back). Their clicks are answered "paused" until the table finds the store
back and carries on.

The players may instead be a run of tournaments' (tests/deploy/tournament_players.py:
``bench/soak.py --tournament``), the last played to its end before the last stop.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from table_players import Casino, Economy, Table, read_economy

from bot.tables.errors import PAUSED
from bot.tables.opening import PAUSED_THERE
from fakediscord import FakeDiscord
from fakediscord.harness import BotProcess
from fakediscord.interactions import FakeInteraction, NoResponse
from tests.outage import Outage

#: Where in a player's action the process dies.
MOMENTS = ("as it is sent", "at the bot's first request", "once answered")
#: The routes a game uses once the bot is up: where faults are injected.
GAME_ROUTES = {
    "POST /interactions/{interaction_id}/{interaction_token}/callback",
    "PATCH /channels/{channel_id}/messages/{message_id}",
    "PATCH /webhooks/{application_id}/{interaction_token}/messages/@original",
    "POST /webhooks/{application_id}/{interaction_token}",
}


@dataclass(frozen=True)
class SoakReport:
    """What a soak did and the economy it left."""

    kills: int
    moments: Counter[str]
    interactions: int
    refused: int
    unanswered: int
    injected_500: int
    injected_429: int
    exit_code: int | None
    seconds: float
    economy: Economy
    outages: int = 0
    #: Kills while the store was away (counted in ``kills`` too).
    outage_kills: int = 0
    #: Actions answered "the table is paused" (the store was away), a start included.
    paused: int = 0

    def lines(self) -> list[tuple[str, object]]:
        """Figures for a report."""
        return [
            ("kills", self.kills),
            *((f"killed {moment}", n) for moment, n in sorted(self.moments.items())),
            ("interactions", self.interactions),
            ("clicks refused", self.refused),
            ("unanswered", self.unanswered),
            ("injected 500s", self.injected_500),
            ("injected 429s", self.injected_429),
            ("store outages", self.outages),
            ("killed in an outage", self.outage_kills),
            ("answered paused", self.paused),
            ("last exit code", self.exit_code),
            ("seconds", f"{self.seconds:.1f}"),
        ]


class Players(Protocol):
    """Who keeps the bot busy: a cash table's players (table_players.Table) or a run of
    tournaments' (tournament_players.TournamentTable)."""

    sent: int
    refused: int
    unanswered: int

    async def step(self, *, wait: bool = True) -> FakeInteraction | None: ...

    def resumed(self) -> None: ...

    async def wind_down(self) -> None: ...


def bot_answering(fake: FakeDiscord, requests_before: int) -> Callable[[], bool]:
    """True once the bot has sent Discord a request since ``requests_before`` were logged."""
    return lambda: len(fake.requests) > requests_before


async def soak(
    fake: FakeDiscord,
    process: BotProcess,
    casino: Casino,
    database_url: str,
    *,
    kills: int,
    seed: int,
    max_steps: int = 30,
    max_wait: float = 5.0,
    progress: Callable[[int], None] | None = None,
    outages: int = 0,
    outage: Outage | None = None,
    side_bets: dict[str, int] | None = None,
    players: Players | None = None,
) -> SoakReport:
    """Kill and restart ``process`` ``kills`` times while ``casino``'s players play on,
    with ``outages`` of the store (``outage``) before that many of the kills.

    Ends with a stretch of play and a graceful stop (SIGTERM), then reads the economy.
    ``side_bets``: /bet's side-bet options a player may add to a bet (each at random).
    ``players``: who plays (``casino``'s players at a cash table unless given); what they
    play is played to its end before the stop.
    """
    # The kill schedule has its own generator, so a seed always gives the same schedule
    # (the shoes are random, so what the players do between kills differs run to run).
    schedule = random.Random(seed)
    if players is None:
        cash = Table(fake, casino, random.Random(seed + 1), max_wait=max_wait)
        cash.side_bets = dict(side_bets or {})
        players = cash
    table = players
    moments: Counter[str] = Counter()
    outage_at = set(random.Random(seed + 2).sample(range(kills), min(outages, kills)))
    outage_kills = 0
    started = time.perf_counter()
    await process.start()
    for kill in range(kills):
        for _ in range(schedule.randint(1, max_steps)):
            await table.step()
        if kill in outage_at:
            assert outage is not None, "outages need an outage to inject"
            outage_kills += await store_outage(table, process, outage, schedule)
        moment = schedule.choice(MOMENTS)
        moments[moment] += 1
        answering = bot_answering(fake, len(fake.requests))
        reply = await table.step(wait=False)
        if reply is not None and moment == MOMENTS[1]:
            try:
                await fake.wait_for(answering, max_wait)
            except TimeoutError:
                table.unanswered += 1
        elif reply is not None and moment == MOMENTS[2]:
            try:
                await reply.wait_for_response(max_wait)
            except NoResponse:
                table.unanswered += 1
        await process.kill()
        await process.start()  # it resumes the table the kill left, round and all
        table.resumed()
        if progress is not None:
            progress(kill + 1)
    for _ in range(schedule.randint(1, max_steps)):
        await table.step()
    await table.wind_down()
    await process.stop()
    exit_code = None if process.process is None else process.process.returncode
    injected = Counter(r.status for r in fake.requests if r.injected)
    return SoakReport(
        outages=len(outage_at),
        paused=sum(
            (i.content or "").startswith((PAUSED, PAUSED_THERE)) for i in fake.interactions.values()
        ),
        outage_kills=outage_kills,
        kills=kills + outage_kills,
        moments=moments,
        interactions=table.sent,
        refused=table.refused,
        unanswered=table.unanswered,
        injected_500=sum(n for status, n in injected.items() if status >= 500),
        injected_429=injected[429],
        exit_code=exit_code,
        seconds=time.perf_counter() - started,
        economy=await read_economy(database_url),
    )


async def store_outage(
    table: Players, process: BotProcess, outage: Outage, schedule: random.Random
) -> int:
    """The store goes away while players act (and, one time in two, the process is
    killed), then comes back; the number of kills (0 or 1)."""
    await asyncio.to_thread(outage.begin)  # pg_ctl takes a moment: the fake keeps serving
    try:
        answered = 0
        for turn in range(8):
            # Answered "paused", or (None) waited for an edit that did not come.
            answered += await table.step() is not None
            if turn >= schedule.randint(0, 3) and answered:
                break
        killed = schedule.random() < 0.5
        if killed:
            await process.kill()
    finally:
        await asyncio.to_thread(outage.end)
    if killed:
        await process.start()
    table.resumed()  # bets refused during the outage are offered again
    return int(killed)
