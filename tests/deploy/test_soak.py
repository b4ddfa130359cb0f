"""Short soaks for CI: SIGKILL at seeded random moments, with and without a flaky Discord.

``bench/soak.py`` runs the long one (50 kills); see bench/README.md.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from replay_rounds import check_settled_rounds
from soak_run import GAME_ROUTES, SoakReport, soak
from table_players import Casino, bot_process
from tournament_players import TournamentTable, check_tournaments

from fakediscord import FakeDiscord
from tests.db.invariants import check_invariants
from tests.outage import Outage, PostgresOutage, SQLiteOutage
from tests.pgserver import start_for_tests

CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"


def assert_nothing_lost(report: SoakReport) -> None:
    """Every balance is its ledger, every open round has its table, chips = granted - house
    won, none twice, nothing voided, and every settled round pays what its replay pays."""
    report.economy.assert_consistent()
    totals = report.economy.totals
    assert report.exit_code == 0  # the last run stopped gracefully
    assert totals["settled_rounds"] >= 1  # rounds were played to the end between kills
    assert totals["void_rounds"] == 0  # every round a kill interrupted resumed instead
    assert totals["granted"] == 3 * 1000  # three players, each granted the starting chips once


async def test_five_kills_at_random_moments_lose_and_create_no_chip(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'chips.sqlite3'}"
    casino = Casino.build(fake_discord, "Casino", players=3)
    report = await soak(fake_discord, bot_process(fake_discord, url), casino, url, kills=5, seed=7)
    assert report.kills == 5
    assert_nothing_lost(report)
    assert await check_settled_rounds(url) == report.economy.totals["settled_rounds"]
    await check_invariants(url)


async def test_kills_with_discord_answering_429_and_500_move_no_chip_twice(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    url = f"sqlite:///{tmp_path / 'chips.sqlite3'}"
    casino = Casino.build(fake, "Casino", players=3)
    # The first answer to a player is rate limited, then fails once: discord.py retries both.
    fake.faults.rate_limit(CALLBACK, times=1, retry_after=0.05)
    fake.faults.fail_next(CALLBACK, times=1, status=500)
    # Then a share of every game request (discord.py sleeps 1 s before retrying a 5xx).
    fake.faults.inject_rate_limits(0.05, routes=GAME_ROUTES, seed=11, retry_after=0.05)
    fake.faults.inject_errors(0.02, routes=GAME_ROUTES, seed=12)
    report = await soak(
        fake, bot_process(fake, url), casino, url, kills=3, seed=11, max_steps=20, max_wait=15.0
    )
    assert report.injected_429 >= 1
    assert report.injected_500 >= 1
    assert report.unanswered == 0  # every action was answered, after retries where needed
    assert_nothing_lost(report)
    assert await check_settled_rounds(url) == report.economy.totals["settled_rounds"]
    await check_invariants(url)


@pytest.fixture(params=["sqlite", "postgres"])
def outage_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, Outage]]:
    """A database URL and the outage that takes it away (a server of its own on PostgreSQL)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'chips.sqlite3'}", SQLiteOutage(tmp_path / "store-fails")
        return
    server = start_for_tests()
    try:
        yield server.create_database("soak"), PostgresOutage(server)
    finally:
        server.stop()


async def test_store_outages_with_kills_pause_the_table_and_strand_no_chip(
    fake_discord: FakeDiscord, outage_store: tuple[str, Outage]
) -> None:
    url, outage = outage_store
    env = outage.env if isinstance(outage, SQLiteOutage) else {}
    casino = Casino.build(fake_discord, "Casino", players=3)
    process = bot_process(fake_discord, url, **env)
    report = await soak(
        fake_discord, process, casino, url, kills=3, seed=5, max_steps=15, outages=3, outage=outage
    )
    assert report.outages == 3
    assert report.paused >= 1  # players met the paused table, and it went on afterwards
    assert_nothing_lost(report)
    assert await check_settled_rounds(url) == report.economy.totals["settled_rounds"]
    await check_invariants(url)  # no stake stranded, one open table per channel


async def test_tournaments_through_kills_and_outages_end_with_every_balance_its_ledger(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    url = f"sqlite:///{tmp_path / 'chips.sqlite3'}"
    outage = SQLiteOutage(tmp_path / "store-fails")
    casino = Casino.build(fake, "Casino", players=3)
    players = TournamentTable.build(fake, casino, random.Random(9))
    report = await soak(
        fake,
        bot_process(fake, url, **outage.env),
        casino,
        url,
        kills=4,
        seed=9,
        max_steps=25,
        outages=2,
        outage=outage,
        players=players,
    )
    assert report.outages == 2
    assert players.started  # the kills and outages came while tournaments were played
    totals = await check_tournaments(url, players.started)  # each one dealt finished
    assert totals.finished >= 1
    assert totals.still_open == 0  # the last was played to its end
    assert totals.hands_replayed >= totals.finished
    report.economy.assert_consistent()
    assert report.exit_code == 0
    assert report.economy.totals["void_rounds"] == totals.cancelled
    await check_invariants(url)
