"""Players' own limits, self-exclusion, links and the notice, in the store (both backends)."""

from __future__ import annotations

from datetime import timedelta

import pytest

import db
from db.models import HandResult
from tests.support.clocks import FakeClock

G, ALICE, BOB, CAROL, MOD, CHANNEL = 10, 21, 22, 23, 99, 30


async def _lost_round(store: db.Store, user_id: int, amount: int, n: int) -> None:
    round_id = await store.open_round(G, CHANNEL, "{}", f"shoe-{user_id}-{n}")
    await store.stake(G, user_id, amount, "bet", round_id)
    await store.settle_round(round_id, {user_id: 0}, [HandResult(user_id, "loss", amount, 0)], "{}")


async def _bet(store: db.Store, user_id: int, amount: int, commitment: str) -> int:
    round_id = await store.open_round(G, CHANNEL, "{}", commitment)
    await store.stake(G, user_id, amount, "bet", round_id)
    return round_id


async def test_a_loss_limit_refuses_the_bet_that_would_pass_it(
    store: db.Store, clock: FakeClock
) -> None:
    await store.play.set_limits(ALICE, {"daily_loss": 150})
    await _lost_round(store, ALICE, 100, 1)
    before = await store.reports.ledger(G, ALICE)
    with pytest.raises(db.PlayRefused) as refused:
        await _bet(store, ALICE, 60, "c2")
    assert (refused.value.reason, refused.value.limit, refused.value.lost) == (
        "loss_limit",
        150,
        100,
    )
    assert refused.value.until == clock.now.replace(hour=0) + timedelta(days=1)
    assert await store.reports.ledger(G, ALICE) == before  # nothing written
    await _bet(store, ALICE, 50, "c3")  # exactly to the limit is allowed
    clock.advance(hours=12)  # the next UTC day
    await _bet(store, ALICE, 100, "c4")


async def test_a_raise_waits_a_day_and_a_cut_is_at_once(store: db.Store, clock: FakeClock) -> None:
    await store.play.set_limits(ALICE, {"daily_loss": 100})
    raised = await store.play.set_limits(ALICE, {"daily_loss": 500})
    assert (raised.limits.daily_loss, raised.limits.daily_loss_next) == (100, 500)
    with pytest.raises(db.PlayRefused):
        await _bet(store, ALICE, 200, "c1")
    clock.advance(hours=24)
    assert (await store.play.limits(ALICE)).limits.daily_loss == 500
    await _bet(store, ALICE, 200, "c2")
    cut = await store.play.set_limits(ALICE, {"daily_loss": 50, "session_s": 600})
    assert (cut.limits.daily_loss, cut.limits.daily_loss_next, cut.limits.session_s) == (
        50,
        None,
        600,
    )
    removed = await store.play.set_limits(ALICE, {"session_s": None})
    assert removed.limits.session_s == 600  # removing is loosening: it waits too
    assert removed.limits.session_s_next_at is not None


async def test_an_exclusion_refuses_bets_and_only_an_admin_lifts_the_open_one(
    store: db.Store, clock: FakeClock
) -> None:
    await store.play.exclude(ALICE, 86_400)
    with pytest.raises(db.PlayRefused) as refused:
        await _bet(store, ALICE, 10, "c1")
    assert refused.value.until == clock.now + timedelta(days=1)
    assert not await store.play.lift_exclusion(G, ALICE, MOD, "asked")  # a timed one stays
    clock.advance(days=1)
    await _bet(store, ALICE, 10, "c2")
    await store.play.exclude(ALICE, None)
    assert (await store.play.end_exclusion(ALICE)).limits.until_admin == 1
    clock.advance(days=400)
    with pytest.raises(db.PlayRefused):
        await _bet(store, ALICE, 10, "c3")
    assert await store.play.lift_exclusion(G, ALICE, MOD, "talked it over")
    await _bet(store, ALICE, 10, "c4")
    [entry] = await store.play.moderation_log(G, ALICE)
    assert (entry.action, entry.actor_id, entry.reason) == ("lift", MOD, "talked it over")


async def test_ending_a_timed_exclusion_early_waits_a_day(
    store: db.Store, clock: FakeClock
) -> None:
    await store.play.exclude(ALICE, 30 * 86_400)
    ended = await store.play.end_exclusion(ALICE)
    assert ended.limits.excluded_until is not None
    clock.advance(hours=23)
    with pytest.raises(db.PlayRefused):
        await _bet(store, ALICE, 10, "c1")
    clock.advance(hours=1)
    await _bet(store, ALICE, 10, "c2")


async def test_the_reality_check_comes_after_the_session_and_a_confirmation_goes_on(
    store: db.Store, clock: FakeClock
) -> None:
    await store.play.set_limits(ALICE, {"session_s": 3600})
    await _lost_round(store, ALICE, 100, 1)
    clock.advance(minutes=20)
    await _lost_round(store, ALICE, 50, 2)
    clock.advance(minutes=20)
    await _bet(store, ALICE, 10, "c3")
    clock.advance(minutes=20)
    with pytest.raises(db.PlayRefused) as refused:
        await _bet(store, ALICE, 10, "c4")
    assert (refused.value.reason, refused.value.played_s, refused.value.net) == (
        "reality_check",
        3600,
        -160,
    )
    await store.play.confirm_reality_check(ALICE)
    await _bet(store, ALICE, 10, "c5")


async def test_linked_accounts_share_one_daily_claim_and_one_set_of_limits(
    store: db.Store, clock: FakeClock
) -> None:
    await store.play.set_limits(BOB, {"daily_loss": 100})
    assert await store.play.link(G, ALICE, BOB, MOD, "same person")
    assert not await store.play.link(G, BOB, ALICE, MOD, "again")
    assert (await store.claim_daily(G, ALICE)).claimed
    shared = await store.claim_daily(G, BOB)
    assert not shared.claimed
    assert shared.next_claim_at == clock.now + timedelta(days=1)
    await _lost_round(store, ALICE, 80, 1)
    with pytest.raises(db.PlayRefused):
        await _bet(store, BOB, 30, "c2")  # Alice's loss counts for Bob
    limits = await store.play.limits(ALICE, guild_id=G)  # linked in G
    assert (limits.linked, limits.limits.daily_loss, limits.lost_today) == ((BOB,), 100, 80)
    assert await store.play.unlink(G, BOB, MOD, "not the same person")
    await _bet(store, BOB, 30, "c3")  # Bob keeps a copy of the limits, but not Alice's losses
    assert (await store.play.limits(BOB)).limits.daily_loss == 100
    log = await store.play.moderation_log(G, BOB)
    assert [(e.action, e.reason) for e in log] == [
        ("unlink", "not the same person"),
        ("link", "same person"),
    ]


async def test_the_notice_is_marked_once(store: db.Store) -> None:
    assert await store.play.mark_notice(ALICE)
    assert not await store.play.mark_notice(ALICE)
    assert (await store.play.limits(ALICE)).notice_shown


async def test_a_bets_stake_marks_the_notice_in_its_own_transaction_once(
    store: db.Store,
) -> None:
    round_id = await store.open_round(G, CHANNEL, "{}", "c1")
    first = await store.stake_bet(G, ALICE, 100, round_id, notice=True)
    assert first == db.Staked(await store.balance(G, ALICE), first_notice=True)
    again = await store.stake_bet(G, BOB, 100, round_id)  # not asked: not marked
    assert not again.first_notice
    assert not (await store.play.limits(BOB)).notice_shown
    later = await store.stake_bet(
        G, ALICE, 50, await store.open_round(G, CHANNEL, "{}", "c2"), notice=True
    )
    assert not later.first_notice
    assert (await store.play.limits(ALICE)).notice_shown


async def test_a_refused_bet_leaves_the_notice_unmarked(store: db.Store) -> None:
    round_id = await store.open_round(G, CHANNEL, "{}", "c1")
    balance = await store.balance(G, ALICE)
    with pytest.raises(db.InsufficientChips):
        await store.stake_bet(G, ALICE, balance + 1, round_id, notice=True)
    assert not (await store.play.limits(ALICE)).notice_shown
    assert (await store.stake_bet(G, ALICE, balance, round_id, notice=True)).first_notice


async def test_a_table_document_saved_with_a_bet_marks_the_notice_once(store: db.Store) -> None:
    write = db.TableWrite("t1", G, CHANNEL, None, None, 1, "{}")
    assert await store.tables.save_table(write, notice_for=ALICE)
    assert not await store.tables.save_table(write, notice_for=ALICE)
    assert not await store.tables.save_table(write)
    assert (await store.play.limits(ALICE)).notice_shown


async def test_linking_an_account_to_itself_is_refused(store: db.Store) -> None:
    with pytest.raises(ValueError, match="itself"):
        await store.play.link(G, ALICE, ALICE, MOD, "oops")


async def test_a_players_limits_hold_in_every_server(store: db.Store) -> None:
    await store.play.set_limits(ALICE, {"daily_loss": 150})
    await _lost_round(store, ALICE, 100, 1)
    other = await store.open_round(G + 1, CHANNEL + 1, "{}", "elsewhere")
    with pytest.raises(db.PlayRefused) as refused:
        await store.stake(G + 1, ALICE, 100, "bet", other)
    assert refused.value.lost == 100
    await store.stake(G + 1, ALICE, 50, "bet", other)


async def test_an_admins_lift_holds_in_the_admins_server_only(store: db.Store) -> None:
    await store.play.exclude(ALICE, None)  # Alice's break, until an admin lifts it
    assert await store.play.lift_exclusion(G + 1, ALICE, MOD, "another server's admin")
    assert not await store.play.lift_exclusion(G + 1, ALICE, MOD, "again")  # once a server
    with pytest.raises(db.PlayRefused) as refused:
        await _bet(store, ALICE, 10, "here")  # her break holds in every other server
    assert (refused.value.reason, refused.value.until) == ("excluded", None)
    there = await store.open_round(G + 1, CHANNEL + 1, "{}", "there")
    await store.stake(G + 1, ALICE, 10, "bet", there)
    assert (await store.play.limits(ALICE, guild_id=G)).limits.until_admin == 1
    assert (await store.play.limits(ALICE, guild_id=G + 1)).limits.until_admin == 0
    assert (await store.play.limits(ALICE)).limits.until_admin == 1  # as she set it
    assert await store.play.moderation_log(G, ALICE) == []  # logged where it was done
    [entry] = await store.play.moderation_log(G + 1, ALICE)
    assert (entry.action, entry.reason) == ("lift", "another server's admin")

    await store.play.exclude(ALICE, None)  # a new break holds everywhere again
    later = await store.open_round(G + 1, CHANNEL + 1, "{}", "later")
    with pytest.raises(db.PlayRefused):
        await store.stake(G + 1, ALICE, 10, "bet", later)


async def test_a_link_holds_in_the_admins_server_only_and_writes_no_players_limits(
    store: db.Store,
) -> None:
    await store.play.set_limits(BOB, {"daily_loss": 1})  # Bob's own, strict limit
    await store.play.exclude(CAROL, None)  # Carol's break
    assert await store.play.link(G + 1, ALICE, BOB, MOD, "another server's admin")
    assert await store.play.link(G + 1, ALICE, CAROL, MOD, "and again")
    # In G, Alice is nobody's: her own (no) limits, her own claim.
    await _bet(store, ALICE, 100, "here")
    assert (await store.play.limits(ALICE, guild_id=G)).linked == ()
    assert (await store.claim_daily(G, ALICE)).claimed
    # In G + 1 her group's stricter limits and Carol's break hold.
    there = await store.open_round(G + 1, CHANNEL + 1, "{}", "there")
    with pytest.raises(db.PlayRefused) as refused:
        await store.stake(G + 1, ALICE, 10, "bet", there)
    assert refused.value.reason == "excluded"
    shown = await store.play.limits(ALICE, guild_id=G + 1)
    assert (shown.linked, shown.limits.daily_loss, shown.limits.until_admin) == (
        (BOB, CAROL),
        1,
        1,
    )
    assert await store.play.moderation_log(G, ALICE) == []
    assert len(await store.play.moderation_log(G + 1, ALICE)) == 2
    # An unlink leaves every account with the limits its own player set.
    assert await store.play.unlink(G + 1, ALICE, MOD, "not the same person")
    assert (await store.play.limits(ALICE, guild_id=G + 1)).limits == (
        await store.play.limits(ALICE)
    ).limits
    assert (await store.play.limits(ALICE)).limits.daily_loss is None
    assert (await store.play.limits(BOB, guild_id=G + 1)).linked == (CAROL,)
    await store.stake(G + 1, ALICE, 10, "bet", there)
