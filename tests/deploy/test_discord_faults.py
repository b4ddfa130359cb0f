"""When Discord fails an answer, discord.py retries the HTTP request, never the game action.

The bot runs in the test's event loop (fake clock, stacked shoes), so each
fault hits a known request. discord.py waits 1 s (real time) before retrying a 5xx.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from bot.app import build_bot
from bot.config import Config
from fakediscord import FakeDiscord, FakeMessage
from fakediscord.harness import running_bot
from tests.db.invariants import check_invariants
from tests.support.discord_world import World, embed_text, labels_enabled
from tests.support.shoes import SPARE, ShoeQueue

CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
#: Alice 10 6 against the dealer's 9 8; a double draws a 2 (18 beats 17).
DOUBLE_WINS = "Ts 9h 6c 8d " + SPARE


@asynccontextmanager
async def alice_at_a_table(
    fake: FakeDiscord, tmp_path: Path
) -> AsyncIterator[tuple[World, FakeMessage]]:
    """The real bot on a fresh SQLite file, Alice's table open (its first round deals
    ``DOUBLE_WINS``); the economy's invariants are checked once the bot has stopped."""
    world = World.build(fake)
    shoes = ShoeQueue()
    shoes.add(DOUBLE_WINS)
    url = f"sqlite:///{tmp_path / 'chips.sqlite3'}"
    bot = build_bot(
        Config(card_pictures=False, token=fake.token, database_url=url),
        clock=fake.clock,
        shoe_factory=shoes,
    )
    async with running_bot(fake, bot):
        world.bot = bot
        yield world, await world.start(world.alice)
    await check_invariants(url)


async def test_a_double_discord_did_but_answered_500_is_charged_once(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with alice_at_a_table(fake, tmp_path) as (world, table):
        await world.bet(world.alice, "100")
        assert "Double" in labels_enabled(table)

        # Discord applies the answer to the Double, then says 500: discord.py retries the
        # HTTP request, Discord says it was already acknowledged, and the bot logs that.
        fake.expect_errors(40060)
        fake.faults.fail_after(CALLBACK)
        double = await fake.click(world.alice, table, label="Double")
        assert double.response_type == 7
        await fake.wait_for(lambda: len(fake.requests_to(CALLBACK)) == 4, max_wait=10)
        await world.settle()
        statuses = [r.status for r in fake.requests_to(CALLBACK)]
        # start, the bet (discord.py asks for the message back: 200), the double, its retry
        assert statuses == [200, 200, 500, 400]
        assert fake.requests_to(CALLBACK)[-1].error_code == 40060
        assert "Alice: net +200" in embed_text(table)
        assert await world.ledger(world.alice) == [
            ("grant", 1000),
            ("bet", -100),
            ("double", -100),
            ("payout", 400),
        ]


async def test_table_edits_that_fail_or_are_rate_limited_arrive_once_retried(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with alice_at_a_table(fake, tmp_path) as (world, table):
        # The edit that deals the cards after the bet is rate limited, then fails once.
        fake.faults.rate_limit(EDIT, times=1, retry_after=0.05)
        fake.faults.fail_next(EDIT, times=1, status=502)
        assert await world.bet(world.alice, "100") == "Bet 100. Balance: 900."
        await fake.wait_for(lambda: "Double" in labels_enabled(table), max_wait=10)
        assert [r.status for r in fake.requests_to(EDIT)] == [429, 502, 200]
        await world.click(world.alice, table, "Stand")
        assert "Alice: net -100" in embed_text(table)
        assert await world.ledger(world.alice) == [("grant", 1000), ("bet", -100)]
