"""Side bets at a table: staked with the bet, decided by the round's cards, paid as ledger
rows of their own kinds (21+3 and Perfect Pairs with the deal, Buster at the settlement),
and kept through a restart."""

from __future__ import annotations

import re

import pytest

import db
from bot.engine import Action
from bot.tables import BetRefused, TablePhase, TableService
from fakediscord.clock import ManualClock
from tests.support.shoes import SPARE, START_CHIPS, ShoeQueue
from tests.support.tables import ALICE, BOB, CHANNEL, GUILD, chips_from_elsewhere, ledger_kinds

#: The admin who grants chips (any snowflake).
ADMIN = 700_000_000_000_000_001
ALL_ON = {"side_bets": {"21+3": "9", "perfect-pairs": "25/12/6", "buster": "2/2/4/12/50/250"}}
EVERY_BET = {"21+3": 10, "perfect-pairs": 10, "buster": 10}
# Alice's two spots: 10♠ J♠ and 5♥ 5♥; the dealer shows Q♠ (a straight flush for the first
# spot), holds 6♦ and busts with 10♣ on three cards.
TWO_SPOTS = "Ts 5h Qs Js 5h 6d Tc " + SPARE
# Alice 10♠ 6♥ hits K♦ and busts; the dealer, 10♦ 2♣, plays out for Buster: 3♠ 9♠, bust.
ALL_BUST = "Ts Td 6h 2c Kd 3s 9s " + SPARE
# The same two spots for Alice, and Bob on 9♣ 8♣, seated after her.
WITH_BOB = "Ts 5h 9c Qs Js 5h 8c 6d Tc " + SPARE


async def test_side_bets_on_two_spots_are_staked_decided_and_paid(
    service: TableService, store: db.Store, shoes: ShoeQueue
) -> None:
    await store.set_guild_settings(GUILD, **ALL_ON)
    shoes.add(TWO_SPOTS)
    await service.start(GUILD, CHANNEL, ALICE)
    snap, said = await service.bet(CHANNEL, ALICE, "100", spots=2, side=EVERY_BET)
    assert said == (
        f"Bet 100 a hand on 2 hands, 200 in all. Side bets: 60. Balance: {START_CHIPS - 260:,}."
    )
    assert snap.phase is TablePhase.PLAYING
    assert "Alice (hand 1): 21+3: straight flush, wins 90" in snap.events
    assert "Alice (hand 2): Perfect Pairs: perfect pair, wins 250" in snap.events
    # The losing bets (Perfect Pairs on hand 1, 21+3 on hand 2) are summed, not listed.
    assert "Alice: side bets lost 20" in snap.events
    assert not [line for line in snap.events if "loses 10" in line]
    # Shown right after the dealer's up card, before anything else happens.
    up = next(i for i, line in enumerate(snap.events) if "Q♠" in line and "Dealer" in line)
    assert snap.events[up + 1].startswith("Alice (hand 1): 21+3")
    # Their chips are paid with the deal, before anyone acts; Buster waits for the dealer.
    assert await store.balance(GUILD, ALICE.user_id) == START_CHIPS - 260 + 90 + 10 + 260
    snap = (await service.act(snap.table_id, snap.round_no, ALICE, Action.STAND)).snapshot
    snap = (await service.act(snap.table_id, snap.round_no, ALICE, Action.STAND)).snapshot
    assert snap.phase is TablePhase.BETTING
    assert "Alice (hand 1): Buster Blackjack: dealer busts with 3 cards, wins 20" in (
        snap.last_results
    )
    # At a glance: one line, side bets' wins in short, losses summed, and the net is the
    # balance's change (the ledger's rows below add up to it).
    assert snap.last_summary[1] == (
        "Alice: 10♠ J♠ 20 wins · 10 wins · 21+3 straight flush +90 · Buster Blackjack dealer "
        "busts with 3 cards +20 ×2 · Perfect Pairs perfect pair +250 · side bets lost 20 · "
        "balance change +560"
    )
    # Main game: two wins of 100. Side bets: 90 + 250 + 20 + 20 won, 20 lost.
    assert await ledger_kinds(store, ALICE) == [
        ("grant", START_CHIPS),
        ("bet", -200),
        ("side_bet", -60),
        ("side_payout", 360),
        ("payout", 400),
        ("side_payout", 60),
    ]
    stats = await store.reports.stats(GUILD, ALICE.user_id)
    assert (stats.hands, stats.net) == (2, 200)
    assert (stats.side_bets, stats.side_bet_wins, stats.side_bet_net) == (6, 4, 360)

    # Bet again repeats the side bets too.
    shoes.add(TWO_SPOTS)
    _, said = await service.rebet(snap.table_id, snap.round_no, ALICE, 1)
    assert "Side bets: 60." in said


async def test_buster_has_the_dealer_play_out_a_round_where_everyone_busts(
    service: TableService, store: db.Store, shoes: ShoeQueue
) -> None:
    await store.set_guild_settings(GUILD, side_bets={"buster": "2/2/4/12/50/250"})
    shoes.add(ALL_BUST)
    await service.start(GUILD, CHANNEL, ALICE)
    snap, _ = await service.bet(CHANNEL, ALICE, "50", side={"buster": 10})
    snap = (await service.act(snap.table_id, snap.round_no, ALICE, Action.HIT)).snapshot
    assert snap.last_results[0] == "Dealer busts: 10♦ 2♣ 3♠ 9♠ (24)"
    assert "Alice: Buster Blackjack: dealer busts with 4 cards, wins 20" in snap.last_results
    assert await store.balance(GUILD, ALICE.user_id) == START_CHIPS - 50 + 20


@pytest.mark.parametrize(
    ("side", "words"),
    [
        ({"perfect-pairs": 10}, "Perfect Pairs is not offered at this table."),
        ({"21+3": 5000}, "A 21+3 bet is 1 to 1,000 chips a hand at this table."),
    ],
)
async def test_a_side_bet_that_is_off_or_out_of_limits_stakes_nothing(
    service: TableService, store: db.Store, side: dict[str, int], words: str
) -> None:
    await store.set_guild_settings(GUILD, side_bets={"21+3": "9"})
    await service.start(GUILD, CHANNEL, ALICE)
    with pytest.raises(BetRefused, match=re.escape(words)):
        await service.bet(CHANNEL, ALICE, "100", side=side)
    assert await ledger_kinds(store, ALICE) == [("grant", START_CHIPS)]


async def test_a_restart_between_the_deal_and_the_settlement_pays_the_side_bets_once(
    store: db.Store, clock: ManualClock, shoes: ShoeQueue
) -> None:
    await store.set_guild_settings(GUILD, **ALL_ON)
    shoes.add(WITH_BOB)
    before = TableService(store, clock=clock, shoe_factory=shoes)
    table = (await before.start(GUILD, CHANNEL, ALICE)).snapshot
    await before.attach_message(table.table_id, 700_000_000_000_000_001)
    await before.join(CHANNEL, BOB)
    await before.bet(CHANNEL, BOB, "10")
    snap, _ = await before.bet(CHANNEL, ALICE, "100", spots=2, side=EVERY_BET)
    await before.suspend()  # gone after the deal, before anyone acted
    # 21+3 and Perfect Pairs were paid with the deal; the resume must not pay them again.
    assert await store.balance(GUILD, ALICE.user_id) == START_CHIPS - 260 + 360

    after = TableService(store, clock=clock, shoe_factory=shoes)
    report = await after.resume()
    [resumed] = report.resumed
    assert "Alice (hand 2): Perfect Pairs: perfect pair, wins 250" in resumed.snapshot.events
    for player in (BOB, ALICE, ALICE):
        snap = (await after.act(table.table_id, snap.round_no, player, Action.STAND)).snapshot
    assert snap.phase is TablePhase.BETTING
    kinds = await ledger_kinds(store, ALICE)
    assert [row for row in kinds if row[0] == "side_payout"] == [
        ("side_payout", 360),
        ("side_payout", 60),
    ]
    assert await store.balance(GUILD, ALICE.user_id) == START_CHIPS - 260 + 400 + 420
    await after.suspend()


async def test_a_table_leaves_off_a_pay_table_that_favours_the_player_at_its_decks(
    service: TableService, store: db.Store
) -> None:
    # 25/15/7 keeps a house edge at 4 decks but not at the six of vegas-shoe.
    await store.set_guild_settings(GUILD, side_bets={"perfect-pairs": "25/15/7", "21+3": "9"})
    await service.start(GUILD, CHANNEL, ALICE, preset="vegas-shoe")
    with pytest.raises(BetRefused, match=re.escape("Perfect Pairs is not offered at this table.")):
        await service.bet(CHANNEL, ALICE, "100", side={"perfect-pairs": 10})
    _, said = await service.bet(CHANNEL, ALICE, "100", side={"21+3": 10})
    assert "Side bets: 10." in said


async def test_a_side_bet_win_at_the_deal_is_paid_up_to_the_chip_limit(
    service: TableService, store: db.Store, shoes: ShoeQueue
) -> None:
    # Alice 10♠ J♠ with the dealer's Q♠: a 21+3 straight flush, 90 won on 10.
    shoes.add("Ts 9c Qs Js 8c 6d Tc " + SPARE)
    await store.set_guild_settings(GUILD, side_bets={"21+3": "9"})
    await service.start(GUILD, CHANNEL, ALICE)
    await service.join(CHANNEL, BOB)
    await service.bet(CHANNEL, ALICE, "10", side={"21+3": 10})
    # Chips reach Alice from elsewhere while her bets are out: 30 short of the ceiling.
    balance = await store.balance(GUILD, ALICE.user_id)
    await store.adjust(GUILD, ALICE.user_id, db.MAX_BALANCE - 30 - balance, ADMIN, "elsewhere")
    snap, _ = await service.bet(CHANNEL, BOB, "10")

    assert snap.phase is TablePhase.PLAYING  # dealt: the table goes on
    assert await store.balance(GUILD, ALICE.user_id) == db.MAX_BALANCE
    assert "Alice: 21+3: straight flush, wins 90" in snap.events
    assert "Alice: 70 not paid: it would pass the chip limit of 1,000,000,000,000,000" in (
        snap.events
    )
    for player in (ALICE, BOB):
        snap = (await service.act(snap.table_id, snap.round_no, player, Action.STAND)).snapshot
    assert snap.phase is TablePhase.BETTING
    assert await store.balance(GUILD, BOB.user_id) == START_CHIPS + 10


async def test_a_buster_win_at_the_settlement_is_paid_up_to_the_chip_limit(
    service: TableService, store: db.Store, shoes: ShoeQueue
) -> None:
    shoes.add(ALL_BUST)  # Alice busts; the dealer plays out and busts with 4 cards (2 to 1)
    await store.set_guild_settings(GUILD, side_bets={"buster": "2/2/4/12/50/250"})
    await service.start(GUILD, CHANNEL, ALICE)
    snap, _ = await service.bet(CHANNEL, ALICE, "100", side={"buster": 10})
    # Chips reach Alice from elsewhere while her bets are out: 20 short of the ceiling.
    await chips_from_elsewhere(store, ALICE.user_id, db.MAX_BALANCE - 20)
    snap = (await service.act(snap.table_id, snap.round_no, ALICE, Action.HIT)).snapshot

    assert snap.phase is TablePhase.BETTING  # settled: the table goes on
    assert await store.balance(GUILD, ALICE.user_id) == db.MAX_BALANCE
    assert "Alice: 10 not paid: it would pass the chip limit of 1,000,000,000,000,000" in (
        snap.last_results
    )
    assert (await ledger_kinds(store, ALICE))[-1] == ("side_payout", 20)
