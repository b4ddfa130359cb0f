"""Two shard processes on one PostgreSQL database, each running a tournament in a guild of its
own shard: only the owning process acts on a tournament, whoever restarts.

Each process is killed once while the other carries on. While a process is down, the other
one's timers play its own tournament on (a hand dealt after the kill is auto-played by its
decision timer, past the moment the dead process's own timer was due), and nothing at all
happens to the dead process's tournament: no message is sent or edited in its channel, its
table's document and journal do not change. Each process restarts and resumes only its own
tournament: the other's is still open, not refunded, and the overdue timer of its own plays
the hand the kill left. While both run, each holds exactly one table (its metrics say so).
Both tournaments end with their places paid, and every balance equals its ledger.
"""

from __future__ import annotations

import re
import socket
from functools import partial

import aiohttp
import asyncpg
import pytest
from table_players import Casino, bot_process, read_economy, stop_all

import db
from fakediscord import FakeDiscord
from fakediscord.harness import BotProcess
from fakediscord.records import FakeMessage
from tests.db.invariants import check_invariants
from tests.pgserver import PostgresServer
from tests.support.discord_world import embed_text, labels_enabled

#: Real seconds a step may take: a decision timer (5 s), or a process's start.
STEP_WAIT = 30.0
HANDS = 3
#: What a table shows when its decision timer played a hand.
TIMER_PLAYED = "did not act in time: basic strategy played their hand"
TABLE_ROW = """
    SELECT t.state_json, t.updated_at,
           (SELECT COUNT(*) FROM table_actions AS a WHERE a.table_id = t.table_id)
    FROM live_tables AS t WHERE t.channel_id = $1 AND t.status = 'open'"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Tournament:
    """A tournament in a guild of one shard, and what its players see of it."""

    def __init__(self, fake: FakeDiscord, shard: int) -> None:
        self.fake = fake
        self.casino = Casino.build(fake, f"Casino {shard}", players=3, shard=shard)
        self.host = fake.add_member(self.casino.guild, "host", permissions=["manage_channels"])
        self.board: FakeMessage | None = None
        self.tournament_id = 0

    @property
    def channel_id(self) -> int:
        return self.casino.channel.id

    def shown(self) -> str:
        assert self.board is not None
        return embed_text(self.board)

    def hand(self) -> int:
        """The hand the board shows ("Hand n of m"); 0 once it shows none."""
        found = re.search(r"Hand (\d+) of", self.shown())
        return 0 if found is None else int(found[1])

    def betting(self) -> bool:
        assert self.board is not None
        return "Bet" in labels_enabled(self.board)

    def over(self) -> bool:
        return any(" is over." in m.content for m in self.fake.messages_in(self.casino.channel))

    def seen(self) -> list[tuple[int, int, bool, str]]:
        """Every message of the channel (ephemeral ones too) and its edits."""
        return [
            (m.id, m.edits, m.deleted, m.content)
            for m in self.fake.messages.values()
            if m.channel is self.casino.channel
        ]

    async def open(self) -> None:
        """Create it (3 hands, the fewest chips out after hand 1), enter everyone, start."""
        fake = self.fake
        channel = self.casino.channel
        created = await fake.slash(
            self.host, "tournament create", channel, fee=100, hands=HANDS, eliminations="1"
        )
        assert created.response_type == 4, created.errors
        self.board = created.original
        for player in self.casino.players:
            joined = await fake.slash(player, "tournament join", channel)
            entered = re.match(r"You are in tournament #(\d+)\. ", joined.content or "")
            assert entered is not None, joined.content
            self.tournament_id = int(entered[1])
        started = await fake.slash(self.host, "tournament start", channel)
        assert "has started" in (started.content or ""), started.content
        await fake.wait_for(lambda: self.betting() and self.hand() == 1, max_wait=STEP_WAIT)

    async def deal(self) -> None:
        """Everyone still playing seals 10 chips until a hand is dealt that waits for their
        decisions (or it is over). Nobody decides: the owner's decision timer plays it."""
        while self.betting() and not self.over():
            hand = self.hand()
            for player in self.casino.players:  # one who is out is told so, privately
                await self.fake.slash(player, "tournament bet", self.casino.channel, amount="10")
            await self.fake.wait_for(partial(self.moved_on, hand), max_wait=STEP_WAIT)

    def moved_on(self, hand: int) -> bool:
        """``hand`` is dealt (decisions wait), or it was paid at the deal, or it is over."""
        return not self.betting() or self.hand() != hand or self.over()

    async def until_betting(self) -> None:
        """Wait for the owner's timer to play the hand: the next one takes bets, or it is over."""
        await self.fake.wait_for(lambda: self.over() or self.betting(), max_wait=STEP_WAIT)

    async def recovered(self) -> None:
        """Return once the owner has resumed its shard's tables and tournaments (a command
        waits for that)."""
        balance = await self.fake.slash(self.host, "balance", self.casino.channel)
        assert (balance.content or "").startswith("You have"), balance.content

    async def row(self, url: str) -> tuple[str, int, int]:
        """Its table's document, when it was written, and how many decisions are journaled."""
        pg = await asyncpg.connect(url)
        try:
            found = await pg.fetchrow(TABLE_ROW, self.channel_id)
        finally:
            await pg.close()
        assert found is not None, "the tournament's table is not open"
        return str(found[0]), int(found[1]), int(found[2])


async def tables_open(port: int) -> float:
    """``blackjack_tables_open`` as the process on ``port`` serves it."""
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}/metrics") as response,
    ):
        text = await response.text()
    found = re.search(r"^blackjack_tables_open (\S+)$", text, re.MULTILINE)
    assert found is not None, text
    return float(found[1])


async def open_tournament_ids(url: str) -> list[int]:
    async with db.open_store(url) as store:
        return [t.tournament_id for t in await store.tournaments.open_tournaments()]


async def both_open(url: str, tournaments: list[Tournament]) -> None:
    """No process refunded or ended the other's tournament (one may have ended, played out)."""
    playing = [t.tournament_id for t in tournaments if not t.over()]
    assert await open_tournament_ids(url) == playing


async def down_while_the_other_plays(
    url: str, dead: BotProcess, stalled: Tournament, alive_port: int, playing: Tournament
) -> None:
    """``dead`` is killed with its ``stalled`` tournament mid-hand; the other process plays
    its own ``playing`` on, a hand to its end by its decision timer, while nothing happens
    to ``stalled``."""
    fake = stalled.fake
    await stalled.deal()
    await dead.kill()
    # What the dead process had sent before it died is done (a notice may follow a bet).
    await fake.wait_for(lambda: all(request.status for request in fake.requests))
    before_seen, before_row = stalled.seen(), await stalled.row(url)
    # A hand dealt after the kill: its timer is due after the dead process's was.
    while not playing.over():
        await playing.deal()
        await playing.until_betting()
        if TIMER_PLAYED in playing.shown():
            break
    assert TIMER_PLAYED in playing.shown() or playing.over()
    assert stalled.seen() == before_seen  # no message sent or edited in its channel
    assert await stalled.row(url) == before_row  # its document and journal as the kill left
    if not playing.over():
        assert await tables_open(alive_port) == 1  # the live process holds its own table only


@pytest.mark.slow
async def test_each_shard_process_acts_only_on_its_own_guilds_tournament(
    pg_server: PostgresServer,
) -> None:
    url = pg_server.create_database("tournament_shards")
    ports = free_port(), free_port()
    async with FakeDiscord(recommended_shards=2, max_concurrency=2) as fake:
        tournaments = [Tournament(fake, shard) for shard in range(2)]
        async with db.open_store(url) as store:
            for t in tournaments:  # seal bets as the test likes; decisions wait for the timer
                await store.set_guild_settings(
                    t.casino.guild.id, bet_timer_s=3600, action_timer_s=5
                )
        first, second = (
            bot_process(fake, url, SHARD_COUNT="2", SHARD_IDS=str(n), METRICS_PORT=str(ports[n]))
            for n in range(2)
        )
        await first.start()
        await second.start()
        assert (first.shard_ids, second.shard_ids) == ([0], [1])
        zero, one = tournaments  # shard 0's (the first process's), shard 1's
        try:
            for t in tournaments:
                await t.open()
            assert await tables_open(ports[0]) == await tables_open(ports[1]) == 1

            # The second process dies mid-hand; the first plays its own on. The second
            # comes back and its overdue timer plays the hand the kill left.
            await down_while_the_other_plays(url, second, one, ports[0], zero)
            await second.start()
            await one.recovered()
            await both_open(url, tournaments)
            await one.until_betting()
            # And the other way round.
            await down_while_the_other_plays(url, first, zero, ports[1], one)
            await first.start()
            await zero.recovered()
            await both_open(url, tournaments)
            await zero.until_betting()
            if not (zero.over() or one.over()):
                assert await tables_open(ports[0]) == await tables_open(ports[1]) == 1

            # Both play on to their ends, each on its own timers.
            for t in tournaments:
                while not t.over():
                    await t.deal()
                    await t.until_betting()
        finally:
            await stop_all(first, second)
    fake.assert_clean()

    assert await open_tournament_ids(url) == []
    async with db.open_store(url) as store:
        for tournament_id in (1, 2):
            places = await store.tournaments.places(tournament_id)
            assert sorted(p.place for p in places) == [1, 2, 3]
            assert sum(p.prize for p in places) == 300
            eliminations = await store.tournaments.eliminations(tournament_id)
            assert sum(row.eliminated for row in eliminations) == 1
    (await read_economy(url)).assert_consistent()
    await check_invariants(url)
