"""Card pictures end to end: the bot uploads its card emojis once and deals with them.

The real bot, the fake Discord (which refuses what Discord refuses and flags any custom
emoji the bot may not use), a real SQLite file.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.app import BlackjackBot, build_bot
from bot.config import Config
from cogs.table.card_art import card_images, wanted_names
from cogs.table.commands import table_cog
from fakediscord import FakeDiscord
from fakediscord.emojis import APPLICATION_EMOJIS_MAX, FakeEmoji
from fakediscord.harness import running_bot
from tests.db.invariants import check_invariants
from tests.support.discord_world import World, embed_text
from tests.support.shoes import SPARE, ShoeQueue

CREATE = "POST /applications/{application_id}/emojis"
LIST = "GET /applications/{application_id}/emojis"


@asynccontextmanager
async def pictures_bot(
    fake: FakeDiscord, url: str, shoes: ShoeQueue | None = None
) -> AsyncIterator[BlackjackBot]:
    """The bot with card pictures on, once its start-up upload has finished."""
    settings = Config(token=fake.token, database_url=url, card_pictures=True)
    async with running_bot(fake, build_bot(settings, clock=fake.clock, shoe_factory=shoes)) as bot:
        await asyncio.wait_for(table_cog(bot).card_emojis.ready.wait(), 10)
        yield bot


def created(fake: FakeDiscord) -> int:
    """Emojis Discord made (201s), whoever asked."""
    return sum(1 for r in fake.requests_to(CREATE) if r.status == 201)


async def test_a_first_start_uploads_53_card_emojis_and_a_second_start_none(
    fake_discord: FakeDiscord, world: World, database_url: str, shoes: ShoeQueue
) -> None:
    fake = fake_discord
    # Discord limits emoji uploads its own way: the bot waits out a 429 and goes on.
    fake.faults.rate_limit(CREATE, times=2, retry_after=0.05)
    shoes.add("Ts 9h 6c 8d " + SPARE)  # Alice 10 6 against the dealer's 9 (8 in the hole)
    async with pictures_bot(fake, database_url, shoes) as first:
        world.bot = first
        assert (table_cog(first).card_emojis.uploaded, created(fake)) == (53, 53)
        faces = table_cog(first).card_emojis.faces
        assert faces is not None
        table = await world.start(world.alice)
        await world.bet(world.alice, "100")
        text = embed_text(table)
        assert f"{faces['10S']}{faces['6C']} · **16** · 100" in text
        assert f"**Dealer** {faces['9H']}{faces['back']} · shows 9" in text
        hint = await fake.click(world.alice, table, label="Hint")
        assert f"Your hand {faces['10S']}{faces['6C']} against {faces['9H']}" in (
            hint.content or ""
        )
        await world.click(world.alice, table, "Stand")
        assert f"{faces['9H']} {faces['8D']}" in embed_text(table)  # the last round's dealer
    assert len(fake.app_emojis) == 53
    assert [r.injected for r in fake.requests_to(CREATE)].count(True) == 2

    async with pictures_bot(fake, database_url) as second:
        assert table_cog(second).card_emojis.uploaded == 0
        assert table_cog(second).card_emojis.faces == faces
    assert (created(fake), len(fake.app_emojis)) == (53, 53)
    await check_invariants(database_url)


async def test_two_shard_processes_starting_together_upload_53_in_all(
    fake_discord: FakeDiscord, world: World, tmp_path: Path
) -> None:
    fake = fake_discord
    fake.expect_errors(50035)  # the name one of them took first
    # Both list the (empty) application before either uploads: a real race for each name.
    listing = fake.faults.hold(LIST, times=2)
    started = []
    async with (
        pictures_bot_unready(fake, f"sqlite:///{tmp_path / 'a.sqlite3'}", (0,)) as one,
        pictures_bot_unready(fake, f"sqlite:///{tmp_path / 'b.sqlite3'}", (1,)) as other,
    ):
        await fake.wait_for(lambda: listing.arrived == 2)
        listing.release()
        for bot in (one, other):
            await asyncio.wait_for(table_cog(bot).card_emojis.ready.wait(), 20)
            started.append(table_cog(bot).card_emojis.uploaded)
        assert table_cog(one).card_emojis.faces is not None
        assert table_cog(one).card_emojis.faces == table_cog(other).card_emojis.faces
    assert sum(started) == 53
    assert (created(fake), len(fake.app_emojis)) == (53, 53)
    assert sorted(e.name for e in fake.app_emojis.values()) == sorted(wanted_names())


@asynccontextmanager
async def pictures_bot_unready(
    fake: FakeDiscord, url: str, shard_ids: tuple[int, ...]
) -> AsyncIterator[BlackjackBot]:
    """A shard process with card pictures on, yielded as soon as it connected."""
    settings = Config(
        token=fake.token, database_url=url, card_pictures=True, shard_count=2, shard_ids=shard_ids
    )
    async with running_bot(fake, build_bot(settings, clock=fake.clock)) as bot:
        yield bot


async def test_a_failed_upload_deals_text_cards_logs_once_and_retries_at_the_next_start(
    fake_discord: FakeDiscord,
    world: World,
    database_url: str,
    shoes: ShoeQueue,
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake = fake_discord
    fake.expect_errors(30008)
    # The application already owns 2,000 other emojis: Discord refuses a 2,001st.
    for number in range(APPLICATION_EMOJIS_MAX):
        emoji_id = fake.snowflake()
        fake.app_emojis[emoji_id] = FakeEmoji(emoji_id, f"other_{number}", b"", "image/png")
    shoes.add("Ts 9h 6c 8d " + SPARE)
    with caplog.at_level(logging.WARNING, logger="cogs.table.card_emojis"):
        async with pictures_bot(fake, database_url, shoes) as bot:
            world.bot = bot
            assert table_cog(bot).card_emojis.faces is None
            table = await world.start(world.alice)
            await world.bet(world.alice, "100")
            assert "▶ 10♠ 6♣ · **16** · 100" in embed_text(table)
            assert "**Dealer** 9♥ ?? · shows 9" in embed_text(table)
            stand = await world.click(world.alice, table, "Stand")
            assert stand.response_type == 7
            assert "Alice: net -100" in embed_text(table)
            assert "<:" not in embed_text(table)
    warnings = [r for r in caplog.records if r.name == "cogs.table.card_emojis"]
    assert len(warnings) == 1
    assert "dealing text cards until the next start" in warnings[0].getMessage()
    assert created(fake) == 0

    # Room was made: the next start uploads the cards.
    fake.app_emojis.clear()
    async with pictures_bot(fake, database_url) as again:
        assert table_cog(again).card_emojis.uploaded == 53
    await check_invariants(database_url)


async def test_a_redrawn_card_is_uploaded_again_and_its_old_picture_deleted(
    fake_discord: FakeDiscord, world: World, database_url: str
) -> None:
    fake = fake_discord
    ace = card_images()["AS"]
    for name in (*wanted_names(), "bj_AS_000000", "house_logo"):
        emoji_id = fake.snowflake()
        fake.app_emojis[emoji_id] = FakeEmoji(emoji_id, name, ace, "image/png")
    current = next(name for name in wanted_names() if name.startswith("bj_AS_"))
    del fake.app_emojis[next(i for i, e in fake.app_emojis.items() if e.name == current)]
    async with pictures_bot(fake, database_url) as bot:
        assert table_cog(bot).card_emojis.uploaded == 1
    names = {e.name for e in fake.app_emojis.values()}
    assert current in names
    assert "bj_AS_000000" not in names  # the old picture of the ace
    assert "house_logo" in names  # not a card: not ours to delete
    assert len(fake.requests_to("DELETE /applications/{application_id}/emojis/{emoji_id}")) == 1


async def test_a_server_chooses_text_cards_and_back_to_pictures(
    fake_discord: FakeDiscord, world: World, database_url: str, shoes: ShoeQueue
) -> None:
    fake = fake_discord
    shoes.add("Ts 9h 6c 8d " + SPARE)
    async with pictures_bot(fake, database_url, shoes) as bot:
        world.bot = bot
        faces = table_cog(bot).card_emojis.faces
        assert faces is not None
        table = await world.start(world.alice)
        await world.bet(world.alice, "100")
        assert faces["10S"] in embed_text(table)
        answer = await world.say(world.admin, "blackjack-admin config", cards="text")
        assert "Cards: text" in answer
        await world.click(world.alice, table, "Hit")  # 2♣: the table is edited in text
        assert "10♠ 6♣ 2♣ · **18**" in embed_text(table)
        assert "<:" not in embed_text(table)
        await world.say(world.admin, "blackjack-admin config", cards="pictures")
        await world.click(world.alice, table, "Stand")
        assert f"Alice: {faces['10S']} {faces['6C']} {faces['2C']} — 18" in embed_text(table)
    await check_invariants(database_url)
