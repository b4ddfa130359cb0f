"""Stakes of many tables at once share a transaction (db.group_commit), each as if alone:
a refused stake is undone alone, the others commit, nothing is taken twice."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import asyncpg
import pytest

import db
from db.group_commit import GroupCommit, Write
from db.ops import rounds as ops_rounds
from db.ops import table_state
from db.postgres import PostgresStore
from db.statements import Op
from tests.db.invariants import check_invariants
from tests.pgserver import PostgresServer
from tests.support.clocks import FakeClock
from tests.support.journal_rows import Transactions, row

G, CHANNEL = 10, 30
PLAYERS = [101 + n for n in range(6)]


async def _rounds(store: db.Store, count: int) -> list[int]:
    return [await store.open_round(G, CHANNEL + n, "{}", f"shoe-{n}") for n in range(count)]


async def test_stakes_of_many_tables_share_a_transaction_and_a_refused_one_is_undone_alone(
    store: db.Store,
) -> None:
    rounds = await _rounds(store, 6)
    seen = Transactions()
    store.observer = seen
    first = asyncio.ensure_future(store.stake(G, PLAYERS[0], 100, "bet", rounds[0]))
    await asyncio.sleep(0)  # the first stake is on its way alone; the next five queue together
    amounts = [200, 300, 5000, 400, 500]  # 5000: more than the 1000 starting chips
    rest = await asyncio.gather(
        *(
            store.stake(G, player, amount, "bet", round_id)
            for player, amount, round_id in zip(PLAYERS[1:], amounts, rounds[1:], strict=True)
        ),
        return_exceptions=True,
    )
    assert await first == 900
    assert rest[:2] == [800, 700]
    assert isinstance(rest[2], db.InsufficientChips)
    assert (rest[2].balance, rest[2].amount) == (1000, 5000)
    assert rest[3:] == [600, 500]
    # Run without savepoints first, the group was undone by the refusal and ran again
    # behind them.
    assert seen.count == {"stake": 1, "together": 2}
    # The refused stake left nothing behind: its balance, its ledger, its round.
    assert await store.balance(G, PLAYERS[3]) == 1000
    assert [entry.kind for entry in await store.reports.ledger(G, PLAYERS[3])] == ["grant"]
    for player, expected in zip(PLAYERS, [900, 800, 700, 1000, 600, 500], strict=True):
        assert await store.balance(G, player) == expected
    for round_id in rounds:
        await store.void_round(round_id, "test over")
    assert await store.balance(G, PLAYERS[5]) == 1000  # refunded: the stake was in its round


async def test_a_stake_and_journal_rows_of_other_tables_commit_together(store: db.Store) -> None:
    rounds = await _rounds(store, 3)
    seen = Transactions()
    store.observer = seen
    first = asyncio.ensure_future(store.tables.append_actions([row(rounds[0], "p", "hit")]))
    await asyncio.sleep(0)
    balance, _ = await asyncio.gather(
        store.stake(G, PLAYERS[0], 250, "bet", rounds[1]),
        store.tables.append_actions([row(rounds[2], "p", "stand")]),
    )
    await first
    assert balance == 750
    assert seen.count == {"append_actions": 1, "together": 1}
    assert [a.action for a in await store.tables.round_actions(rounds[2])] == ["stand"]
    for round_id in rounds:
        await store.void_round(round_id, "test over")


async def test_a_stake_on_a_closed_round_fails_alone(store: db.Store) -> None:
    rounds = await _rounds(store, 3)
    await store.void_round(rounds[1], "closed before the stake")
    first = asyncio.ensure_future(store.stake(G, PLAYERS[0], 100, "bet", rounds[0]))
    await asyncio.sleep(0)
    closed, open_ = await asyncio.gather(
        store.stake(G, PLAYERS[1], 100, "bet", rounds[1]),
        store.stake(G, PLAYERS[2], 100, "bet", rounds[2]),
        return_exceptions=True,
    )
    assert await first == 900
    assert isinstance(closed, db.RoundClosed), closed
    assert open_ == 900
    assert await store.balance(G, PLAYERS[1]) == 1000
    for round_id in (rounds[0], rounds[2]):
        await store.void_round(round_id, "test over")


async def test_a_stake_whose_caller_stopped_waiting_before_its_turn_is_never_taken(
    store: db.Store,
) -> None:
    rounds = await _rounds(store, 2)
    first = asyncio.ensure_future(store.stake(G, PLAYERS[0], 100, "bet", rounds[0]))
    await asyncio.sleep(0)  # on its way; the second waits for the next trip
    second = asyncio.ensure_future(store.stake(G, PLAYERS[1], 100, "bet", rounds[1]))
    await asyncio.sleep(0)
    second.cancel()
    assert await first == 900
    with pytest.raises(asyncio.CancelledError):
        await second
    assert await store.balance(G, PLAYERS[1]) == 1000
    assert [entry.kind for entry in await store.reports.ledger(G, PLAYERS[1])] == ["grant"]
    for round_id in rounds:
        await store.void_round(round_id, "test over")


async def test_a_group_whose_commit_may_have_happened_is_never_written_twice(
    pg_server: PostgresServer, clock: FakeClock
) -> None:
    """PostgreSQL: a connection lost after COMMIT leaves unknown whether the group went
    through; it is not tried again (here it had committed: each stake is taken once)."""
    url = pg_server.create_database()
    store = await db.open_store(url, clock=clock)
    assert isinstance(store, PostgresStore)
    try:
        rounds = await _rounds(store, 2)

        async def commit_then_lose(write: Write) -> Any:
            await store._run(write, write=True)
            raise asyncpg.InterfaceError("connection lost after COMMIT")

        def stake(player: int, round_id: int) -> Op[int]:
            return ops_rounds.stake(G, player, 100, "bet", round_id, store._now())

        group = GroupCommit(commit_then_lose, store._rolled_back)
        first = asyncio.ensure_future(group.submit(lambda: stake(PLAYERS[0], rounds[0])))
        await asyncio.sleep(0)  # on its way alone; the next two go together
        together = await asyncio.gather(
            group.submit(lambda: stake(PLAYERS[1], rounds[1])),
            group.submit(lambda: stake(PLAYERS[2], rounds[1])),
            return_exceptions=True,
        )
        with pytest.raises(asyncpg.InterfaceError):
            await first
        assert [type(result) for result in together] == [asyncpg.InterfaceError] * 2
        for player in PLAYERS[:3]:
            assert await store.balance(G, player) == 900  # taken once, not twice
            assert sorted(entry.kind for entry in await store.reports.ledger(G, player)) == [
                "bet",
                "grant",
            ]
        # An error the server reports means nothing was committed: those are tried alone.
        assert store._rolled_back(asyncpg.UniqueViolationError("duplicate key"))
        assert not store._rolled_back(asyncpg.InterfaceError("connection lost"))
        for round_id in rounds:
            await store.void_round(round_id, "test over")
    finally:
        await store.close()
    await check_invariants(url, tables=False)


async def test_a_table_opens_a_round_with_its_message_and_document_in_one_transaction(
    store: db.Store,
) -> None:
    seen = Transactions()
    store.observer = seen
    document = db.TableWrite("t1", G, CHANNEL, 555_000_000_000_000_001, None, 1, '{"round": 2}')
    round_id = await store.open_round(
        G, CHANNEL, "{}", "shoe-1", message_id=555_000_000_000_000_001, table=document
    )
    assert seen.count == {"open_table_round": 1}
    [stored] = await store.tables.open_tables()
    assert (stored.table_id, stored.round_id, stored.state_json) == ("t1", round_id, '{"round": 2}')
    record = await store.reports.get_round(round_id)
    assert record is not None
    assert record.message_id == 555_000_000_000_000_001
    # A shoe whose seed is revealed deals no more rounds: nothing of the three is written.
    await store.void_round(round_id, "test over")
    await store.shoes.reveal_seed("shoe-1", "00" * 32)
    with pytest.raises(ValueError, match="revealed"):
        await store.open_round(G, CHANNEL, "{}", "shoe-1", table=replace(document, state_json="{}"))
    [still] = await store.tables.open_tables()
    assert (still.round_id, still.state_json) == (round_id, '{"round": 2}')


async def test_a_settlement_an_opening_and_grades_commit_with_other_tables_writes(
    store: db.Store,
) -> None:
    rounds = await _rounds(store, 3)
    for player, round_id in zip(PLAYERS, rounds[:2], strict=False):
        await store.stake(G, player, 100, "bet", round_id)
    await store.settle_round(rounds[2], {}, [], "{}")  # settled earlier, to be graded
    seen = Transactions()
    store.observer = seen
    first = asyncio.ensure_future(store.tables.append_actions([row(rounds[0], "p", "hit")]))
    await asyncio.sleep(0)  # on its way alone; the next four go together
    won = db.HandResult(PLAYERS[0], "win", 100, 200)
    short = db.HandResult(PLAYERS[1], "win", 100, 150)  # pays less than its payout says
    grade = db.DecisionRecord(PLAYERS[0], '{"cards": []}', "hit", "stand", 100, 5_000)
    settled, refused, opened, graded = await asyncio.gather(
        store.settle_round(rounds[0], {PLAYERS[0]: 200}, [won], "{}"),
        store.settle_round(rounds[1], {PLAYERS[1]: 200}, [short], "{}"),
        store.open_round(G, CHANNEL + 9, "{}", "shoe-9"),
        store.coach.record_settled(rounds[2], [grade]),
        return_exceptions=True,
    )
    await first
    assert seen.count == {"append_actions": 1, "together": 2}  # the refusal: run again
    assert isinstance(settled, db.SettleResult)
    assert settled.balances == {PLAYERS[0]: 1100}
    assert isinstance(refused, ValueError)  # undone alone: its round is still open
    assert isinstance(opened, int)
    assert opened > max(rounds)
    assert graded is True
    assert [u.round_id for u in await store.coach.ungraded()] == [rounds[0]]  # settled now
    assert [d.chosen for d in await store.coach.last_round(G, PLAYERS[0])] == ["hit"]
    assert await store.balance(G, PLAYERS[1]) == 900
    # Graded once: the same grades again store nothing.
    assert await store.coach.record_settled(rounds[2], [grade]) is False
    for round_id in (rounds[1], opened):
        await store.void_round(round_id, "test over")
    assert await store.balance(G, PLAYERS[1]) == 1000


async def test_savepoints_only_after_a_refusal_and_blind_rows_in_one_statement(
    store: db.Store,
) -> None:
    """A group runs without savepoints; a refusal undoes it and it runs again with each
    write that may refuse behind one, as does the group after it. Journal rows and table
    documents (blind writes) go last, one statement for each SQL, in the order they came."""
    rounds = await _rounds(store, 4)
    sent: list[str] = []

    def recorded(op: Op[Any]) -> Op[Any]:
        statement = next(op)
        while True:
            sent.append(getattr(statement, "sql", "")[:22])
            try:
                statement = op.send((yield statement))
            except StopIteration as stop:
                return stop.value

    group = GroupCommit(lambda write: store._run(lambda: recorded(write()), write=True))

    def stake(player: int, round_id: int, amount: int = 100) -> Op[int]:
        return ops_rounds.stake(G, player, amount, "bet", round_id, store._now())

    def append(round_id: int, action: str = "hit") -> Op[None]:
        return table_state.append_actions([row(round_id, "p", action)])

    def document(round_id: int, text: str) -> Op[None]:
        write = db.TableWrite(f"t{round_id}", G, CHANNEL + round_id, None, round_id, 1, text)
        return table_state.save_table(write, store._now())

    sent.clear()
    first = asyncio.ensure_future(group.submit(lambda: append(rounds[3]), refuses=False))
    await asyncio.sleep(0)
    results = await asyncio.gather(
        group.submit(lambda: append(rounds[0]), refuses=False),
        group.submit(lambda: document(rounds[0], '{"n": 1}'), refuses=False),
        group.submit(lambda: stake(PLAYERS[0], rounds[1])),
        group.submit(lambda: append(rounds[0], "stand"), refuses=False),
        group.submit(lambda: document(rounds[0], '{"n": 2}'), refuses=False),
    )
    await first
    assert list(results) == [None, None, 900, None, None]
    assert "SAVEPOINT grouped_writ" not in sent
    # The stake's own statements, then the journal's rows and the documents, one each.
    assert sent[-2:] == ["INSERT INTO table_acti", "INSERT INTO live_table"]
    assert sent.count("INSERT INTO table_acti") == 2  # the first write's alone, and the group's
    assert [a.action for a in await store.tables.round_actions(rounds[0])] == ["hit", "stand"]
    [stored] = [t for t in await store.tables.open_tables() if t.table_id == f"t{rounds[0]}"]
    assert stored.state_json == '{"n": 2}'  # the later document wins

    # A refusal: the group runs again, the stakes behind savepoints, the refused one's
    # journal rows dropped with it; and so does the next group, at once.
    seen = Transactions()
    store.observer = seen
    sent.clear()
    first = asyncio.ensure_future(group.submit(lambda: append(rounds[3]), refuses=False))
    await asyncio.sleep(0)

    def refused_with_rows() -> Op[int]:
        yield from append(rounds[2], "double")
        return (yield from stake(PLAYERS[1], rounds[2], 5000))

    refused, staked = await asyncio.gather(
        group.submit(refused_with_rows),
        group.submit(lambda: stake(PLAYERS[2], rounds[1])),
        return_exceptions=True,
    )
    await first
    assert isinstance(refused, db.InsufficientChips)
    assert staked == 900
    assert seen.count == {"recorded": 3}  # the first write alone, the group twice
    assert sent.count("SAVEPOINT grouped_writ") == 2
    assert await store.tables.round_actions(rounds[2]) == []
    sent.clear()
    first = asyncio.ensure_future(group.submit(lambda: append(rounds[3]), refuses=False))
    await asyncio.sleep(0)
    assert await asyncio.gather(
        group.submit(lambda: stake(PLAYERS[3], rounds[1])),
        group.submit(lambda: append(rounds[1]), refuses=False),
    ) == [900, None]
    await first
    assert seen.count["recorded"] == 5  # guarded at once: the group ran once
    assert sent.count("SAVEPOINT grouped_writ") == 1
    for round_id in rounds:
        await store.void_round(round_id, "test over")


async def test_a_write_said_never_to_refuse_that_raises_leaves_the_others_written(
    store: db.Store,
) -> None:
    rounds = await _rounds(store, 2)
    group = GroupCommit(lambda write: store._run(write, write=True), store._rolled_back)

    def append_then_fail() -> Op[None]:
        yield from table_state.append_actions([row(rounds[0], "p", "hit")])
        raise ValueError("a bug, not a refusal")

    first = asyncio.ensure_future(
        group.submit(lambda: table_state.append_actions([row(rounds[1], "p", "stand")]))
    )
    await asyncio.sleep(0)  # on its way alone; the next two go together
    failed: object
    staked: object
    failed, staked = await asyncio.gather(
        group.submit(append_then_fail, refuses=False),
        group.submit(lambda: ops_rounds.stake(G, PLAYERS[0], 100, "bet", rounds[1], 0)),
        return_exceptions=True,
    )
    await first
    assert isinstance(failed, ValueError)
    assert staked == 900
    assert await store.tables.round_actions(rounds[0]) == []  # undone: tried alone, it failed
    assert await store.balance(G, PLAYERS[0]) == 900
    for round_id in rounds:
        await store.void_round(round_id, "test over")
