"""A seat's view is given again while nothing it shows changed (snapshot_builder.seat_view):
through many random rounds (bets, insurance, splits, doubles, surrenders, time-outs, a
player leaving), every snapshot's seats are what views made afresh show."""

from __future__ import annotations

import contextlib
import random

from bot.engine import Action
from bot.tables import TableError, TableService
from bot.tables.snapshot import TablePhase
from bot.tables.snapshot_builder import fresh_seat_view, seat_view
from fakediscord.clock import ManualClock, settle
from tests.support.tables import ALICE, BOB, CAROL, CHANNEL, DAVE, GUILD

PLAYERS = (ALICE, BOB, CAROL, DAVE)


def check_views(service: TableService) -> int:
    """Every open table's snapshot shows its seats as fresh views would; how many seats."""
    checked = 0
    for table in service.registry.tables.values():
        fresh = tuple(fresh_seat_view(table, seat) for seat in table.seats)
        assert [seat.pid for seat in table.seats] == [str(s.player.user_id) for s in table.seats]
        if table.snapshot is not None and not table.closed and not table.lock.locked():
            assert table.snapshot.seats == fresh  # (a timer's change may be half done)
        assert tuple(seat_view(table, seat) for seat in table.seats) == fresh
        checked += len(fresh)
    return checked


async def test_cached_seat_views_always_equal_fresh_ones(
    service: TableService, clock: ManualClock
) -> None:
    rng = random.Random(20261123)
    table_id = (await service.start(GUILD, CHANNEL, ALICE)).snapshot.table_id
    for player in PLAYERS[1:]:
        await service.join(CHANNEL, player)
    checked = check_views(service)
    plays: set[Action] = set()
    for _ in range(60):
        snapshot = service.table_in(CHANNEL)
        assert snapshot is not None
        if snapshot.phase is TablePhase.BETTING:
            for player in PLAYERS:
                if rng.random() < 0.85:
                    amount = str(rng.choice([10, 25, 50, 100]))
                    # A player who left, or short of chips: refused, nothing changed.
                    with contextlib.suppress(TableError):
                        await service.bet(CHANNEL, player, amount, rng.choice([1, 1, 1, 2]))
                    checked += check_views(service)
            if service.table_in(CHANNEL).phase is TablePhase.BETTING:  # type: ignore[union-attr]
                clock.advance(60)  # the bet timer deals for those who bet
                await settle()
                checked += check_views(service)
        for _move in range(40):
            snapshot = service.table_in(CHANNEL)
            assert snapshot is not None
            if snapshot.phase not in (TablePhase.INSURANCE, TablePhase.PLAYING):
                break
            movers = [seat for seat in snapshot.seats if seat.legal]
            if not movers or rng.random() < 0.05:
                clock.advance(120)  # time-outs: the late stand, insurance declined
                await settle()
                checked += check_views(service)
                continue
            seat = rng.choice(movers)
            action = rng.choice(sorted(seat.legal, key=lambda a: a.value))
            player = next(p for p in PLAYERS if p.user_id == seat.user_id)
            try:
                await service.act(table_id, snapshot.round_no, player, action)
            except TableError:
                continue  # a timer moved the round on meanwhile: refused, nothing changed
            plays.add(action)
            checked += check_views(service)
            if rng.random() < 0.02:
                await service.leave(CHANNEL, player)
                checked += check_views(service)
        if service.table_in(CHANNEL) is None:
            break
    # The rounds went through what a seat can show.
    assert {Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT} <= plays
    assert Action.INSURANCE in plays or Action.NO_INSURANCE in plays
    assert checked > 1000
