"""Players who keep a table busy through the fake Discord, whatever the bot process is doing.

Used by the deploy tests and by ``bench/soak.py``. The bot runs as a process
(``python -m bot``) on the system clock with random shoes, so the players read
the table message the way a person would: the enabled buttons say what can be
done, and a refusal is just an answer. Every wait is on the fake's state.
"""

from __future__ import annotations

import atexit
import random
import shutil
import sqlite3
import sys
import tempfile
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg

from cogs.table.buttons import parse_custom_id
from db import sqlite_path
from fakediscord import FakeDiscord
from fakediscord.harness import BotProcess
from fakediscord.interactions import FakeInteraction, NoResponse
from fakediscord.models import FakeChannel, FakeGuild, FakeMember
from fakediscord.records import FakeMessage
from tests.support.discord_world import labels_enabled
from tests.support.table_buttons import round_no

#: Settings a developer's .env might hold that would point the bot elsewhere.
NO_DOTENV = {"DEV_GUILD_ID": "", "SHARD_COUNT": "", "SHARD_IDS": "", "LOG_LEVEL": "WARNING"}
BOT_ARGV = (sys.executable, "-m", "bot")
#: The bot processes' working folder (their code comes by PYTHONPATH, see BotProcess): what
#: a bot writes relative to it, a PostgreSQL bot's charts in ./data/strategy, stays out of
#: the checkout.
WORK_FOLDER = Path(tempfile.mkdtemp(prefix="blackjack-bots-"))
atexit.register(shutil.rmtree, WORK_FOLDER, ignore_errors=True)
#: Buttons a player presses during a round, with how often a player picks each.
PLAY_WEIGHTS = {
    "Stand": 6,
    "Hit": 3,
    "Double": 1,
    "Split": 1,
    "Surrender": 1,
    "Insurance": 1,
    "No insurance": 3,
}
BETS = ("10", "15", "25", "40")


def bot_process(
    fake: FakeDiscord, database_url: str, *, shards: int = 1, **settings: str
) -> BotProcess:
    """``python -m bot`` against the fake with these settings (and nothing from a .env)."""
    env = {**NO_DOTENV, "DATABASE_URL": database_url, **settings}
    return BotProcess(fake, BOT_ARGV, env=env, cwd=WORK_FOLDER, shards=shards)


async def stop_all(*processes: BotProcess) -> None:
    """SIGTERM each process; every one must exit 0 (a graceful stop)."""
    for process in processes:
        await process.stop()
    codes = [None if p.process is None else p.process.returncode for p in processes]
    assert codes == [0] * len(processes), codes


#: The actions of a round's buttons once it is dealt (insurance, then the decisions).
_DEALT_ACTIONS = frozenset(
    {"insurance", "no_insurance", "hit", "stand", "double", "split", "surrender", "hint"}
)


def betting(message: FakeMessage) -> bool:
    """Whether the table takes bets: none of a dealt round's buttons are on it (Bet again
    is there only once someone has bet before)."""
    actions = {
        ref.action
        for button in message.buttons()
        if (ref := parse_custom_id(button.get("custom_id", ""))) is not None
    }
    return bool(actions) and not actions & _DEALT_ACTIONS


@dataclass
class Casino:
    """One server with a table channel and its players."""

    guild: FakeGuild
    channel: FakeChannel
    players: list[FakeMember]

    @classmethod
    def build(
        cls, fake: FakeDiscord, name: str, players: int = 3, *, shard: int | None = None
    ) -> Casino:
        """Create the server on the fake (on ``shard`` of 2 when given)."""
        guild = fake.add_guild(name) if shard is None else fake.add_guild(name, shard=shard, of=2)
        channel = fake.add_text_channel(guild, "blackjack")
        members = [fake.add_member(guild, f"player{n}") for n in range(players)]
        return cls(guild, channel, members)


def one_person_on_two_shards(fake: FakeDiscord, players: int = 1) -> list[Casino]:
    """A server on each of two shards; the first player of each is one person (one user id)."""
    casinos = [Casino.build(fake, f"Casino {n}", players=players, shard=n) for n in range(2)]
    alice = casinos[0].players[0]
    casinos[1].players[0] = fake.add_member(casinos[1].guild, "alice", user=alice.user)
    return casinos


async def two_shard_processes(fake: FakeDiscord, url: str) -> tuple[BotProcess, BotProcess]:
    """Two bot processes on ``url``, shard 0 and shard 1 of 2, started."""
    first = bot_process(fake, url, SHARD_COUNT="2", SHARD_IDS="0")
    second = bot_process(fake, url, SHARD_COUNT="2", SHARD_IDS="1")
    await first.start()
    await second.start()
    assert (first.shard_ids, second.shard_ids) == ([0], [1])
    return first, second


@dataclass
class Table:
    """What the players know of the table in one channel, and what they did there."""

    fake: FakeDiscord
    casino: Casino
    rng: random.Random
    #: Real seconds a player waits for an answer (discord.py sleeps 1 s, 3 s... on a 5xx).
    max_wait: float = 5.0
    message: FakeMessage | None = None
    bet_in: dict[int, int] = field(default_factory=dict)
    done_in: dict[int, int] = field(default_factory=dict)
    sent: int = 0
    #: /bet's side-bet options ("buster": 5), each added to a bet at random (none: none).
    side_bets: dict[str, int] = field(default_factory=dict)
    #: Button presses refused (ephemerally) because the presser had nothing to do.
    refused: int = 0
    unanswered: int = 0

    def resumed(self) -> None:
        """The bot restarted: the same message carries on (a deleted one means a new table).

        A bet sent as the bot died may never have arrived: everyone offers theirs again
        (one already placed is refused, privately, and changes nothing).
        """
        if self.message is not None and self.message.deleted:
            self.forget()
        self.bet_in.clear()
        self.done_in.clear()

    async def wind_down(self) -> None:
        """Nothing to finish: a graceful stop keeps the table for the next start."""

    def forget(self) -> None:
        """The table is gone (it could not resume): the next step opens a new one."""
        self.message = None
        self.bet_in.clear()

    @property
    def mid_round(self) -> bool:
        """A round is dealt and waits for a player's decision."""
        return self.message is not None and bool(labels_enabled(self.message) & PLAY_WEIGHTS.keys())

    async def step(self, *, wait: bool = True) -> FakeInteraction | None:
        """One player does the next sensible thing; None when they only waited for the bot."""
        message = self.message
        if message is None or message.deleted or not message.buttons():
            return await self._send_start(wait)
        labels = labels_enabled(message)
        playable = sorted(labels & PLAY_WEIGHTS.keys())
        current = round_no(message)
        if playable:
            # Someone refused this round (no hand, or done) is asked last.
            waiting = [p for p in self.casino.players if self.done_in.get(p.id) != current]
            player = self.rng.choice(waiting or self.casino.players)
            label = self.rng.choices(playable, [PLAY_WEIGHTS[name] for name in playable])[0]
            reply = await self._answered(
                self.fake.click(player, message, label=label, wait=False), wait
            )
            if reply is not None and reply.response_type == 4 and reply.ephemeral:
                self.refused += 1  # no hand, or done: said privately, the table unchanged
                if current is not None:
                    self.done_in[player.id] = current
            return reply
        if betting(message) and current is not None:
            pending = [p for p in self.casino.players if self.bet_in.get(p.id) != current]
            if pending:
                player = self.rng.choice(pending)
                self.bet_in[player.id] = current
                amount = self.rng.choice(BETS)
                side = {
                    name: stake for name, stake in self.side_bets.items() if self.rng.random() < 0.5
                }
                return await self._answered(
                    self.fake.slash(
                        player, "bet", self.casino.channel, amount=amount, wait=False, **side
                    ),
                    wait,
                )
        # Everyone has bet, or the dealer is playing: the next edit says what comes next.
        edits = message.edits
        try:
            await self.fake.wait_for(lambda: message.edits != edits, max_wait=self.max_wait * 2)
        except TimeoutError:
            self.unanswered += 1
            self.message = None  # stuck (an edit lost for good): the next step starts anew
        return None

    async def _send_start(self, wait: bool) -> FakeInteraction | None:
        host = self.rng.choice(self.casino.players)
        self.bet_in.clear()
        reply = await self._answered(
            self.fake.slash(host, "blackjack start", self.casino.channel, wait=False), wait
        )
        if reply is not None and wait and reply.response_type == 4 and not reply.ephemeral:
            self.message = reply.original
        elif reply is not None and wait and reply.content and "/channels/" in reply.content:
            # "A table is already open in this channel. It's here: <link>": play there.
            message_id = int(reply.content.rstrip().rsplit("/", 1)[-1])
            self.message = self.fake.messages.get(message_id)
        return reply

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
        if reply.response_type == 4 and not reply.ephemeral and reply.original is not None:
            self.message = reply.original  # a new table was posted
            self.bet_in.clear()
        return reply


# -- the ledger, read straight from the database -------------------------------------------

CHIPS_SQL = {
    "granted": "SELECT COALESCE(SUM(delta), 0) FROM ledger"
    " WHERE kind IN ('grant', 'daily', 'admin')",
    "house_won": "SELECT COALESCE(-SUM(delta), 0) FROM ledger"
    " WHERE kind IN ('bet', 'double', 'split', 'insurance', 'side_bet', 'payout',"
    " 'side_payout', 'refund')",
    "held": "SELECT COALESCE(SUM(balance), 0) FROM accounts",
    "open_rounds": "SELECT COUNT(*) FROM rounds WHERE status = 'open'",
    # A round open with no open table (or tournament, for its prize pool) to resume it
    # would keep its stakes forever.
    "orphan_rounds": "SELECT COUNT(*) FROM rounds WHERE status = 'open' AND id NOT IN"
    " (SELECT round_id FROM live_tables WHERE status = 'open' AND round_id IS NOT NULL"
    " UNION SELECT pool_round_id FROM tournaments WHERE status = 'open')",
    "settled_rounds": "SELECT COUNT(*) FROM rounds WHERE status = 'settled'",
    "void_rounds": "SELECT COUNT(*) FROM rounds WHERE status = 'void'",
    "ledger_rows": "SELECT COUNT(*) FROM ledger",
    "side_bets_staked": "SELECT COUNT(*) FROM ledger WHERE kind = 'side_bet'",
    "side_bets_paid": "SELECT COUNT(*) FROM ledger WHERE kind = 'side_payout'",
    # How many of the side bets (21+3, Perfect Pairs, ...) have a recorded result.
    "side_bets_settled_kinds": "SELECT COUNT(DISTINCT bet) FROM side_bet_results",
}
ACCOUNTS_SQL = """
    SELECT a.guild_id, a.user_id, a.balance, COALESCE(SUM(l.delta), 0)
    FROM accounts AS a LEFT JOIN ledger AS l ON l.guild_id = a.guild_id AND l.user_id = a.user_id
    GROUP BY a.guild_id, a.user_id, a.balance"""
#: A chip that moved twice: a second bet, payout or refund for one player in one round
#: (side bets pay twice a round at most: those the deal settles at the deal, the rest at the end).
TWICE_SQL = """
    SELECT round_id, user_id, kind, COUNT(*) FROM ledger
    WHERE kind IN ('bet', 'side_bet', 'payout', 'side_payout', 'refund')
    GROUP BY round_id, user_id, kind
    HAVING COUNT(*) > CASE WHEN kind = 'side_payout' THEN 2 ELSE 1 END"""


@dataclass(frozen=True)
class Economy:
    """The economy's totals and every account's balance beside its ledger sum."""

    totals: dict[str, int]
    accounts: list[tuple[int, int, int, int]]
    moved_twice: list[tuple[int, int, str, int]]

    def assert_consistent(self) -> None:
        """Every account equals its ledger, every open round belongs to an open table (which
        resumes it), chips = granted - house won (stakes on the table count as the house's)."""
        for guild_id, user_id, balance, ledger_sum in self.accounts:
            assert balance == ledger_sum, f"account {guild_id}/{user_id}: {balance} != {ledger_sum}"
        orphans = self.totals["orphan_rounds"]
        assert orphans == 0, f"{orphans} open round(s) with no table to resume them"
        assert self.totals["held"] == self.totals["granted"] - self.totals["house_won"], self.totals
        assert not self.moved_twice, f"chips moved twice: {self.moved_twice}"


async def read_economy(url: str) -> Economy:
    """The totals of the database at ``url`` (SQLite file or PostgreSQL)."""
    if url.startswith("sqlite:///"):
        conn = sqlite3.connect(sqlite_path(url))
        try:
            totals = {name: int(conn.execute(sql).fetchone()[0]) for name, sql in CHIPS_SQL.items()}
            accounts = [tuple(int(v) for v in row) for row in conn.execute(ACCOUNTS_SQL)]
            twice = [tuple(row) for row in conn.execute(TWICE_SQL)]
        finally:
            conn.close()
    else:
        pg = await asyncpg.connect(url)
        try:
            totals = {name: int(await pg.fetchval(sql)) for name, sql in CHIPS_SQL.items()}
            accounts = [tuple(int(v) for v in row) for row in await pg.fetch(ACCOUNTS_SQL)]
            twice = [tuple(row) for row in await pg.fetch(TWICE_SQL)]
        finally:
            await pg.close()
    return Economy(totals, accounts, twice)  # type: ignore[arg-type]


def describe(economy: Economy, extra: Sequence[tuple[str, object]] = ()) -> str:
    """One line per figure, for a report."""
    lines = [f"{name:>16}: {value}" for name, value in economy.totals.items()]
    lines += [f"{name:>16}: {value}" for name, value in extra]
    return "\n".join(lines)
