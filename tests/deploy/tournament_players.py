"""Players who keep tournaments going in one channel through the fake Discord, one after
another, whatever the bot process is doing; and what a run of tournaments must leave.

Used by ``bench/soak.py --tournament`` and tests/deploy/test_soak.py. As with the cash
table's players (table_players.py), the bot runs as a process on the system clock, so the
players read the tournament's board the way a person would: it says whether entries are
open, whose bet is awaited and which buttons are enabled; a refusal is just an answer.
"""

from __future__ import annotations

import random
import re
import sqlite3
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Any

import asyncpg
from replay_rounds import replay_round
from table_players import BETS, PLAY_WEIGHTS, Casino

import db
from db import sqlite_path
from db.statements import numbered
from fakediscord import FakeDiscord
from fakediscord.interactions import FakeInteraction, NoResponse
from fakediscord.models import FakeMember
from fakediscord.records import FakeMessage
from tests.support.discord_world import embed_text, labels_enabled
from tests.support.table_buttons import round_no

#: Each tournament: 5 hands, the fewest chips out after hands 2 and 4 (of 3 players, the
#: last two left play hand 5, or one is left and wins at hand 4).
FORMAT: dict[str, Any] = {"fee": 20, "hands": 5, "eliminations": "2,4"}
_TITLE = re.compile(r"Tournament #(\d+)")
#: The board while entries are open (its format line).
_ENTRIES_OPEN = "tournament chips each"


@dataclass
class TournamentTable:
    """A host who creates a tournament whenever none is open in the channel and starts it
    once everyone has entered, and the players, who enter, bet and play each hand."""

    fake: FakeDiscord
    casino: Casino
    host: FakeMember
    rng: random.Random
    #: Real seconds a player waits for an answer (discord.py sleeps 1 s, 3 s... on a 5xx).
    max_wait: float = 5.0
    entered: set[int] = field(default_factory=set)
    bet_in: dict[int, int] = field(default_factory=dict)
    done_in: dict[int, int] = field(default_factory=dict)
    #: Tournaments the players saw deal a hand.
    started: set[int] = field(default_factory=set)
    sent: int = 0
    #: Button presses refused (ephemerally): no hand, out, or done. (Entries and bets are
    #: answered privately anyway.)
    refused: int = 0
    unanswered: int = 0

    @classmethod
    def build(cls, fake: FakeDiscord, casino: Casino, rng: random.Random) -> TournamentTable:
        """The casino's players, with a host who may manage its channels."""
        host = fake.add_member(casino.guild, "host", permissions=["manage_channels"])
        return cls(fake, casino, host, rng)

    def resumed(self) -> None:
        """The bot restarted: an entry or bet sent as it died may never have arrived, so each
        is offered again (one already made is refused, privately, and changes nothing)."""
        self.entered.clear()
        self.bet_in.clear()
        self.done_in.clear()

    def board(self) -> tuple[int, FakeMessage] | None:
        """The open tournament's number and board, or None when none is open."""
        for message in reversed(self.fake.messages_in(self.casino.channel)):
            title = _TITLE.match(str((message.embed or {}).get("title", "")))
            if title is not None:
                number = int(title[1])
                return None if self.ended(number) else (number, message)
        return None

    def ended(self, number: int) -> bool:
        """Whether the tournament's result (or why it ended) is posted."""
        heading = (f"Tournament #{number} is over.", f"Tournament #{number} has ended.")
        return any(
            m.content.startswith(heading) for m in self.fake.messages_in(self.casino.channel)
        )

    @property
    def mid_round(self) -> bool:
        """A hand is dealt and waits for a player's decision."""
        found = self.board()
        return found is not None and bool(labels_enabled(found[1]) & PLAY_WEIGHTS.keys())

    async def step(self, *, wait: bool = True) -> FakeInteraction | None:
        """One person does the next sensible thing; None when they only waited for the bot."""
        found = self.board()
        if found is None:
            self.entered.clear()
            return await self._send(self.host, "tournament create", wait, **FORMAT)
        number, board = found
        if _ENTRIES_OPEN in embed_text(board):
            pending = [p for p in self.casino.players if p.id not in self.entered]
            if not pending:
                return await self._send(self.host, "tournament start", wait)
            player = self.rng.choice(pending)
            self.entered.add(player.id)
            return await self._send(player, "tournament join", wait)
        self.started.add(number)
        labels = labels_enabled(board)
        playable = sorted(labels & PLAY_WEIGHTS.keys())
        current = round_no(board)
        if playable and current is not None:
            waiting = [p for p in self.casino.players if self.done_in.get(p.id) != current]
            player = self.rng.choice(waiting or self.casino.players)
            label = self.rng.choices(playable, [PLAY_WEIGHTS[name] for name in playable])[0]
            reply = await self._answered(
                self.fake.click(player, board, label=label, wait=False), wait
            )
            if reply is not None and reply.response_type == 4 and reply.ephemeral:
                self.refused += 1  # no hand (or out), or done: said privately
                self.done_in[player.id] = current
            return reply
        if "Bet" in labels and current is not None:
            pending = [p for p in self.casino.players if self.bet_in.get(p.id) != current]
            if pending:
                player = self.rng.choice(pending)
                self.bet_in[player.id] = current
                amount = self.rng.choice(BETS)
                return await self._send(player, "tournament bet", wait, amount=amount)
        # Everyone has bet, or the dealer is playing: the next edit says what comes next.
        edits = board.edits
        try:
            await self.fake.wait_for(
                lambda: board.edits != edits or self.ended(number), max_wait=self.max_wait * 2
            )
        except TimeoutError:
            self.unanswered += 1
        return None

    async def wind_down(self, max_steps: int = 400) -> None:
        """Play the open tournament (if any) to its end."""
        for _ in range(max_steps):
            if self.board() is None:
                return
            await self.step()
        raise AssertionError(f"the tournament did not end in {max_steps} steps")

    async def _send(
        self, member: FakeMember, command: str, wait: bool, **options: object
    ) -> FakeInteraction | None:
        sending = self.fake.slash(member, command, self.casino.channel, wait=False, **options)
        return await self._answered(sending, wait)

    async def _answered(
        self, sending: Awaitable[FakeInteraction], wait: bool
    ) -> FakeInteraction | None:
        reply = await sending
        self.sent += 1
        if not wait:
            return reply
        try:
            await reply.wait_for_response(self.max_wait)
        except NoResponse:
            self.unanswered += 1
        return reply


# -- what a run of tournaments leaves, read straight from the database ----------------------

TOURNAMENTS_SQL = """
    SELECT t.id, t.status, t.pool_round_id, COALESCE(r.void_reason, '')
    FROM tournaments AS t JOIN rounds AS r ON r.id = t.pool_round_id ORDER BY t.id"""
#: The hands of tournament tables: rounds in a tournament's channel but its prize pool.
HANDS_SQL = """
    SELECT r.id, r.rules_json, r.status,
           (SELECT COUNT(*) FROM ledger AS l WHERE l.round_id = r.id)
    FROM rounds AS r
    WHERE r.channel_id IN (SELECT channel_id FROM tournaments)
      AND r.id NOT IN (SELECT pool_round_id FROM tournaments)"""


@dataclass(frozen=True)
class TournamentTotals:
    """How many tournaments ended which way, and how many hands were replayed."""

    finished: int
    cancelled: int
    still_open: int
    hands_replayed: int
    voided_rounds: int
    #: Why each cancelled one was cancelled.
    why_cancelled: list[str]

    def lines(self) -> list[tuple[str, object]]:
        """Figures for a report."""
        return [
            ("tournaments won", self.finished),
            ("cancelled", self.cancelled),
            *(("why", why) for why in self.why_cancelled),
            ("still open", self.still_open),
            ("hands replayed", self.hands_replayed),
        ]


async def _rows(url: str, sql: str) -> list[tuple[Any, ...]]:
    if url.startswith("sqlite:///"):
        conn = sqlite3.connect(sqlite_path(url))
        try:
            return [tuple(row) for row in conn.execute(sql)]
        finally:
            conn.close()
    pg = await asyncpg.connect(url)
    try:
        return [tuple(row) for row in await pg.fetch(numbered(sql))]
    finally:
        await pg.close()


async def check_tournaments(url: str, started: set[int]) -> TournamentTotals:
    """Assert what tournaments must leave: every one the players saw start finished, its
    prizes the whole pool; no hand moved an economy chip, and every settled hand's journal
    replays to its end. Only a tournament cancelled before its first hand (a kill as it was
    created, before its board was posted) may have voided a round: its prize pool."""
    rows = await _rows(url, TOURNAMENTS_SQL)
    status = {int(number): str(state) for number, state, _pool, _why in rows}
    unfinished = {n: status.get(n) for n in started if status.get(n) != "finished"}
    assert not unfinished, f"tournaments that started but did not finish: {unfinished}"
    cancelled_pools = {int(pool) for _n, state, pool, _why in rows if state == "cancelled"}
    async with db.open_store(url) as store:
        for number, state, pool, _why in rows:
            if state == "finished":
                places = await store.tournaments.places(int(number))
                fees = await store.tournaments.fees(int(pool))
                paid = sum(p.prize for p in places)
                assert paid == sum(fees.values()), f"tournament {number}: paid {paid} of {fees}"
        replayed = 0
        for round_id, rules_json, round_status, ledger_rows in await _rows(url, HANDS_SQL):
            assert ledger_rows == 0, f"tournament hand {round_id} moved economy chips"
            assert round_status != "void", f"tournament hand {round_id} was voided"
            actions = await store.tables.round_actions(int(round_id))
            if round_status == "settled" and actions:
                replay_round(str(rules_json), actions)  # asserts the journal plays to the end
                replayed += 1
    voided = {int(r) for (r,) in await _rows(url, "SELECT id FROM rounds WHERE status = 'void'")}
    assert voided <= cancelled_pools, f"rounds voided: {sorted(voided - cancelled_pools)}"
    return TournamentTotals(
        finished=sum(s == "finished" for s in status.values()),
        cancelled=len(cancelled_pools),
        still_open=sum(s == "open" for s in status.values()),
        hands_replayed=replayed,
        voided_rounds=len(voided),
        why_cancelled=[str(why) for _n, state, _pool, why in rows if state == "cancelled"],
    )
