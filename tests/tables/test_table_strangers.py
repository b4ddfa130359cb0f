"""What strangers found at the table (issue 13): names as written, the chip ceiling, words."""

from __future__ import annotations

import pytest

import db
from bot.engine import Action
from bot.i18n import _
from bot.tables import BetRefused, Player, TablePhase, TableService
from fakediscord.clock import ManualClock
from tests.support.shoes import SPARE, START_CHIPS, ShoeQueue
from tests.support.speech import is_message, receipt
from tests.support.tables import (
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    Published,
    chips_from_elsewhere,
    chips_of,
    tick,
)

ADMIN = 700_000_000_000_000_001


async def test_a_lowercase_name_is_shown_as_written_at_the_start_of_a_sentence(
    service: TableService, shoes: ShoeQueue
) -> None:
    alice = Player(ALICE.user_id, "alice")
    shoes.add("6d 9c 2d 7h " + SPARE)
    await service.start(GUILD, CHANNEL, alice)
    snap, _ = await service.bet(CHANNEL, alice, "100")
    assert snap.events[0] == "alice is dealt 6♦ 2♦ (8), stake 100"
    assert "Dealer shows 9♣" in snap.events


async def test_the_stopper_is_named_harmlessly(service: TableService) -> None:
    host = Player(ALICE.user_id, "**bold** <@800000000000000002>\u202e")
    await service.start(GUILD, CHANNEL, host)
    snap = (await service.stop(CHANNEL, host, may_manage_channel=False)).snapshot
    assert snap.closed_reason == "Stopped by \\*\\*bold\\*\\* \\<@\u200b800000000000000002\\>."


async def test_a_table_closing_after_30_seconds_without_bets_says_30_seconds(
    service: TableService, store: db.Store, clock: ManualClock, published: Published
) -> None:
    await store.set_guild_settings(GUILD, idle_close_s=30)
    await service.start(GUILD, CHANNEL, ALICE)
    await tick(clock, 30)
    assert service.table_in(CHANNEL) is None
    assert published.last.closed_reason == "Closed after 30 s without bets."


async def test_a_one_hand_table_says_one_hand(service: TableService, store: db.Store) -> None:
    await service.start(GUILD, CHANNEL, ALICE, preset="simple")
    before = await chips_of(store, ALICE)
    with pytest.raises(BetRefused) as refused:
        await service.bet(CHANNEL, ALICE, "10", spots=2)
    assert is_message(refused.value.args[0], _("You can play one hand at this table."))
    assert await chips_of(store, ALICE) == before


async def test_a_bet_whose_best_win_would_pass_the_chip_limit_is_refused(
    service: TableService, store: db.Store
) -> None:
    # 500 chips below the ceiling: 100 split four ways and doubled could win 800.
    await store.adjust(GUILD, ALICE.user_id, db.MAX_BALANCE - 500 - START_CHIPS, ADMIN, "whale")
    await service.start(GUILD, CHANNEL, ALICE)
    before = await chips_of(store, ALICE)
    with pytest.raises(BetRefused) as refused:
        await service.bet(CHANNEL, ALICE, "100")
    assert str(refused.value) == (
        "You are at the chip limit of 1,000,000,000,000,000 (balance 999,999,999,999,500): "
        "a bet of 100 could take you past it. Nothing changed."
    )
    assert await chips_of(store, ALICE) == before
    # A bet whose best outcome fits is taken.
    _, said = await service.bet(CHANNEL, ALICE, "50")
    assert said == "Bet 50. Balance: 999,999,999,999,450."  # the balance written out
    assert is_message(said, receipt(50, db.MAX_BALANCE - 550))


async def test_a_player_who_reached_the_limit_mid_round_does_not_void_the_others(
    service: TableService, store: db.Store, shoes: ShoeQueue
) -> None:
    # Alice 20, Bob 20, the dealer 16 draws a king and busts: both win 100.
    shoes.add("Ts Tc 9d Th Td 7c Kd " + SPARE)
    await service.start(GUILD, CHANNEL, ALICE)
    await service.join(CHANNEL, BOB)
    await service.bet(CHANNEL, ALICE, "100")
    snap, _ = await service.bet(CHANNEL, BOB, "100")
    # Chips reach Alice from elsewhere while her bet is out: 50 short of the ceiling.
    await chips_from_elsewhere(store, ALICE.user_id, db.MAX_BALANCE - 50)
    snap = (await service.act(snap.table_id, snap.round_no, ALICE, Action.STAND)).snapshot
    snap = (await service.act(snap.table_id, snap.round_no, BOB, Action.STAND)).snapshot

    assert snap.phase is TablePhase.BETTING  # the table goes on
    assert await store.balance(GUILD, BOB.user_id) == START_CHIPS + 100
    assert await store.balance(GUILD, ALICE.user_id) == db.MAX_BALANCE
    assert "Bob: net +100" in snap.last_results
    not_paid = "Alice: 150 not paid: it would pass the chip limit of 1,000,000,000,000,000"
    assert not_paid in snap.last_results
    # The line is Alice's: Round details shows it with her hands, not with Bob's.
    assert snap.last_owners[snap.last_results.index(not_paid)] == str(ALICE.user_id)
    # At a glance, her net is what her balance did: a bet of 100, 50 of its 200 paid.
    assert snap.last_summary[1:] == (
        "Alice: 10♠ 10♥ 20 wins · balance change -50",
        not_paid,
        "Bob: 10♣ 10♦ 20 wins · balance change +100",
    )
    rounds = await store.reports.round_history(GUILD, channel_id=CHANNEL)
    assert "settled" in [r.status for r in rounds]
