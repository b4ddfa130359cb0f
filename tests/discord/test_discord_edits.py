"""How the table message is kept current: one response per click, coalesced channel edits."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import discord
import pytest

from bot.app import BlackjackBot, build_bot
from bot.config import Config
from bot.tables.resume import BACK
from cogs.table.commands import table_cog
from cogs.table.refusals import CLICK_FAILED
from fakediscord.harness import running_bot
from tests.db.invariants import check_invariants
from tests.support.discord_world import World, embed_text, labels_enabled

EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"


def edits_sent(world: World) -> int:
    """Channel edits the fake accepted or refused (injected 429s left out)."""
    return len([r for r in world.fake.requests_to(EDIT) if not r.injected])


async def test_a_click_is_answered_by_its_response_alone(bot: BlackjackBot, world: World) -> None:
    table = await world.start(world.alice)
    before = edits_sent(world)
    joined = await world.click(world.bob, table, "Join")
    assert joined.response_type == 7
    assert "## Bob" in embed_text(table)
    assert edits_sent(world) == before  # the version the click showed is never sent again


async def test_changes_during_an_edit_are_coalesced_into_one_edit_of_the_newest(
    bot: BlackjackBot, world: World
) -> None:
    fake = world.fake
    table = await world.start(world.alice)
    await world.click(world.bob, table, "Join")
    await world.click(world.carol, table, "Join")
    before = edits_sent(world)
    # The first edit meets a rate limit and waits 0.3 s; three changes arrive meanwhile.
    fake.faults.rate_limit(EDIT, retry_after=0.3)
    await fake.slash(world.alice, "bet", world.channel, amount="100")
    await fake.slash(world.bob, "bet", world.channel, amount="200")
    await fake.slash(world.mod, "blackjack join", world.channel)
    await fake.slash(world.admin, "blackjack join", world.channel)
    await world.settle()
    assert edits_sent(world) == before + 2  # Alice's bet, then the newest table at once
    text = embed_text(table)
    assert "## Alice\nBet 100" in text
    assert "## Bob\nBet 200" in text
    assert "## Croupier\nNo bet yet" in text
    latest = world.table()
    assert table_cog(world.running).messages.shown_version(latest.table_id) == latest.version


async def test_a_graceful_stop_leaves_the_table_as_it_was_and_the_next_start_resumes_it(
    world: World, tmp_path: Path
) -> None:
    fake = world.fake
    url = f"sqlite:///{tmp_path}/chips.sqlite3"
    config = Config(card_pictures=False, token=fake.token, database_url=url)
    async with running_bot(fake, build_bot(config, clock=fake.clock)) as bot:
        world.bot = bot
        table = await world.start(world.alice)
        await world.click(world.bob, table, "Join")
        await world.bet(world.alice, "100")
        shown = embed_text(table)
    assert embed_text(table) == shown  # nothing voided, nothing edited
    async with running_bot(fake, build_bot(config, clock=fake.clock)) as bot:
        world.bot = bot
        await world.settle()
        assert BACK in embed_text(table)
        assert "## Alice\nBet 100" in embed_text(table)
        assert await world.ledger(world.alice) == [("grant", 1000), ("bet", -100)]
    await check_invariants(url)


async def test_a_click_during_a_slow_edit_is_answered_at_once_and_the_newest_table_wins(
    bot: BlackjackBot, world: World
) -> None:
    fake = world.fake
    table = await world.start(world.alice)
    await world.click(world.bob, table, "Join")
    await world.click(world.carol, table, "Join")
    # Alice's bet starts an edit that a rate limit holds back for half a second.
    fake.faults.rate_limit(EDIT, retry_after=0.5)
    before = edits_sent(world)
    await fake.slash(world.alice, "bet", world.channel, amount="100")
    left = await fake.click(world.carol, table, label="Leave")
    assert left.response_type == 7
    answered_at = len(fake.requests)
    await world.settle()
    edits = [i for i, r in enumerate(fake.requests) if r.route == EDIT and not r.injected]
    assert edits[-1] >= answered_at  # the click did not wait for the edit in flight
    # Whichever of the two Discord applied last, the newest table is sent once more.
    assert edits_sent(world) == before + 2
    text = embed_text(table)
    assert "## Alice\nBet 100" in text
    assert "## Carol" not in text
    latest = world.table()
    assert table_cog(world.running).messages.shown_version(latest.table_id) == latest.version


async def test_bets_placed_at_once_are_shown_by_one_edit_of_the_table(
    bot: BlackjackBot, world: World
) -> None:
    fake = world.fake
    table = await world.start(world.alice)
    await world.click(world.bob, table, "Join")
    await world.click(world.carol, table, "Join")
    before = edits_sent(world)
    # Each bet's answer waits at Discord, so all three bets are in flight together.
    held = fake.faults.hold(
        "POST /interactions/{interaction_id}/{interaction_token}/callback", times=3
    )
    bets = [
        await fake.slash(member, "bet", world.channel, amount="100", wait=False)
        for member in (world.alice, world.bob, world.carol)
    ]
    await fake.wait_for(lambda: held.arrived == 3)
    assert edits_sent(world) == before  # no edit while a bet is being answered
    held.release()
    for bet in bets:
        await bet.wait_for_response()
    await world.settle()
    assert edits_sent(world) == before + 1  # the three bets and the deal, in one edit
    assert labels_enabled(table) >= {"Hit", "Stand"}
    latest = world.table()
    assert table_cog(world.running).messages.shown_version(latest.table_id) == latest.version


CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"


async def test_two_clicks_answered_out_of_order_still_leave_the_newest_table(
    bot: BlackjackBot, world: World
) -> None:
    fake = world.fake
    table = await world.start(world.alice)
    # Bob's answer is slow to reach Discord; Carol's, sent after it, arrives first.
    slow = fake.faults.hold(CALLBACK)
    bob = asyncio.create_task(fake.click(world.bob, table, label="Join"))
    await fake.wait_for(lambda: slow.arrived == 1)
    carol = await fake.click(world.carol, table, label="Join")
    assert carol.response_type == 7
    slow.release()
    assert (await bob).response_type == 7
    await world.settle()
    # Bob's older table landed last; the bot must send the newest once more.
    text = embed_text(table)
    assert "## Bob" in text
    assert "## Carol" in text
    latest = world.table()
    assert table_cog(world.running).messages.shown_version(latest.table_id) == latest.version


async def test_a_clicks_answer_met_by_a_rate_limit_or_a_server_error_is_sent_again(
    bot: BlackjackBot, world: World
) -> None:
    """A 429 or a 5xx met by a click's answer: discord.py waits and sends it again."""
    table = await world.start(world.alice)
    world.fake.faults.rate_limit(CALLBACK, times=1, retry_after=0.05)
    joined = await world.click(world.bob, table, "Join")
    assert joined.response_type == 7
    world.fake.faults.fail_next(CALLBACK, times=1, status=502)
    left = await world.click(world.bob, table, "Leave")
    assert left.response_type == 7
    assert "## Bob" not in embed_text(table)
    statuses = [r.status for r in world.fake.requests_to(CALLBACK)[-4:]]
    assert statuses[0] == 429
    assert statuses[2] == 502
    assert 200 <= statuses[1] < 300
    assert 200 <= statuses[3] < 300


@pytest.mark.parametrize(("status", "error"), [(403, discord.Forbidden), (404, discord.NotFound)])
async def test_a_clicks_answer_refused_raises_what_discord_py_raises(
    bot: BlackjackBot,
    world: World,
    caplog: pytest.LogCaptureFixture,
    status: int,
    error: type[discord.HTTPException],
) -> None:
    """A refused answer raises discord.py's error (Forbidden, NotFound): the click is
    apologised for and the table shows the join."""
    table = await world.start(world.alice)
    world.fake.faults.fail_next(CALLBACK, times=1, status=status)
    with caplog.at_level(logging.ERROR, logger="cogs.table.commands"):
        joined = await world.click(world.bob, table, "Join")
    assert joined.content == CLICK_FAILED
    assert "## Bob" in embed_text(table)
    failures = [r for r in caplog.records if r.name == "cogs.table.commands" and r.exc_info]
    assert len(failures) == 1
    assert failures[0].exc_info is not None
    raised = failures[0].exc_info[1]
    assert type(raised) is error
    assert isinstance(raised, discord.HTTPException)
    assert raised.status == status


async def test_a_click_whose_answer_fails_gets_an_apology_and_the_table_still_shows_it(
    bot: BlackjackBot, world: World
) -> None:
    table = await world.start(world.alice)
    before = edits_sent(world)
    # Discord refuses the click's answer (400): the join is applied, its answer lost.
    world.fake.faults.fail_next(CALLBACK, times=1, status=400)
    joined = await world.click(world.bob, table, "Join")
    assert joined.response_type == 4
    assert joined.ephemeral
    assert joined.content == CLICK_FAILED  # not "This interaction failed", not "nothing changed"
    assert "## Bob" in embed_text(table)  # the applied join is edited in instead
    assert edits_sent(world) == before + 1
    assert world.table().seats[-1].name == "Bob"
