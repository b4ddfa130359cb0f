"""Every refusal says why in words for the player and changes nothing: no chip, no seat."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

import db
from bot.engine import Action
from bot.tables import (
    ActionRefused,
    BetRefused,
    NoTableHere,
    NotAllowed,
    NotEnoughChips,
    NothingToDo,
    NotSeated,
    Player,
    StaleButton,
    TableAlreadyOpen,
    TableError,
    TableFull,
    TablePhase,
    TableService,
    TableSnapshot,
    WrongPhase,
)
from tests.support.shoes import SPARE, ShoeQueue
from tests.support.tables import ALICE, BOB, CAROL, CHANNEL, DAVE, GUILD, OTHER_CHANNEL, chips_of

Call = Callable[[], Awaitable[Any]]


async def refused(
    service: TableService,
    store: db.Store,
    table: TableSnapshot,
    call: Call,
    error: type[TableError],
    says: str,
) -> None:
    """``call`` raises ``error`` whose message contains ``says``; chips and table unchanged."""
    before = await chips_of(store, ALICE, BOB, CAROL, DAVE)
    snapshot = service.get(table.table_id)
    with pytest.raises(error) as raised:
        await call()
    assert says in str(raised.value)
    assert await chips_of(store, ALICE, BOB, CAROL, DAVE) == before
    assert service.get(table.table_id) == snapshot


@pytest.fixture
async def betting(service: TableService, store: db.Store) -> TableSnapshot:
    """Alice's table, betting open, Bob seated; everyone's account exists."""
    for player in (ALICE, BOB, CAROL, DAVE):
        await store.ensure_account(GUILD, player.user_id)
    await service.start(GUILD, CHANNEL, ALICE)
    return (await service.join(CHANNEL, BOB)).snapshot


async def test_bets_that_cannot_be_placed_are_refused(
    service: TableService, store: db.Store, betting: TableSnapshot
) -> None:
    async def bet(amount: str, spots: int = 1, who: Player = BOB) -> Any:
        return await service.bet(CHANNEL, who, amount, spots)

    cases: list[tuple[Call, type[TableError], str]] = [
        (lambda: bet("lots"), BetRefused, "is not an amount of chips"),
        (lambda: bet("-5"), BetRefused, "positive"),
        (lambda: bet("5"), BetRefused, "The table minimum is 10"),
        (lambda: bet("20000"), BetRefused, "The table maximum is 10,000"),
        (lambda: bet("2k"), BetRefused, "needs 2,000 chips and you have 1,000"),
        (lambda: bet("100", 8), BetRefused, "1 to 7 hands"),
        (lambda: bet("100", 0), BetRefused, "1 to 7 hands"),
        (lambda: bet("600", 2), BetRefused, "needs 1,200 chips"),
        (lambda: service.bet(OTHER_CHANNEL, BOB, "100"), NoTableHere, "no table in this channel"),
    ]
    for call, error, says in cases:
        await refused(service, store, betting, call, error, says)


async def test_a_second_bet_in_a_round_is_refused_and_says_what_was_bet(
    service: TableService, store: db.Store, betting: TableSnapshot
) -> None:
    await service.bet(CHANNEL, BOB, "150", 2)
    await refused(
        service,
        store,
        betting,
        lambda: service.bet(CHANNEL, BOB, "100"),
        BetRefused,
        "You have already bet this round (150 a hand on 2 hands, 300 in all).",
    )


async def test_seat_and_table_refusals(
    service: TableService, store: db.Store, betting: TableSnapshot
) -> None:
    cases: list[tuple[Call, type[TableError], str]] = [
        (lambda: service.join(CHANNEL, BOB), TableError, "already seated"),
        (lambda: service.leave(CHANNEL, CAROL), NotSeated, "not seated"),
        (lambda: service.start(GUILD, CHANNEL, CAROL), TableAlreadyOpen, "already open"),
        (
            lambda: service.stop(CHANNEL, BOB, may_manage_channel=False),
            NotAllowed,
            "Only the host or someone with Manage Channels",
        ),
        (
            lambda: service.rebet(betting.table_id, betting.round_no, BOB, 1),
            BetRefused,
            "no earlier bet",
        ),
        (
            lambda: service.act(betting.table_id, betting.round_no, BOB, Action.HIT),
            WrongPhase,
            "not out yet",
        ),
        (lambda: service.act("deadbeef", 1, BOB, Action.HIT), StaleButton, "bot restarted"),
        (
            lambda: service.act(betting.table_id, betting.round_no - 1, BOB, Action.HIT),
            StaleButton,
            "earlier round",
        ),
        (lambda: service.hint(betting.table_id, betting.round_no, BOB), WrongPhase, "not out yet"),
    ]
    for call, error, says in cases:
        await refused(service, store, betting, call, error, says)
    with pytest.raises(TableAlreadyOpen) as raised:
        await service.start(GUILD, CHANNEL, CAROL)
    assert raised.value.snapshot.table_id == betting.table_id


async def test_a_full_table_seats_nobody_more(service: TableService, store: db.Store) -> None:
    # The classic preset seats one player.
    table = (await service.start(GUILD, CHANNEL, ALICE, preset="classic")).snapshot
    await store.ensure_account(GUILD, BOB.user_id)
    await refused(service, store, table, lambda: service.join(CHANNEL, BOB), TableFull, "full")
    await refused(
        service, store, table, lambda: service.bet(CHANNEL, BOB, "100"), TableFull, "full"
    )


async def test_bad_table_limits_and_presets_open_no_table(service: TableService) -> None:
    with pytest.raises(TableError, match="No preset called 'poker'"):
        await service.start(GUILD, CHANNEL, ALICE, preset="poker")
    with pytest.raises(BetRefused, match="takes a bet of exactly 2; a minimum of 5"):
        await service.start(GUILD, CHANNEL, ALICE, preset="reno-1972", min_bet=5)
    with pytest.raises(BetRefused, match="from 10 to 10,000; a maximum of 50,000"):
        await service.start(GUILD, CHANNEL, ALICE, max_bet=50_000)
    with pytest.raises(BetRefused, match="cannot be above the maximum"):
        await service.start(GUILD, CHANNEL, ALICE, min_bet=500, max_bet=100)
    assert service.table_in(CHANNEL) is None


async def test_a_presets_fixed_limits_win_over_the_guilds(service: TableService) -> None:
    table = (await service.start(GUILD, CHANNEL, ALICE, preset="reno-1972")).snapshot
    assert (table.min_bet, table.max_bet) == (2, 2)
    assert service.rules_of(table.table_id).max_bet == 2


async def test_plays_the_rules_do_not_allow_are_refused_with_the_reason(
    service: TableService, store: db.Store, shoes: ShoeQueue
) -> None:
    # Bob: 10 7 against a dealer 9 (no insurance); Alice: 5 6.
    shoes.add("5s Th 9d 6s 7h 8c 4c " + SPARE)
    await service.start(GUILD, CHANNEL, ALICE)
    await service.join(CHANNEL, BOB)
    await service.bet(CHANNEL, ALICE, "600")
    table, _ = await service.bet(CHANNEL, BOB, "100")
    assert table.phase is TablePhase.PLAYING
    t, n = table.table_id, table.round_no
    cases: list[tuple[Call, type[TableError], str]] = [
        (lambda: service.act(t, n, BOB, Action.SPLIT), ActionRefused, "You have no pair to split."),
        (
            lambda: service.act(t, n, BOB, Action.INSURANCE),
            ActionRefused,
            "only offered before play",
        ),
        (lambda: service.act(t, n, CAROL, Action.HIT), NotSeated, "not seated"),
        # Alice's double needs 600 more and she holds 400.
        (
            lambda: service.act(t, n, ALICE, Action.DOUBLE),
            NotEnoughChips,
            "Doubling needs 600 chips and you have 400",
        ),
    ]
    for call, error, says in cases:
        await refused(service, store, table, call, error, says)
    table = (await service.act(t, n, BOB, Action.HIT)).snapshot  # 4 -> 21 stands by itself
    await refused(
        service,
        store,
        table,
        lambda: service.act(t, n, BOB, Action.STAND),
        NothingToDo,
        "no hand left",
    )
    await refused(
        service,
        store,
        table,
        lambda: service.act(t, n, BOB, Action.DOUBLE),
        NothingToDo,
        "no hand left",
    )


async def test_a_seated_player_sitting_out_has_nothing_to_do(
    service: TableService, store: db.Store, shoes: ShoeQueue
) -> None:
    shoes.add("5s 9d 6s 7h " + SPARE)
    await service.start(GUILD, CHANNEL, ALICE)
    table, _ = await service.bet(CHANNEL, ALICE, "100")
    table = (await service.join(CHANNEL, BOB)).snapshot
    t, n = table.table_id, table.round_no
    await refused(
        service,
        store,
        table,
        lambda: service.act(t, n, BOB, Action.HIT),
        NothingToDo,
        "no hand in this round",
    )
    await refused(
        service,
        store,
        table,
        lambda: service.bet(CHANNEL, BOB, "100"),
        WrongPhase,
        "The cards are out",
    )
