"""Tournaments in the store: fees into the pool, prizes out of it, a cancel's refunds, the
results left for later, and a pool that start-up does not void."""

from __future__ import annotations

import json

import pytest

import db
from db.tournament_store import EliminationRow, Place, TournamentClosed

G, CHANNEL, HOST, ALICE, BOB = 10, 20, 30, 31, 32
COMMITMENT = "ab" * 32
STATE = json.dumps({"doc": 1})


async def _open(store: db.Store) -> tuple[int, int]:
    return await store.tournaments.create(G, CHANNEL, HOST, "{}", COMMITMENT, STATE)


async def test_fees_are_refunded_by_a_cancel_once(store: db.Store) -> None:
    tid, pool = await _open(store)
    assert await store.tournaments.pay_in(tid, G, ALICE, 100, STATE) == 900
    assert await store.tournaments.pay_in(tid, G, BOB, 0, STATE) is None
    with pytest.raises(db.InsufficientChips):
        await store.tournaments.pay_in(tid, G, BOB, 5000, STATE)
    assert await store.tournaments.fees(pool) == {ALICE: 100}
    # Start-up leaves the pool of an open tournament alone.
    assert await store.recover() == []
    result = await store.tournaments.cancel(tid, "cancelled by the host", None, STATE)
    assert result.refunds == {ALICE: 100}
    assert await store.balance(G, ALICE) == 1000
    with pytest.raises(TournamentClosed):
        await store.tournaments.cancel(tid, "again", None, STATE)
    assert await store.tournaments.open_tournaments() == []


async def test_prizes_pay_out_the_pool_and_the_results_stay(store: db.Store) -> None:
    tid, _ = await _open(store)
    await store.tournaments.pay_in(tid, G, ALICE, 100, STATE)
    await store.tournaments.pay_in(tid, G, BOB, 100, STATE)
    await store.tournaments.record_elimination(
        tid,
        G,
        [
            EliminationRow(CHANNEL, 8, ALICE, 500, 700, eliminated=False),
            EliminationRow(CHANNEL, 8, BOB, 900, 300, eliminated=True),
        ],
        STATE,
    )
    places = [Place(ALICE, CHANNEL, 1, 700, None, 120), Place(BOB, CHANNEL, 2, 300, 8, 80)]
    with pytest.raises(ValueError, match="whole pool"):
        await store.tournaments.finish(
            tid, G, [Place(ALICE, CHANNEL, 1, 700, None, 1)], None, STATE
        )
    done = await store.tournaments.finish(tid, G, places, None, STATE)
    assert done.balances == {ALICE: 1020, BOB: 980}
    assert done.awarded == {}  # no achievement asked for
    assert await store.tournaments.places(tid) == places
    rows = await store.tournaments.eliminations(tid)
    assert [(r.user_id, r.chips_before, r.eliminated) for r in rows] == [
        (ALICE, 500, False),
        (BOB, 900, True),
    ]
    kinds = [(e.kind, e.delta) for e in reversed(await store.reports.ledger(G, ALICE))]
    assert kinds == [("grant", 1000), ("bet", -100), ("payout", 120)]


async def test_the_tournament_achievements_come_from_the_recorded_results_once(
    store: db.Store,
) -> None:
    tid, _ = await _open(store)
    carol = 33
    hand_8 = [
        EliminationRow(CHANNEL, 8, ALICE, 500, 700, eliminated=False),
        EliminationRow(CHANNEL, 8, BOB, 900, 300, eliminated=True),
        EliminationRow(CHANNEL, 8, carol, 600, 650, eliminated=False),
    ]
    key = "tournament_survivor"
    assert await store.tournaments.record_elimination(tid, G, hand_8, STATE, survivor_key=key) == {
        ALICE: (key,)
    }
    # Recorded again (a retry after a restart): nothing new.
    assert await store.tournaments.record_elimination(tid, G, hand_8, STATE, survivor_key=key) == {}
    # The smallest stack eliminated: nobody survived with it.
    hand_16 = [
        EliminationRow(CHANNEL, 16, ALICE, 700, 900, eliminated=False),
        EliminationRow(CHANNEL, 16, carol, 650, 0, eliminated=True),
    ]
    assert (
        await store.tournaments.record_elimination(tid, G, hand_16, STATE, survivor_key=key) == {}
    )
    # A hand that eliminates nobody: what its cards earned, once.
    dealt = {BOB: ("first_blackjack",)}
    for new in ({BOB: ("first_blackjack",)}, {}):
        assert await store.tournaments.record_elimination(tid, G, [], STATE, earned=dealt) == new
    assert [(r.hand_no, r.user_id) for r in await store.tournaments.eliminations(tid)] == [
        (8, ALICE),
        (8, BOB),
        (8, carol),
        (16, ALICE),
        (16, carol),
    ]
    places = [
        Place(ALICE, CHANNEL, 1, 900, None, 0),
        Place(carol, CHANNEL, 2, 0, 16, 0),
        Place(BOB, CHANNEL, 3, 300, 8, 0),
    ]
    done = await store.tournaments.finish(
        tid, G, places, None, STATE, winner_key="tournament_winner"
    )
    assert done.awarded == {ALICE: ("tournament_winner",)}
    held = await store.competition.achievements(G, ALICE)
    assert [(a.key, a.round_id, a.source) for a in held] == [
        (key, None, f"tournament {tid}"),
        ("tournament_winner", None, f"tournament {tid}"),
    ]
    assert await store.competition.achievements(G, carol) == []
    assert [a.key for a in await store.competition.achievements(G, BOB)] == ["first_blackjack"]
