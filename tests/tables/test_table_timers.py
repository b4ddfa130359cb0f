"""Timers on the manual clock: betting ends, idle hands stand, idle tables close."""

from __future__ import annotations

import db
from bot.engine import Action
from bot.i18n import _
from bot.tables import TablePhase, TableService, TableSnapshot
from fakediscord.clock import ManualClock
from tests.support.shoes import SPARE, START_CHIPS, ShoeQueue
from tests.support.speech import is_message
from tests.support.tables import ALICE, BOB, CAROL, CHANNEL, GUILD, Published, ledger_kinds, tick

# Alice 10 6 (16), Bob 9 7 (16) against a dealer 10 up, 8 in the hole (18).
TWO_SIXTEENS = "Ts 9s Td 6h 7h 8d 5c " + SPARE

LEFT = _("You left.")
LEAVING = _("You'll leave when this round ends.")


async def test_bet_timer_ends_betting_and_deals_for_those_who_bet(
    service: TableService, clock: ManualClock, shoes: ShoeQueue, published: Published
) -> None:
    shoes.add("Ts Td 7s 8d " + SPARE)
    await service.start(GUILD, CHANNEL, ALICE)
    await service.join(CHANNEL, BOB)
    table, _ = await service.bet(CHANNEL, ALICE, "100")
    assert table.phase is TablePhase.BETTING
    assert table.deadline == clock.now() + 30

    await tick(clock, 29)
    assert service.get(table.table_id).phase is TablePhase.BETTING
    await tick(clock, 1)
    table = service.get(table.table_id)
    assert table.phase is TablePhase.PLAYING
    alice, bob = table.seats
    assert len(alice.hands) == 1
    assert bob.hands == ()  # seated but sitting out
    assert published.last == table


async def test_nobody_bets_the_round_is_voided_and_the_table_closes_after_idle_time(
    service: TableService, store: db.Store, clock: ManualClock, published: Published
) -> None:
    table = (await service.start(GUILD, CHANNEL, ALICE)).snapshot
    await tick(clock, 30)
    again = service.get(table.table_id)
    assert again.phase is TablePhase.BETTING
    assert again.round_no == table.round_no + 1
    rounds = await store.reports.round_history(GUILD, channel_id=CHANNEL)
    assert [r.status for r in rounds] == ["open", "void"]

    await tick(clock, 269)
    assert service.table_in(CHANNEL) is not None
    await tick(clock, 1)  # 300 s since the table opened without a single bet
    assert service.table_in(CHANNEL) is None
    assert published.last.phase is TablePhase.CLOSED
    assert published.last.closed_reason == "Closed after 5 min without bets."
    rounds = await store.reports.round_history(GUILD, channel_id=CHANNEL)
    assert {r.status for r in rounds} == {"void"}
    assert len(rounds) == 10
    assert clock.sleepers == 0


async def test_a_round_played_restarts_the_idle_time(
    service: TableService, clock: ManualClock, shoes: ShoeQueue
) -> None:
    shoes.add("Ts Td 7s 8d " + SPARE)
    table = (await service.start(GUILD, CHANNEL, ALICE)).snapshot
    await tick(clock, 290)
    await service.bet(CHANNEL, ALICE, "100")
    table = service.get(table.table_id)
    assert table.phase is TablePhase.PLAYING
    await tick(clock, 20)
    await service.act(table.table_id, table.round_no, ALICE, Action.STAND)
    # Idle time counts again from the end of that round.
    await tick(clock, 299)
    assert service.table_in(CHANNEL) is not None
    await tick(clock, 1)
    assert service.table_in(CHANNEL) is None


async def test_an_idle_players_hands_stand_at_the_action_timer(
    service: TableService, store: db.Store, clock: ManualClock, shoes: ShoeQueue
) -> None:
    shoes.add(TWO_SIXTEENS)
    await service.start(GUILD, CHANNEL, ALICE)
    await service.join(CHANNEL, BOB)
    await service.bet(CHANNEL, ALICE, "100")
    table, _ = await service.bet(CHANNEL, BOB, "100")
    assert table.phase is TablePhase.PLAYING
    start = clock.now()
    assert [seat.deadline for seat in table.seats] == [start + 30, start + 30]

    await tick(clock, 10)
    table = (
        await service.act(table.table_id, table.round_no, ALICE, Action.HIT)
    ).snapshot  # 16 + 5 = 21
    table = service.get(table.table_id)
    assert table.seats[1].deadline == start + 30  # Bob has not acted: his timer runs on
    await tick(clock, 20)
    table = service.get(table.table_id)
    assert table.phase is TablePhase.BETTING  # Bob's hand stood; the dealer played
    assert "Bob: 9♠ 7♥ — 16 loses to 18: loses 100" in table.last_results
    assert await store.balance(GUILD, BOB.user_id) == START_CHIPS - 100
    assert await store.balance(GUILD, ALICE.user_id) == START_CHIPS + 100


async def test_acting_restarts_that_players_timer(
    service: TableService, clock: ManualClock, shoes: ShoeQueue
) -> None:
    # Alice 2 3 (hits to 7, stays live); Bob 10 9 against a dealer 10, 8.
    shoes.add("2s Ts Td 3h 9h 8d 2c " + SPARE)
    await service.start(GUILD, CHANNEL, ALICE)
    await service.join(CHANNEL, BOB)
    await service.bet(CHANNEL, ALICE, "100")
    table, _ = await service.bet(CHANNEL, BOB, "100")
    start = clock.now()
    await tick(clock, 20)
    table = (await service.act(table.table_id, table.round_no, ALICE, Action.HIT)).snapshot
    assert table.seats[0].deadline == start + 50
    await tick(clock, 10)  # Bob times out; Alice still has 20 s
    table = service.get(table.table_id)
    assert table.phase is TablePhase.PLAYING
    assert table.seats[1].legal == frozenset()
    assert any("Bob stands on 19 (timed out)" in line for line in table.events)
    await tick(clock, 20)
    table = service.get(table.table_id)
    assert table.phase is TablePhase.BETTING
    assert "Alice: 2♠ 3♥ 2♣ — 7 loses to 18: loses 100" in table.last_results


async def test_insurance_not_answered_in_time_is_declined(
    service: TableService, store: db.Store, clock: ManualClock, shoes: ShoeQueue
) -> None:
    shoes.add("Ts As 6h 7d " + SPARE)
    await service.start(GUILD, CHANNEL, ALICE)
    table, _ = await service.bet(CHANNEL, ALICE, "100")
    assert table.phase is TablePhase.INSURANCE
    await tick(clock, 30)
    table = service.get(table.table_id)
    assert table.phase is TablePhase.PLAYING
    assert table.seats[0].insurance == 0
    assert table.seats[0].legal >= {Action.HIT, Action.STAND}
    assert table.seats[0].deadline == clock.now() + 30  # a fresh timer for the play
    assert await ledger_kinds(store, ALICE) == [("grant", START_CHIPS), ("bet", -100)]


async def test_leaving_mid_round_takes_effect_when_the_round_ends(
    service: TableService, store: db.Store, clock: ManualClock, shoes: ShoeQueue
) -> None:
    shoes.add(TWO_SIXTEENS)
    await service.start(GUILD, CHANNEL, ALICE)
    await service.join(CHANNEL, BOB)
    await service.join(CHANNEL, CAROL)
    await service.bet(CHANNEL, ALICE, "100")
    table, _ = await service.bet(CHANNEL, BOB, "100")
    table, said = await service.leave(CHANNEL, CAROL)  # sat out: leaves at once
    assert is_message(said, LEFT)
    assert table.phase is TablePhase.PLAYING  # everyone left at the table had bet: dealt
    table, said = await service.leave(CHANNEL, BOB)
    assert is_message(said, LEAVING)
    assert table.seats[1].leaving
    assert len(table.seats[1].hands) == 1  # his hand plays on, by timer
    await service.act(table.table_id, table.round_no, ALICE, Action.STAND)
    await tick(clock, 30)
    table = service.get(table.table_id)
    assert table.phase is TablePhase.BETTING
    assert [seat.name for seat in table.seats] == ["Alice"]
    assert "Bob: net -100" in table.last_results
    assert await store.balance(GUILD, BOB.user_id) == START_CHIPS - 100


async def test_the_host_leaving_hands_the_table_to_the_next_player(
    service: TableService, shoes: ShoeQueue
) -> None:
    await service.start(GUILD, CHANNEL, ALICE)
    await service.join(CHANNEL, BOB)
    table, said = await service.leave(CHANNEL, ALICE)
    assert is_message(said, LEFT)
    assert table.host_id == BOB.user_id
    table, _ = await service.leave(CHANNEL, BOB)
    assert table.phase is TablePhase.CLOSED
    assert service.table_in(CHANNEL) is None


async def test_a_failing_publish_in_a_timer_does_not_stop_the_table(
    store: db.Store, clock: ManualClock, shoes: ShoeQueue
) -> None:
    seen: list[TableSnapshot] = []

    async def publish(snapshot: TableSnapshot) -> None:
        seen.append(snapshot)
        raise RuntimeError("discord is down")

    service = TableService(store, clock=clock, publish=publish, shoe_factory=shoes)
    try:
        table = (await service.start(GUILD, CHANNEL, ALICE)).snapshot
        await tick(clock, 30)
        await tick(clock, 30)
        assert service.get(table.table_id).round_no == table.round_no + 2
        assert [s.round_no for s in seen] == [1, 2, 3]
    finally:
        await service.suspend()
