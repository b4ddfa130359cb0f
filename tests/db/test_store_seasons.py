"""Seasons (standings from settled rounds, rollover on the store's clock) and achievements."""

from __future__ import annotations

import asyncio

import pytest

import db
from db import HandResult
from db.ops.achievements import RoundAwards
from db.ops.seasons import calendar_span
from db.tournament_store import Place
from tests.support.clocks import START, FakeClock

G, CHANNEL, ADMIN = 10, 30, 99
ALICE, BOB, CAROL = 21, 22, 23


async def _play(store: db.Store, results: dict[int, tuple[str, int, int]]) -> int:
    """One settled round: each player's (outcome, stake, payout); its id."""
    round_id = await store.open_round(G, CHANNEL, "{}", "shoe")
    for user_id, (_, stake, _) in results.items():
        await store.stake(G, user_id, stake, "bet", round_id)
    hands = [HandResult(u, o, s, p) for u, (o, s, p) in results.items()]  # type: ignore[arg-type]
    await store.settle_round(round_id, {u: p for u, (_, _, p) in results.items()}, hands, "{}")
    return round_id


def _table(standings: db.SeasonStandings | None) -> list[tuple[int, int, int, int]]:
    assert standings is not None
    return [(e.rank, e.user_id, e.net, e.rounds) for e in standings.entries]


def test_calendar_spans_are_utc_weeks_months_quarters_and_years() -> None:
    moment = START.replace(month=11, day=25)  # a Wednesday
    assert calendar_span("month", moment)[0] == "2026-11"
    week, monday, next_monday = calendar_span("week", moment)
    assert (week, monday.day, next_monday.day) == ("2026-W48", 23, 30)
    assert calendar_span("quarter", moment)[0] == "2026-Q4"
    assert calendar_span("quarter", moment)[2] == START.replace(year=2027, day=1, hour=0)
    assert calendar_span("year", moment)[0] == "2026"
    assert calendar_span("month", START.replace(month=12, day=31))[2].month == 1


async def test_the_season_ranks_net_chips_of_settled_rounds_only(store: db.Store) -> None:
    await store.adjust(G, CAROL, 5000, ADMIN, "a gift is not play")
    await store.claim_daily(G, BOB)
    await _play(store, {ALICE: ("win", 100, 200), BOB: ("loss", 50, 0)})
    await _play(store, {ALICE: ("loss", 30, 0), BOB: ("win", 130, 260)})
    voided = await store.open_round(G, CHANNEL, "{}", "shoe")
    await store.stake(G, CAROL, 500, "bet", voided)
    await store.void_round(voided, "test")
    standings = await store.competition.season_standings(G)
    assert standings is not None
    assert standings.season.name == "2026-01"
    # Alice +100 -30, Bob -50 +130; Carol's only round was voided.
    assert _table(standings) == [(1, BOB, 80, 2), (2, ALICE, 70, 2)]
    assert standings.entry_of(CAROL) is None
    assert await store.balance(G, CAROL) == 6000  # nothing reset, nothing moved


async def test_at_the_end_the_season_is_archived_and_the_next_one_starts(
    store: db.Store, clock: FakeClock
) -> None:
    await _play(store, {ALICE: ("win", 100, 200)})
    open_across = await store.open_round(G, CHANNEL, "{}", "shoe")
    await store.stake(G, BOB, 40, "bet", open_across)  # staked in January ...
    clock.now = START.replace(month=2, day=1, hour=0)  # midnight: February begins
    hands = [HandResult(BOB, "win", 40, 80)]
    await store.settle_round(open_across, {BOB: 80}, hands, "{}")  # ... settled in February
    await _play(store, {ALICE: ("loss", 500, 0)})
    february = await store.competition.season_standings(G)
    assert february is not None
    assert february.season.name == "2026-02"
    assert _table(february) == [(1, BOB, 40, 1), (2, ALICE, -500, 1)]
    january = await store.competition.season_standings(G, "2026-01")
    assert january is not None
    assert not january.season.is_current
    assert _table(january) == [(1, ALICE, 100, 1)]
    assert await store.competition.season_names(G) == ["2026-02", "2026-01"]
    assert await store.competition.season_standings(G, "2025-12") is None
    assert await store.balance(G, ALICE) == 1000 + 100 - 500


async def test_a_tournament_counts_its_fees_and_prizes_in_the_season_it_ends(
    store: db.Store, clock: FakeClock
) -> None:
    paid, _ = await store.tournaments.create(G, CHANNEL, ADMIN, "{}", "shoe 1", "{}")
    funded, _ = await store.tournaments.create(G, CHANNEL, CAROL, "{}", "shoe 2", "{}")
    cancelled, _ = await store.tournaments.create(G, CHANNEL, ADMIN, "{}", "shoe 3", "{}")
    await store.tournaments.pay_in(paid, G, ALICE, 100, "{}")  # entry fees, in January
    await store.tournaments.pay_in(paid, G, BOB, 100, "{}")
    await store.tournaments.pay_in(funded, G, CAROL, 150, "{}")  # the host's prize pool
    await store.tournaments.pay_in(cancelled, G, ALICE, 500, "{}")
    await store.tournaments.cancel(cancelled, "test", None, "{}")
    clock.now = START.replace(month=2, day=1, hour=0)
    places = [Place(BOB, CHANNEL, 1, 900, None, 200), Place(ALICE, CHANNEL, 2, 0, 1, 0)]
    await store.tournaments.finish(paid, G, places, None, "{}")
    places = [Place(ALICE, CHANNEL, 1, 700, None, 150), Place(BOB, CHANNEL, 2, 0, 1, 0)]
    await store.tournaments.finish(funded, G, places, None, "{}")
    february = await store.competition.season_standings(G)
    assert february is not None
    assert february.season.name == "2026-02"
    # Each finished tournament is one round of the season it ended in: Bob -100 +200;
    # Alice -100 +150 (the refunded fee counts nothing); Carol put 150 into play.
    assert _table(february) == [(1, BOB, 100, 1), (2, ALICE, 50, 2), (3, CAROL, -150, 1)]


async def test_seasons_nobody_asked_about_are_archived_in_order(
    store: db.Store, clock: FakeClock
) -> None:
    await store.competition.current_season(G)
    await _play(store, {ALICE: ("win", 10, 20)})
    clock.now = START.replace(month=4, day=15)
    assert (await store.competition.current_season(G)).name == "2026-04"
    assert await store.competition.season_names(G) == ["2026-04", "2026-03", "2026-02", "2026-01"]
    assert _table(await store.competition.season_standings(G, "2026-01")) == [(1, ALICE, 10, 1)]
    assert _table(await store.competition.season_standings(G, "2026-02")) == []


async def test_a_new_season_length_applies_from_the_next_season(
    store: db.Store, clock: FakeClock
) -> None:
    assert (await store.competition.current_season(G)).name == "2026-01"
    await store.set_guild_settings(G, season_length="week")
    assert (await store.competition.current_season(G)).name == "2026-01"
    clock.now = START.replace(month=2, day=3)
    season = await store.competition.current_season(G)
    assert (season.name, season.starts_at.day, season.ends_at.day) == ("2026-W06", 2, 9)
    # February 1st is a Sunday: the first weekly season ran from it to Monday the 2nd.
    short = await store.competition.season_standings(G, "2026-W05")
    assert short is not None
    assert (short.season.starts_at.day, short.season.ends_at.day) == (1, 2)
    assert await store.competition.season_names(G) == ["2026-W06", "2026-W05", "2026-01"]
    with pytest.raises(ValueError, match="season_length"):
        await store.set_guild_settings(G, season_length="fortnight")


async def test_two_processes_rolling_over_at_once_archive_once(
    store: db.Store, store_url: str, clock: FakeClock
) -> None:
    await _play(store, {ALICE: ("win", 100, 200), BOB: ("loss", 100, 0)})
    clock.now = START.replace(month=3, day=2)
    async with db.open_store(store_url, clock=clock) as other:
        seasons = await asyncio.gather(
            store.competition.current_season(G),
            other.competition.current_season(G),
            *(s.competition.season_standings(G, "2026-01") for s in (store, other) * 3),
        )
    assert {season.name for season in seasons[:2]} == {"2026-03"}
    for standings in seasons[2:]:
        assert _table(standings) == [(1, ALICE, 100, 1), (2, BOB, -100, 1)]  # type: ignore[arg-type]
    assert await store.competition.season_names(G) == ["2026-03", "2026-02", "2026-01"]


async def test_an_award_is_given_once_with_its_source(store: db.Store) -> None:
    assert await store.competition.award(G, ALICE, "tournament_winner", "tournament 7")
    assert not await store.competition.award(G, ALICE, "tournament_winner", "tournament 8")
    assert await store.competition.award(G, BOB, "tournament_winner", "tournament 8")
    held = await store.competition.achievements(G, ALICE)
    assert [(a.key, a.source, a.round_id) for a in held] == [
        ("tournament_winner", "tournament 7", None)
    ]
    assert await store.competition.achievements(G + 1, ALICE) == []
    for bad in ("", "k" * 65, 7):
        with pytest.raises(ValueError, match="key"):
            await store.competition.award(G, ALICE, bad, "x")  # type: ignore[arg-type]


async def _settle_awarding(store: db.Store, outcome: str, awards: RoundAwards) -> db.SettleResult:
    round_id = await store.open_round(G, CHANNEL, "{}", "shoe")
    await store.stake(G, ALICE, 100, "bet", round_id)
    payout = {"blackjack": 250, "loss": 0}[outcome]
    hands = [HandResult(ALICE, outcome, 100, payout)]  # type: ignore[arg-type]
    return await store.settle_round(round_id, {ALICE: payout}, hands, "{}", awards=awards)


async def test_a_settlement_awards_with_its_round_once_and_streaks_count_rounds_in_a_row(
    store: db.Store,
) -> None:
    streak = (("hat_trick", 3),)
    bj = RoundAwards(G, {ALICE: ("first_blackjack",)}, (ALICE,), streak)
    first = await _settle_awarding(store, "blackjack", bj)
    assert first.awarded == {ALICE: ("first_blackjack",)}
    again = await store.settle_round(
        first.round_id, {ALICE: 250}, [HandResult(ALICE, "blackjack", 100, 250)], "{}", awards=bj
    )
    assert again.already_settled
    assert again.awarded == {}
    assert (await _settle_awarding(store, "blackjack", bj)).awarded == {}
    await _settle_awarding(store, "loss", RoundAwards(G))  # the run is broken
    assert (await _settle_awarding(store, "blackjack", bj)).awarded == {}
    assert (await _settle_awarding(store, "blackjack", bj)).awarded == {}
    third = await _settle_awarding(store, "blackjack", bj)
    assert third.awarded == {ALICE: ("hat_trick",)}
    held = await store.competition.achievements(G, ALICE)
    assert [(a.key, a.round_id) for a in held] == [
        ("first_blackjack", first.round_id),
        ("hat_trick", third.round_id),
    ]
