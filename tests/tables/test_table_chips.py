"""Chips at a live table: refunds exactly once, no double debit, no overspending across tables.

The chip-safety tests run on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import asyncio

import pytest

import db
from bot.bet_amount import stake_words
from bot.engine import Action
from bot.i18n import _
from bot.tables import (
    NoTableHere,
    NotEnoughChips,
    NothingToDo,
    StaleButton,
    TableError,
    TablePhase,
    TableService,
)
from bot.tables.press_checks import EARLIER_ROUND
from fakediscord.clock import ManualClock
from tests.support.shoes import SPARE, START_CHIPS, ShoeQueue
from tests.support.speech import is_message
from tests.support.tables import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    OTHER_CHANNEL,
    Published,
    chips_of,
    ledger_kinds,
)

both_backends = pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)

MESSAGE = 900_000_000_000_000_501
RECEIPT = _("Bet {stake}. Balance: {balance}.")
# Alice 5 6 (11) against a dealer 10 up, 7 in the hole.
ELEVEN = "5s Td 6s 7d 9c " + SPARE


@both_backends
async def test_a_double_click_on_double_debits_once(
    service: TableService, store: db.Store, shoes: ShoeQueue
) -> None:
    shoes.add("5s 2d Td 6s 3h 7d 9c " + SPARE)  # Alice 11, Bob 5 (keeps the round open)
    await service.start(GUILD, CHANNEL, ALICE)
    await service.join(CHANNEL, BOB)
    await service.bet(CHANNEL, ALICE, "100")
    table, _ = await service.bet(CHANNEL, BOB, "100")
    presses = await asyncio.gather(
        service.act(table.table_id, table.round_no, ALICE, Action.DOUBLE),
        service.act(table.table_id, table.round_no, ALICE, Action.DOUBLE),
        return_exceptions=True,
    )
    refused = [p for p in presses if isinstance(p, BaseException)]
    assert len(refused) == 1
    assert isinstance(refused[0], NothingToDo)
    assert await ledger_kinds(store, ALICE) == [
        ("grant", START_CHIPS),
        ("bet", -100),
        ("double", -100),
    ]
    # A third, later press: still nothing to do, still no debit.
    with pytest.raises(NothingToDo):
        await service.act(table.table_id, table.round_no, ALICE, Action.DOUBLE)
    assert await store.balance(GUILD, ALICE.user_id) == START_CHIPS - 200


async def test_a_button_from_the_last_round_is_stale_and_changes_nothing(
    service: TableService, store: db.Store, shoes: ShoeQueue
) -> None:
    shoes.add(ELEVEN)
    await service.start(GUILD, CHANNEL, ALICE)
    dealt, _ = await service.bet(CHANNEL, ALICE, "100")
    betting = (await service.act(dealt.table_id, dealt.round_no, ALICE, Action.STAND)).snapshot
    assert betting.round_no == dealt.round_no + 1
    before = await chips_of(store, ALICE)
    with pytest.raises(StaleButton) as stale:
        await service.act(dealt.table_id, dealt.round_no, ALICE, Action.HIT)
    assert is_message(stale.value.args[0], EARLIER_ROUND)
    with pytest.raises(StaleButton) as stale:
        await service.rebet(dealt.table_id, dealt.round_no, ALICE, 1)
    assert is_message(stale.value.args[0], EARLIER_ROUND)
    assert await chips_of(store, ALICE) == before
    assert service.get(betting.table_id) == betting


async def test_rebet_repeats_or_doubles_the_last_bet(
    service: TableService, store: db.Store, shoes: ShoeQueue
) -> None:
    shoes.add(ELEVEN)
    await service.start(GUILD, CHANNEL, ALICE)
    await service.join(CHANNEL, BOB)
    await service.bet(CHANNEL, ALICE, "100", 2)
    table, _ = await service.bet(CHANNEL, BOB, "50")
    for player in (ALICE, BOB):
        while service.get(table.table_id).phase is TablePhase.PLAYING:
            try:
                await service.act(table.table_id, table.round_no, player, Action.STAND)
            except NothingToDo:
                break
    table = service.get(table.table_id)
    assert table.phase is TablePhase.BETTING
    table, said = await service.rebet(table.table_id, table.round_no, ALICE, 2)
    balance = await store.balance(GUILD, ALICE.user_id)
    assert is_message(said, RECEIPT.filled(stake=stake_words(200, 2), balance=balance))
    assert table.seats[0].bet == 200


@both_backends
async def test_stop_by_the_host_refunds_the_bets_not_yet_dealt(
    service: TableService, store: db.Store, published: Published
) -> None:
    await service.start(GUILD, CHANNEL, ALICE)
    await service.join(CHANNEL, BOB)
    await service.join(CHANNEL, CAROL)
    await service.bet(CHANNEL, ALICE, "100")
    await service.bet(CHANNEL, BOB, "100")  # Carol has not bet: no deal yet
    closed = (await service.stop(CHANNEL, ALICE, may_manage_channel=False)).snapshot
    assert closed.phase is TablePhase.CLOSED
    assert closed.closed_reason == "Stopped by Alice."
    assert published.last == closed
    assert service.table_in(CHANNEL) is None
    assert await store.balance(GUILD, ALICE.user_id) == START_CHIPS
    assert await store.balance(GUILD, BOB.user_id) == START_CHIPS
    assert (await ledger_kinds(store, ALICE))[-1] == ("refund", 100)
    with pytest.raises(NoTableHere):
        await service.bet(CHANNEL, CAROL, "100")


async def test_stop_by_the_host_with_cards_out_plays_the_round_out_then_closes(
    service: TableService, store: db.Store, shoes: ShoeQueue
) -> None:
    shoes.add("5s 2d Td 6s 3h 7d 9c " + SPARE)
    await service.start(GUILD, CHANNEL, ALICE)
    await service.join(CHANNEL, BOB)
    await service.bet(CHANNEL, ALICE, "100")
    table, _ = await service.bet(CHANNEL, BOB, "100")
    await service.act(table.table_id, table.round_no, ALICE, Action.DOUBLE)
    going = (await service.stop(CHANNEL, ALICE, may_manage_channel=False)).snapshot
    assert going.phase is TablePhase.PLAYING  # nobody cancels a round with cards out
    assert "The table closes when this round ends." in going.events
    closed = (await service.act(table.table_id, table.round_no, BOB, Action.STAND)).snapshot
    assert closed.phase is TablePhase.CLOSED
    assert closed.closed_reason == "Stopped by Alice."
    assert service.table_in(CHANNEL) is None
    kinds = [kind for kind, _ in await ledger_kinds(store, ALICE)]
    assert "refund" not in kinds
    assert "refund" not in [kind for kind, _ in await ledger_kinds(store, BOB)]


async def test_stop_by_someone_who_may_manage_the_channel(
    service: TableService, store: db.Store
) -> None:
    await service.start(GUILD, CHANNEL, ALICE)
    closed = (await service.stop(CHANNEL, CAROL, may_manage_channel=True)).snapshot
    assert closed.phase is TablePhase.CLOSED
    assert closed.closed_reason == "Stopped by Carol."


@both_backends
async def test_close_refunds_exactly_once(
    service: TableService, store: db.Store, shoes: ShoeQueue
) -> None:
    await service.start(GUILD, CHANNEL, ALICE)
    await service.join(CHANNEL, BOB)
    table, _ = await service.bet(CHANNEL, ALICE, "300")  # Bob has not bet: still betting
    assert table.phase is TablePhase.BETTING
    await asyncio.gather(
        service.close(table.table_id, "The table message was deleted."),
        service.close(table.table_id, "The table message was deleted."),
    )
    await service.close(table.table_id, "again")
    await service.suspend()
    assert await ledger_kinds(store, ALICE) == [
        ("grant", START_CHIPS),
        ("bet", -300),
        ("refund", 300),
    ]
    rounds = await store.reports.round_history(GUILD, channel_id=CHANNEL)
    assert [(r.status, r.void_reason) for r in rounds] == [
        ("void", "The table message was deleted.")
    ]


async def test_a_graceful_stop_voids_nothing_and_stops_every_timer(
    service: TableService, store: db.Store, clock: ManualClock, shoes: ShoeQueue
) -> None:
    shoes.add(ELEVEN)
    await service.start(GUILD, CHANNEL, ALICE)
    await service.start(GUILD, OTHER_CHANNEL, BOB)
    table, _ = await service.bet(CHANNEL, ALICE, "100")
    assert table.phase is TablePhase.PLAYING
    await clock.wait_for_sleepers(2)
    await service.suspend()
    assert clock.sleepers == 0
    # Nothing is voided: the stake stays on the table, which resumes at the next start.
    assert await store.balance(GUILD, ALICE.user_id) == START_CHIPS - 100
    assert [r.status for r in await store.reports.round_history(GUILD, channel_id=CHANNEL)] == [
        "open"
    ]
    assert {t.table_id for t in await store.tables.open_tables()} >= {table.table_id}


@both_backends
async def test_a_new_process_resumes_the_round_a_crashed_process_left_open(
    service: TableService, store: db.Store, clock: ManualClock, shoes: ShoeQueue
) -> None:
    shoes.add(ELEVEN)
    started, _ = await service.start(GUILD, CHANNEL, ALICE)
    await service.attach_message(started.table_id, MESSAGE)
    table, _ = await service.bet(CHANNEL, ALICE, "100")
    # The first process is gone without a word (its timers just stop).
    await service.suspend()
    restarted = TableService(store, clock=clock)
    report = await restarted.resume()
    assert report.voided == []
    [resumed] = report.resumed
    snapshot = resumed.snapshot
    assert resumed.message_id == MESSAGE
    assert (snapshot.table_id, snapshot.round_no) == (table.table_id, table.round_no)
    assert snapshot.seats == table.seats  # the same hands, cards and deadlines
    await restarted.act(table.table_id, table.round_no, ALICE, Action.DOUBLE)  # 5 6 + 9 = 20
    # The double dealt the last player card, so the dealer played: 10 7 stands on 17.
    assert restarted.get(table.table_id).last_results
    assert await store.balance(GUILD, ALICE.user_id) == START_CHIPS + 200
    assert (await restarted.resume()).resumed == []  # live here already: nothing twice
    await restarted.suspend()


@both_backends
async def test_one_player_at_two_tables_cannot_bet_the_same_chips_twice(
    service: TableService, store: db.Store
) -> None:
    await service.start(GUILD, CHANNEL, ALICE)
    await service.start(GUILD, OTHER_CHANNEL, BOB)
    await service.join(CHANNEL, CAROL)  # keeps both tables betting after Alice's bet
    await service.join(OTHER_CHANNEL, CAROL)
    bets = await asyncio.gather(
        service.bet(CHANNEL, ALICE, "800"),
        service.bet(OTHER_CHANNEL, ALICE, "800"),
        return_exceptions=True,
    )
    refused = [b for b in bets if isinstance(b, BaseException)]
    assert len(refused) == 1
    assert isinstance(refused[0], TableError)
    assert "800" in str(refused[0])
    assert await store.balance(GUILD, ALICE.user_id) == START_CHIPS - 800
    assert await ledger_kinds(store, ALICE) == [("grant", START_CHIPS), ("bet", -800)]


@both_backends
async def test_one_player_at_two_tables_cannot_double_with_the_same_chips(
    service: TableService, store: db.Store, shoes: ShoeQueue
) -> None:
    shoes.add(ELEVEN)
    shoes.add(ELEVEN)
    first = (await service.start(GUILD, CHANNEL, ALICE)).snapshot
    second = (await service.start(GUILD, OTHER_CHANNEL, BOB)).snapshot
    # A second player at each table keeps each round open after Alice's double.
    await service.join(CHANNEL, CAROL)
    await service.join(OTHER_CHANNEL, ALICE)
    await service.bet(CHANNEL, ALICE, "300")
    await service.bet(CHANNEL, CAROL, "10")
    await service.bet(OTHER_CHANNEL, BOB, "10")
    await service.bet(OTHER_CHANNEL, ALICE, "300")
    assert service.get(first.table_id).phase is TablePhase.PLAYING
    assert service.get(second.table_id).phase is TablePhase.PLAYING
    # 400 chips left: enough for one double of 300, not two.
    presses = await asyncio.gather(
        service.act(first.table_id, service.get(first.table_id).round_no, ALICE, Action.DOUBLE),
        service.act(second.table_id, service.get(second.table_id).round_no, ALICE, Action.DOUBLE),
        return_exceptions=True,
    )
    refused = [p for p in presses if isinstance(p, BaseException)]
    assert len(refused) == 1
    assert isinstance(refused[0], NotEnoughChips)
    assert str(refused[0]) == "Doubling needs 300 chips and you have 100."
    kinds = [kind for kind, _ in await ledger_kinds(store, ALICE)]
    assert kinds.count("double") == 1
