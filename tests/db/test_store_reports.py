"""Leaderboard, player statistics, ledger pages and guild settings."""

from __future__ import annotations

import pytest

import db
from db import HandResult

G, CHANNEL, ADMIN = 10, 30, 99


async def test_the_leaderboard_ranks_ties_together_and_pages(store: db.Store) -> None:
    for user_id, extra in [(1, 0), (2, 500), (3, 500), (4, 100), (5, 0)]:
        await store.ensure_account(G, user_id)
        if extra:
            await store.adjust(G, user_id, extra, ADMIN, "seed")
    first = await store.reports.leaderboard(G, 1, per_page=2, caller_id=4)
    assert [(e.rank, e.user_id, e.balance) for e in first.entries] == [(1, 2, 1500), (1, 3, 1500)]
    assert (first.total_pages, first.total_players) == (3, 5)
    assert first.caller == db.LeaderboardEntry(3, 4, 1100)
    last = await store.reports.leaderboard(G, 3, per_page=2)
    assert [(e.rank, e.user_id) for e in last.entries] == [(4, 5)]
    past_the_end = await store.reports.leaderboard(G, 9, per_page=2)
    assert past_the_end.page == 3
    assert past_the_end.entries == last.entries


async def test_a_caller_without_an_account_has_no_place(store: db.Store) -> None:
    page = await store.reports.leaderboard(G, caller_id=77)
    assert (page.entries, page.caller, page.total_pages) == ([], None, 1)


@pytest.mark.parametrize(("page", "per_page"), [(0, 10), (1, 0), (1, 101), (True, 10)])
async def test_bad_leaderboard_pages_are_refused(store: db.Store, page: int, per_page: int) -> None:
    with pytest.raises(ValueError, match="page"):
        await store.reports.leaderboard(G, page, per_page)


async def test_ledger_pages_run_newest_first_and_only_this_account(store: db.Store) -> None:
    for amount in range(1, 8):  # the grant, then 7 admin rows: 8 rows of user 1
        await store.adjust(G, 1, amount, ADMIN, "seed")
        await store.adjust(G, 2, amount, ADMIN, "someone else")
    newest = await store.reports.ledger_page(G, 1, per_page=3)
    assert [e.delta for e in newest.entries] == [7, 6, 5]
    assert (newest.has_newer, newest.has_older) == (False, True)
    middle = await store.reports.ledger_page(
        G, 1, per_page=3, before_id=newest.entries[-1].entry_id
    )
    assert [e.delta for e in middle.entries] == [4, 3, 2]
    oldest = await store.reports.ledger_page(
        G, 1, per_page=3, before_id=middle.entries[-1].entry_id
    )
    assert [(e.kind, e.delta) for e in oldest.entries] == [("admin", 1), ("grant", 1000)]
    assert (oldest.has_newer, oldest.has_older) == (True, False)
    back = await store.reports.ledger_page(G, 1, per_page=3, after_id=oldest.entries[0].entry_id)
    assert back == middle
    # Fewer than a page newer than the anchor: the newest full page instead.
    assert (
        await store.reports.ledger_page(G, 1, per_page=3, after_id=middle.entries[0].entry_id)
        == newest
    )
    nobody = await store.reports.ledger_page(G, 3)
    assert (nobody.entries, nobody.has_older, nobody.has_newer) == ([], False, False)


async def test_stats_add_up_every_settled_hand(store: db.Store) -> None:
    alice = 21
    for outcome, wagered, payout in [
        ("blackjack", 100, 250),
        ("win", 200, 400),
        ("push", 50, 50),
        ("loss", 100, 0),
        ("surrender", 100, 50),
    ]:
        round_id = await store.open_round(G, CHANNEL, "{}", "shoe")
        await store.stake(G, alice, wagered, "bet", round_id)
        hands = [HandResult(alice, outcome, wagered, payout)]  # type: ignore[arg-type]
        await store.settle_round(round_id, {alice: payout}, hands, "{}")
    stats = await store.reports.stats(G, alice)
    assert stats == db.PlayerStats(
        hands=5,
        wins=2,
        losses=2,
        pushes=1,
        blackjacks=1,
        surrenders=1,
        total_wagered=550,
        net=200,
        biggest_win=200,
    )
    assert await store.reports.stats(G + 1, alice) == db.PlayerStats()


async def test_a_split_hand_is_counted_per_hand(store: db.Store) -> None:
    bob = 22
    round_id = await store.open_round(G, CHANNEL, "{}", "shoe")
    await store.stake(G, bob, 100, "bet", round_id)
    await store.stake(G, bob, 100, "split", round_id)
    await store.stake(G, bob, 100, "double", round_id)
    hands = [HandResult(bob, "win", 200, 400, 0), HandResult(bob, "loss", 100, 0, 1)]
    await store.settle_round(round_id, {bob: 400}, hands, "{}")
    stats = await store.reports.stats(G, bob)
    assert (stats.hands, stats.wins, stats.losses, stats.net, stats.biggest_win) == (
        2,
        1,
        1,
        100,
        200,
    )


async def test_settings_default_until_set_and_keep_other_fields(store: db.Store) -> None:
    assert await store.get_guild_settings(G) == db.GuildSettings()
    await store.set_guild_settings(G, min_bet=25, default_preset="reno-1972")
    await store.set_guild_settings(G, bet_timer_s=45)
    settings = await store.get_guild_settings(G)
    assert (settings.min_bet, settings.default_preset, settings.bet_timer_s) == (
        25,
        "reno-1972",
        45,
    )
    assert settings.max_bet == db.GuildSettings().max_bet
    assert await store.get_guild_settings(G + 1) == db.GuildSettings()


async def test_side_bets_are_rows_one_per_bet_on(store: db.Store) -> None:
    on = await store.set_guild_settings(G, side_bets={"21+3": "9", "buster": "2/2/4/12/50/250"})
    assert on.side_bets == (("21+3", "9"), ("buster", "2/2/4/12/50/250"))
    # One bet changed, one turned off, the rest kept; another server has none.
    changed = await store.set_guild_settings(
        G, side_bets={"21+3": "100/40/30/10/5", "buster": None}, side_max_bet=50
    )
    assert changed.side_bets == (("21+3", "100/40/30/10/5"),)
    assert (changed.side_pay_table("21+3"), changed.side_pay_table("buster")) == (
        "100/40/30/10/5",
        None,
    )
    assert changed.side_max_bet == 50
    assert (await store.get_guild_settings(G)) == changed
    assert (await store.get_guild_settings(G + 1)).side_bets == ()
    with pytest.raises(ValueError, match="pay table"):
        await store.set_guild_settings(G, side_bets={"21+3": ""})
    assert (await store.get_guild_settings(G)) == changed


async def test_a_server_chooses_text_cards_and_back_to_pictures(store: db.Store) -> None:
    assert (await store.get_guild_settings(G)).card_style == "pictures"
    assert (await store.set_guild_settings(G, card_style="text")).card_style == "text"
    assert (await store.get_guild_settings(G + 1)).card_style == "pictures"
    assert (await store.set_guild_settings(G, card_style="pictures")).card_style == "pictures"


@pytest.mark.parametrize(
    "changes",
    [
        {"min_bet": 0},
        {"max_bet": 5},
        {"daily_period_s": 1},
        {"starting_chips": -1},
        {"bet_timer_s": 2.5},
        {"default_preset": ""},
        {"card_style": "holograms"},
        {"house_edge": 1},
        {"side_bets": "9"},
    ],
)
async def test_bad_settings_are_refused_and_change_nothing(
    store: db.Store, changes: dict[str, object]
) -> None:
    await store.set_guild_settings(G, starting_chips=2000)
    with pytest.raises(
        ValueError, match=next(iter(changes)) if "house" not in str(changes) else "house_edge"
    ):
        await store.set_guild_settings(G, **changes)
    assert await store.get_guild_settings(G) == db.GuildSettings(starting_chips=2000)
