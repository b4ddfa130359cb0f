"""A whole round at one table, from the bets to the payouts, checked against the ledger."""

from __future__ import annotations

import db
from bot.engine import Action
from bot.tables import TablePhase, TableService
from tests.support.shoes import SPARE, START_CHIPS, ShoeQueue
from tests.support.tables import ALICE, BOB, CAROL, CHANNEL, GUILD, Published, ledger_kinds

# Alice 8 8 (splits, doubles the first hand), Bob 10 6 (surrenders), Carol A K (blackjack);
# the dealer shows an ace (insurance offered), holds a 7: soft 18, no blackjack.
THREE_PLAYER_ROUND = "8s Th Ac Ad 8h 6h Kc 7d 3s Td Kh " + SPARE


async def test_full_round_for_three_players(
    service: TableService, store: db.Store, shoes: ShoeQueue, published: Published
) -> None:
    shoes.add(THREE_PLAYER_ROUND)
    table = (await service.start(GUILD, CHANNEL, ALICE)).snapshot
    assert table.phase is TablePhase.BETTING
    await service.join(CHANNEL, BOB)
    await service.join(CHANNEL, CAROL)
    _, said = await service.bet(CHANNEL, ALICE, "100")
    assert said == f"Bet 100. Balance: {START_CHIPS - 100:,}."
    await service.bet(CHANNEL, BOB, "100")
    snap, _ = await service.bet(CHANNEL, CAROL, "25")

    # Everyone bet: the cards are out, and the dealer's ace brings the insurance question.
    assert snap.phase is TablePhase.INSURANCE
    assert snap.insurance_offered
    assert snap.dealer is not None
    assert snap.dealer.hole_hidden
    assert [c.text for c in snap.dealer.cards] == ["A♦"]
    for seat in snap.seats:
        assert seat.legal == {Action.INSURANCE, Action.NO_INSURANCE}
        assert seat.deadline is not None
    round_no = snap.round_no
    for player in (ALICE, BOB, CAROL):
        snap = (await service.act(snap.table_id, round_no, player, Action.NO_INSURANCE)).snapshot
    assert snap.phase is TablePhase.PLAYING
    assert "Dealer checks the hole card: no blackjack" in snap.events
    alice, bob, carol = snap.seats
    assert alice.insurance == 0
    assert carol.hands[0].status == "blackjack"
    assert carol.legal == frozenset()
    assert Action.SPLIT in alice.legal
    assert Action.SURRENDER in bob.legal

    snap = (await service.act(snap.table_id, round_no, ALICE, Action.SPLIT)).snapshot
    alice = snap.seats[0]
    assert [[c.text for c in h.cards] for h in alice.hands] == [["8♠", "3♠"], ["8♥", "10♦"]]
    assert alice.hands[0].is_current
    snap = (await service.act(snap.table_id, round_no, ALICE, Action.DOUBLE)).snapshot
    snap = (await service.act(snap.table_id, round_no, BOB, Action.SURRENDER)).snapshot
    snap = (await service.act(snap.table_id, round_no, ALICE, Action.STAND)).snapshot

    # The last decision brought the dealer in; the round is paid and betting is open again.
    assert snap.phase is TablePhase.BETTING
    assert snap.round_no == round_no + 1
    assert snap.last_results == (
        "Dealer: A♦ 7♦ (18)",
        "Alice (hand 1): 8♠ 3♠ K♥ — 21 beats 18: wins 200, 400 back",
        "Alice (hand 2): 8♥ 10♦ — 18 ties 18: push, 100 back",
        "Alice: net +200",
        "Bob: 10♥ 6♥ — surrendered: 50 back",
        "Bob: net -50",
        "Carol: A♣ K♣ — blackjack: wins 37, 62 back (a fraction of a chip was rounded down)",
        "Carol: net +37",
    )
    assert [seat.net for seat in snap.seats] == [200, -50, 37]
    assert [(seat.action, seat.standing) for seat in snap.seats] == [
        (300, 200),
        (100, -50),
        (25, 37),
    ]
    assert snap.shuffle_notice == ()
    assert published.last == snap

    assert await store.balance(GUILD, ALICE.user_id) == START_CHIPS + 200
    assert await store.balance(GUILD, BOB.user_id) == START_CHIPS - 50
    assert await store.balance(GUILD, CAROL.user_id) == START_CHIPS + 37
    assert await ledger_kinds(store, ALICE) == [
        ("grant", START_CHIPS),
        ("bet", -100),
        ("split", -100),
        ("double", -100),
        ("payout", 500),
    ]
    assert await ledger_kinds(store, BOB) == [("grant", START_CHIPS), ("bet", -100), ("payout", 50)]
    assert await ledger_kinds(store, CAROL) == [
        ("grant", START_CHIPS),
        ("bet", -25),
        ("payout", 62),
    ]
    stats = await store.reports.stats(GUILD, ALICE.user_id)
    assert (stats.hands, stats.wins, stats.pushes, stats.total_wagered) == (2, 1, 1, 300)
    carol_stats = await store.reports.stats(GUILD, CAROL.user_id)
    assert carol_stats.blackjacks == 1
