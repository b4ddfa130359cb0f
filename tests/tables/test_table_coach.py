"""The coach at the table service: after a round, each decision graded from the round's
journal for the shoe it was made from, stored once, and graded after a restart when the
bot stopped between the settlement and the grades."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing

import pytest

import db
from bot.engine import Action, preset
from bot.engine.analysis import grade_decision
from bot.tables import TableService
from bot.tables.coach import Coach
from fakediscord.clock import ManualClock
from tests.support.journal_rows import Transactions
from tests.support.shoes import SPARE, ShoeQueue
from tests.support.tables import ALICE, CHANNEL, GUILD

# Alice plays three spots against the dealer's 10 (a 9 in the hole): 10 6 (hits a 4, then
# stands on 20), 5 6 (doubles: a king), 8 8 (splits: 8 T and 8 9, both stand).
#: The table message (a resumed table needs one).
MESSAGE = 900_000_000_000_000_555
THREE_DECISIONS = "Ts 5h 8s Td 6c 6d 8h 9c 4h Kc Ts 9d " + SPARE


def unseen(*seen: str) -> list[int]:
    """A six-deck shoe's cards by value less the ``seen`` ranks."""
    left = [24] * 9 + [96]
    for rank in seen:
        left[(10 if rank in "TJQK" else 1 if rank == "A" else int(rank)) - 1] -= 1
    return left


async def play_three_decisions(service: TableService, shoes: ShoeQueue) -> None:
    """Alice's round: hit 16, stand 20, double 11, split 8s, stand, stand."""
    shoes.add(THREE_DECISIONS)
    table = (await service.start(GUILD, CHANNEL, ALICE)).snapshot
    snap, _ = await service.bet(CHANNEL, ALICE, "100", spots=3)
    for action in (Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT, Action.STAND):
        snap = (await service.act(table.table_id, snap.round_no, ALICE, action)).snapshot
    snap = (await service.act(table.table_id, snap.round_no, ALICE, Action.STAND)).snapshot
    assert snap.round_no == 2  # settled


async def test_each_decision_of_a_round_is_graded_for_the_shoe_it_was_made_from(
    service: TableService, store: db.Store, shoes: ShoeQueue
) -> None:
    await play_three_decisions(service, shoes)
    await service.coach.settle()
    graded = await store.coach.last_round(GUILD, ALICE.user_id)
    assert [(row.chosen, json.loads(row.detail)["cards"]) for row in graded] == [
        ("hit", ["10♠", "6♣"]),
        ("stand", ["10♠", "6♣", "4♥"]),
        ("double", ["5♥", "6♦"]),
        ("split", ["8♠", "8♥"]),
        ("stand", ["8♠", "10♠"]),
        ("stand", ["8♥", "9♦"]),
    ]
    rules = preset("vegas-shoe")
    # The first decision: every card dealt but the hole card is out of the shoe.
    seen = ("T", "5", "8", "T", "6", "6", "8")
    first = {Action.HIT, Action.STAND, Action.DOUBLE, Action.SURRENDER}
    hit = grade_decision(rules, [10, 6], 10, unseen(*seen), first, Action.HIT)
    assert json.loads(graded[0].detail)["values"] == {a.value: v for a, v in hit.values.items()}
    assert (graded[0].best, graded[0].cost_ppm) == ("surrender", round(hit.cost * 1_000_000))
    assert graded[0].cost_ppm > 0
    # The double: the 4 the first hand drew is out too, and doubling 11 against a 10 is best.
    double = grade_decision(rules, [5, 6], 10, unseen(*seen, "4"), first, Action.DOUBLE)
    assert json.loads(graded[2].detail)["values"] == {a.value: v for a, v in double.values.items()}
    assert (graded[2].best, graded[2].cost_ppm, graded[2].stake) == ("double", 0, 100)
    assert graded[3].best == "split"
    figures = await store.coach.figures(GUILD, ALICE.user_id)
    assert figures.decisions == 6
    assert figures.best == sum(row.cost_ppm == 0 for row in graded)
    assert figures.given_away == sum(row.cost_ppm * row.stake for row in graded) / 1_000_000


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
async def test_a_round_settled_before_a_stop_is_graded_at_the_next_start_once(
    service: TableService, store: db.Store, shoes: ShoeQueue
) -> None:
    service.flow.on_settled.clear()  # the bot stopped right after the settlement
    await play_three_decisions(service, shoes)
    assert await store.coach.last_round(GUILD, ALICE.user_id) == []
    [ungraded] = await store.coach.ungraded()
    round_id = ungraded.round_id

    restarted = Coach(store, service.advice)
    await restarted.catch_up()
    assert len(await store.coach.last_round(GUILD, ALICE.user_id)) == 6
    assert await store.coach.ungraded() == []
    # Graded once: grading it again (another process, a retry) stores nothing more.
    await restarted.catch_up()
    service.coach.round_settled(round_id)
    await service.coach.settle()
    assert (await store.coach.figures(GUILD, ALICE.user_id)).decisions == 6


async def test_a_journal_that_cannot_be_graded_is_marked_and_holds_up_no_other_round(
    service: TableService, store: db.Store, shoes: ShoeQueue, store_url: str
) -> None:
    service.flow.on_settled.clear()  # two rounds settled, neither graded yet
    shoes.add(THREE_DECISIONS.replace(SPARE, "") + THREE_DECISIONS)
    await play_three_decisions(service, shoes)
    table = service.registry.in_channel(CHANNEL)
    snap, _ = await service.bet(CHANNEL, ALICE, "100", spots=3)
    for action in (Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT, Action.STAND):
        snap = (await service.act(table.table_id, snap.round_no, ALICE, action)).snapshot
    await service.act(table.table_id, snap.round_no, ALICE, Action.STAND)
    first, second = await store.coach.ungraded()
    assert second.round_id > first.round_id
    # The first round's deal row no longer makes a shoe (a row this code cannot read).
    with closing(sqlite3.connect(db.sqlite_path(store_url))) as conn, conn:
        conn.execute(
            "UPDATE table_actions SET detail = ? WHERE round_id = ? AND action = 'deal'",
            ('{"shoe": {"kind": "unknown"}, "bets": []}', first.round_id),
        )

    await Coach(store, service.advice).catch_up()
    assert await store.coach.ungraded() == []  # both marked: the first with no decision
    assert len(await store.coach.last_round(GUILD, ALICE.user_id)) == 6  # the second's
    assert (await store.coach.figures(GUILD, ALICE.user_id)).decisions == 6


async def test_a_settled_round_is_graded_from_the_journal_the_table_kept_reading_nothing_back(
    service: TableService, store: db.Store, shoes: ShoeQueue
) -> None:
    seen = Transactions()
    store.observer = seen
    await play_three_decisions(service, shoes)
    await service.coach.settle()
    assert len(await store.coach.last_round(GUILD, ALICE.user_id)) == 6
    # Neither the round's journal nor the ungraded rounds were read: the table had them.
    assert "ungraded_rounds" not in seen.count
    assert "round_actions" not in seen.count
    assert seen.count["record_settled"] == 1
    assert await store.coach.ungraded() == []


async def test_a_round_resumed_mid_play_is_graded_with_the_decisions_made_before_the_stop(
    service: TableService, store: db.Store, shoes: ShoeQueue, clock: ManualClock
) -> None:
    shoes.add(THREE_DECISIONS)
    table = (await service.start(GUILD, CHANNEL, ALICE)).snapshot
    await service.attach_message(table.table_id, MESSAGE)
    snap, _ = await service.bet(CHANNEL, ALICE, "100", spots=3)
    for action in (Action.HIT, Action.STAND, Action.DOUBLE):
        snap = (await service.act(table.table_id, snap.round_no, ALICE, action)).snapshot
    await service.suspend()  # the bot stops mid-round; the next one replays the journal

    restarted = TableService(store, clock=clock, shoe_factory=shoes)
    try:
        [resumed] = (await restarted.resume()).resumed
        snap = resumed.snapshot
        for action in (Action.SPLIT, Action.STAND, Action.STAND):
            snap = (await restarted.act(table.table_id, snap.round_no, ALICE, action)).snapshot
        assert snap.round_no == 2  # settled by the resumed process
        await restarted.coach.settle()
    finally:
        await restarted.suspend()
    graded = await store.coach.last_round(GUILD, ALICE.user_id)
    assert [row.chosen for row in graded] == ["hit", "stand", "double", "split", "stand", "stand"]
    assert await store.coach.ungraded() == []
