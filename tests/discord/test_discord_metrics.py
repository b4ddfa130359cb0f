"""The Prometheus endpoint, scraped while a real round is played through the fake Discord."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.app import BlackjackBot
from bot.tables.play_words import FIRST_BET_NOTICE
from tests.support.discord_world import World, embed_text
from tests.support.metrics import CALLBACK, moved, scrape, value
from tests.support.shoes import SPARE, ShoeQueue


@pytest.fixture
def bot_settings() -> dict[str, object]:
    """The bot with METRICS_PORT=0 (any free port on 127.0.0.1)."""
    return {"metrics_port": 0}


async def test_a_round_moves_the_metrics_as_it_is_played(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add("Ts 9h 8c 6d 9s 9d Kh " + SPARE)  # Alice 10 6 hits a K: bust; Bob 18 beats 17
    before = await scrape(bot)
    assert value(before, "blackjack_tables_open") == 0
    assert value(before, "blackjack_event_loop_lag_seconds_count") >= 1

    table = await world.start(world.alice)  # command
    await world.click(world.bob, table, "Join")  # click
    seated = await scrape(bot)
    for member, amount in ((world.alice, "100"), (world.bob, "40")):  # commands
        placed = await world.slash(member, "bet", amount=amount)
        # A first bet's notice rides in its answer, the receipt (a followup when deferred).
        (receipt,) = placed.all_messages()
        assert receipt.embed is not None
        assert receipt.embed["description"] == FIRST_BET_NOTICE
    bet = await scrape(bot)
    await world.click(world.alice, table, "Hit")  # click
    await world.click(world.bob, table, "Stand")  # click: the round settles
    after = await scrape(bot)

    answered = "blackjack_interactions_total"
    assert moved(before, after, answered, kind="command", outcome="answered") == 3
    assert moved(before, after, answered, kind="component", outcome="answered") == 3
    latency = "blackjack_interaction_answer_seconds_count"
    assert moved(before, after, latency, kind="command") == 3
    assert moved(before, after, latency, kind="component") == 3
    assert value(after, "blackjack_tables_open") == 1
    assert value(after, "blackjack_players_seated") == 2
    assert moved(before, after, "blackjack_rounds_total", result="settled") == 1
    assert moved(before, after, "blackjack_wagered_chips_total") == 140
    assert moved(before, after, "blackjack_paid_chips_total") == 80
    assert value(after, "blackjack_house_result_chips") == 60
    transactions = "blackjack_db_transaction_duration_seconds_count"
    assert moved(before, after, transactions, operation="stake") == 2
    # A bet is one transaction, its stake (its limits are checked in it, and a player's first
    # bet marks the notice seen in it; the server's gates were read at the table's opening).
    assert moved(seated, bet, transactions, operation="stake") == 2
    assert moved(seated, bet, transactions, operation="mark_notice") == 0
    assert moved(seated, bet, transactions, operation="read_settings") == 0
    assert moved(seated, bet, transactions, operation="player_limits") == 0
    assert moved(before, after, transactions, operation="settle_round") == 1
    assert moved(before, after, "blackjack_db_transaction_errors_total", operation="stake") == 0
    callbacks = moved(
        before,
        after,
        "blackjack_discord_requests_total",
        method="POST",
        route="/interactions/:id/:token/callback",
    )
    sent = world.fake.requests_to(CALLBACK)
    assert callbacks == len(sent) == 6
    status = str(sent[0].status)
    assert value(after, "blackjack_discord_requests_total", status=status) >= 6
    assert world.fake.token not in str(after)
    assert value(after, "blackjack_gateway_latency_seconds", shard="0") == pytest.approx(
        bot.latency
    )


async def test_deferrals_refusals_failures_and_rate_limits_are_counted_apart(
    bot: BlackjackBot, world: World, tmp_path: Path
) -> None:
    before = await scrape(bot)
    table = await world.start(world.alice)  # answered
    await world.refused(world.carol, table, "Leave")  # a table's refusal: Carol has no seat
    assert "house edge" in (await world.say(world.bob, "blackjack rules")).lower()  # deferred
    refused = await world.say(world.alice, "blackjack-admin config")
    assert refused.startswith("Only members with the Manage Server permission")
    with sqlite3.connect(tmp_path / "chips.sqlite3") as conn:
        conn.execute("DROP TABLE daily_claims")  # the database breaks under the bot
    failed = await world.say(world.alice, "daily")
    assert failed.startswith("Something went wrong on my side")
    world.fake.faults.rate_limit(CALLBACK, times=1, retry_after=0.05)
    await world.say(world.alice, "balance")
    after = await scrape(bot)

    counted = "blackjack_interactions_total"
    assert moved(before, after, counted, kind="command", outcome="refused") == 1
    assert moved(before, after, counted, kind="command", outcome="failed") == 1
    assert moved(before, after, counted, kind="command", outcome="answered") == 2
    assert moved(before, after, counted, kind="command", outcome="deferred") == 1
    assert moved(before, after, counted, kind="component", outcome="refused") == 1
    assert moved(before, after, counted, kind="component", outcome="answered") == 0
    errors = "blackjack_db_transaction_errors_total"
    assert moved(before, after, errors, operation="claim_daily") == 1
    route = "/interactions/:id/:token/callback"
    assert (
        moved(before, after, "blackjack_discord_rate_limits_total", route=route, scope="user") == 1
    )
    waited = moved(before, after, "blackjack_discord_rate_limit_wait_seconds_total", route=route)
    assert waited == pytest.approx(0.05)


async def test_side_bets_settled_at_the_deal_count_when_they_are_paid(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    await world.say(world.admin, "blackjack-admin side-bets", bet="21+3", pay_table="9")
    shoes.add("Ts Qs Js 6d " + SPARE)  # Alice 10♠ J♠ and the dealer's Q♠: a straight flush
    table = await world.start(world.alice)
    before = await scrape(bot)
    await world.say(world.alice, "bet", amount="100", **{"21plus3": 10})
    dealt = await scrape(bot)
    assert "Alice: 21+3: straight flush, wins 90" in embed_text(table)
    # The 21+3 bet is settled with the deal (10 staked, 100 back); the round is still open.
    assert moved(before, dealt, "blackjack_wagered_chips_total") == 10
    assert moved(before, dealt, "blackjack_paid_chips_total") == 100
    assert moved(before, dealt, "blackjack_rounds_total") == 0
    # An admin's stop of all play voids the round in play (a host's waits for its end).
    await world.say(world.admin, "blackjack-admin config", stop_all=True)
    stopped = await scrape(bot)
    assert moved(dealt, stopped, "blackjack_rounds_total", result="voided") == 1
    assert moved(dealt, stopped, "blackjack_refunded_chips_total") == 100
