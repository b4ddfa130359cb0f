"""A tournament outlives its process: SIGKILL in the middle of a hand, then it plays on to
its end, and every balance equals its ledger."""

from __future__ import annotations

from pathlib import Path

from table_players import bot_process, read_economy

import db
from bot.tables.resume import BACK
from fakediscord import FakeDiscord
from fakediscord.models import FakeChannel, FakeMember
from fakediscord.records import FakeMessage
from tests.db.invariants import check_invariants
from tests.support.discord_world import embed_text, labels_enabled


def board_in(fake: FakeDiscord, channel: FakeChannel) -> FakeMessage | None:
    for message in fake.messages_in(channel):
        if message.embed is not None and str(message.embed.get("title", "")).startswith(
            "Tournament"
        ):
            return message
    return None


def over(fake: FakeDiscord, channel: FakeChannel) -> bool:
    return any(m.content.startswith("Tournament #1 is over.") for m in fake.messages_in(channel))


async def play_a_step(
    fake: FakeDiscord, channel: FakeChannel, board: FakeMessage, players: list[FakeMember]
) -> None:
    """Everyone bets 10 while bets are open, or presses Stand while the hand is played;
    returns once the board changed (or the tournament is over)."""
    before = board.edits
    labels = labels_enabled(board)
    if "Bet" in labels:
        for player in players:
            await fake.slash(player, "tournament bet", channel, amount="10")
    elif "Stand" in labels:
        for player in players:
            if "Stand" in labels_enabled(board):
                await fake.click(player, board, label="Stand")
    await fake.wait_for(lambda: board.edits > before or over(fake, channel), max_wait=10)


async def test_a_tournament_killed_mid_hand_resumes_and_ends_with_the_ledger_whole(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    url = f"sqlite:///{tmp_path}/chips.sqlite3"
    guild = fake.add_guild("Casino")
    channel = fake.add_text_channel(guild, "tournament")
    host = fake.add_member(guild, "host", permissions=["manage_channels"])
    players = [fake.add_member(guild, f"player{n}") for n in range(3)]
    process = bot_process(fake, url)
    await process.start()
    try:
        created = await fake.slash(
            host, "tournament create", channel, fee=100, hands=3, eliminations="1"
        )
        assert created.response_type == 4, created.errors
        for player in players:
            await fake.slash(player, "tournament join", channel)
        await fake.slash(host, "tournament start", channel)
        board = board_in(fake, channel)
        assert board is not None
        await fake.wait_for(lambda: "Bet" in labels_enabled(board))
        await play_a_step(fake, channel, board, players)  # hand 1 is dealt
        async with db.open_store(url) as store:
            assert [p.id for p in players] == sorted(
                (await store.tournaments.fees(1)).keys()  # every fee is in the pool
            )
        await process.kill()

        await process.start()
        await fake.wait_for(lambda: BACK in embed_text(board), max_wait=10)  # shown again
        for _ in range(40):
            if over(fake, channel):
                break
            await play_a_step(fake, channel, board, players)
        assert over(fake, channel)
        async with db.open_store(url) as store:
            places = await store.tournaments.places(1)
            assert sorted(p.place for p in places) == [1, 2, 3]
            assert sum(p.prize for p in places) == 300
            eliminations = await store.tournaments.eliminations(1)
            assert sum(row.eliminated for row in eliminations) == 1
            assert await store.tournaments.open_tournaments() == []
    finally:
        await process.stop()
    (await read_economy(url)).assert_consistent()
    await check_invariants(url)
