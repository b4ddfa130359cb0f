"""The shoe and the table's words: reshuffle announcement, fairness, hints, insurance, events."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import db
from bot.engine import Action, commitment
from bot.tables import TablePhase, TableService
from bot.tables.advice import HINT_WAIT_S, Advice
from fakediscord.clock import ManualClock, settle
from tests.support.shoes import SPARE, START_CHIPS, ShoeQueue
from tests.support.tables import ALICE, BOB, CHANNEL, GUILD, Published, ledger_kinds


async def test_reaching_the_cut_card_reshuffles_and_announces_action_and_standing(
    service: TableService, store: db.Store, shoes: ShoeQueue
) -> None:
    # Exactly one round's cards: Alice 10 7 stands; the dealer 10 8 stands. The cut card is out.
    shoes.add("Ts Td 7s 8d")
    first = (await service.start(GUILD, CHANNEL, ALICE)).snapshot
    assert service.fairness(CHANNEL).previous_seed is None
    assert service.fairness(CHANNEL).verify_command == ""
    old_seed = (bytes([100]) * 32).hex()
    assert first.commitment == commitment(bytes.fromhex(old_seed))

    table, _ = await service.bet(CHANNEL, ALICE, "100")
    table = (await service.act(table.table_id, table.round_no, ALICE, Action.STAND)).snapshot
    assert table.phase is TablePhase.BETTING
    assert table.commitment != first.commitment
    assert table.shuffle_notice == (
        f"Shuffle: a new shoe (commitment {table.commitment[:16]}…).",
        "Alice: action 100, standing -100",
    )

    fair = service.fairness(CHANNEL)
    assert fair.commitment == table.commitment
    assert (fair.previous_commitment, fair.previous_seed) == (first.commitment, old_seed)
    assert fair.verify_command == f"python -m bot verify --seed {old_seed} --decks 1"
    revealed = await store.shoes.last_revealed_shoe(GUILD, CHANNEL)
    assert revealed is not None
    assert revealed.seed_hex == old_seed
    rounds = await store.reports.round_history(GUILD, channel_id=CHANNEL)
    assert rounds[0].commitment == table.commitment  # the next round deals from the new shoe

    table, _ = await service.bet(CHANNEL, ALICE, "100")
    assert table.shuffle_notice == ()  # said once, until the next deal


async def test_the_hint_says_what_each_choice_is_worth(
    service: TableService, shoes: ShoeQueue, clock: ManualClock
) -> None:
    # The worker is busy (held by a gate) when the table opens and asks for its chart.
    worker = ThreadPoolExecutor(max_workers=1)
    gate = threading.Event()
    worker.submit(gate.wait)
    service.advice = Advice(worker=worker, clock=clock)
    shoes.add("5s 6d 6s 7d " + SPARE)
    await service.start(GUILD, CHANNEL, ALICE)
    table, _ = await service.bet(CHANNEL, ALICE, "100")
    hint = (await service.hint(table.table_id, table.round_no, ALICE)).note
    # Pressed before the table's exact figures are ready: the infinite-deck chart, said so.
    assert hint == f"Basic strategy: double (hard 11 against a 6) {NOT_READY}."
    gate.set()
    await service.advice.settle()
    hint = (await service.hint(table.table_id, table.round_no, ALICE)).note
    # Then what each legal choice is worth for these exact cards (six decks, S17, peek).
    best, figures = hint.split("\n")
    assert best == "Basic strategy: double (hard 11 against a 6)."
    assert figures.startswith(f"{WHAT_FIGURES_MEAN}: double +")
    assert ", hit +" in figures
    assert ", stand \u2212" in figures
    assert figures.endswith(", surrender \u221250.0%.")


async def test_a_hint_the_busy_worker_cannot_answer_in_time_comes_from_the_infinite_chart(
    service: TableService, shoes: ShoeQueue, clock: ManualClock
) -> None:
    worker = ThreadPoolExecutor(max_workers=1)
    service.advice = Advice(worker=worker, clock=clock)
    shoes.add("5s 6d 6s 7d " + SPARE)
    await service.start(GUILD, CHANNEL, ALICE)
    await service.advice.settle()  # the table's chart: the worker is warm for its rules
    table, _ = await service.bet(CHANNEL, ALICE, "100")
    gate = threading.Event()
    worker.submit(gate.wait)  # then busy (another table's chart, say)
    try:
        sleeping = clock.sleepers
        pressed = asyncio.ensure_future(service.hint(table.table_id, table.round_no, ALICE))
        await clock.wait_for_sleepers(sleeping + 1)  # the Hint waits for the worker
        assert not pressed.done()
        clock.advance(HINT_WAIT_S)
        await settle()
        assert pressed.done()  # answered with the worker still busy
        hint = pressed.result().note
        assert hint == f"Basic strategy: double (hard 11 against a 6) {NOT_READY}."
    finally:
        gate.set()
    hint = (await service.hint(table.table_id, table.round_no, ALICE)).note
    assert hint.startswith("Basic strategy: double (hard 11 against a 6).\nWhat each")


async def test_insurance_and_even_money_pay_two_to_one_against_a_dealer_blackjack(
    service: TableService, store: db.Store, shoes: ShoeQueue
) -> None:
    # Alice 10 9, Bob A K (blackjack); the dealer shows an ace and has a king in the hole.
    shoes.add("Ts Ac Ad 9s Kc Kd " + SPARE)
    await service.start(GUILD, CHANNEL, ALICE)
    await service.join(CHANNEL, BOB)
    await service.bet(CHANNEL, ALICE, "100")
    table, _ = await service.bet(CHANNEL, BOB, "100")
    assert table.phase is TablePhase.INSURANCE
    hint = (await service.hint(table.table_id, table.round_no, ALICE)).note
    assert hint.startswith("Basic strategy: no insurance")
    table = (await service.act(table.table_id, table.round_no, ALICE, Action.INSURANCE)).snapshot
    assert table.seats[0].insurance == 50
    assert table.seats[1].insurance is None  # still deciding
    table = (await service.act(table.table_id, table.round_no, BOB, Action.INSURANCE)).snapshot
    assert table.phase is TablePhase.BETTING
    assert table.last_results == (
        "Dealer has blackjack: A♦ K♦",
        "Alice: 10♠ 9♠ — dealer blackjack: loses 100",
        "Alice: insurance of 50 wins 100",
        "Alice: net ±0",
        "Bob: A♣ K♣ — blackjack against dealer blackjack: push, stake back",
        "Bob: insurance of 50 wins 100",
        "Bob: net +100",
    )
    assert await ledger_kinds(store, ALICE) == [
        ("grant", START_CHIPS),
        ("bet", -100),
        ("insurance", -50),
        ("payout", 150),
    ]
    assert await store.balance(GUILD, BOB.user_id) == START_CHIPS + 100


async def test_every_change_is_published_in_order_with_names_not_ids(
    service: TableService, shoes: ShoeQueue, published: Published
) -> None:
    shoes.add("9s Ts 7d 5h 8h 9d 4c " + SPARE)
    await service.start(GUILD, CHANNEL, ALICE)
    await service.join(CHANNEL, BOB)
    await service.bet(CHANNEL, ALICE, "100")
    table, _ = await service.bet(CHANNEL, BOB, "100")
    table = (await service.act(table.table_id, table.round_no, ALICE, Action.HIT)).snapshot
    assert [s.version for s in published.snapshots] == [1, 2, 3, 4, 5]
    assert published.last == table
    assert table.events[:2] == (
        "Alice is dealt 9♠ 5♥ (14), stake 100",
        "Bob is dealt 10♠ 8♥ (18), stake 100",
    )
    assert table.events[-1] == "Alice hits: 4♣ → 18"
    assert not any(str(ALICE.user_id) in line for line in table.events)
    dealer = table.dealer
    assert dealer is not None
    assert (dealer.hole_hidden, [c.text for c in dealer.cards], dealer.total) == (True, ["7♦"], 7)
    alice = table.seats[0]
    assert alice.hands[0].is_current
    assert alice.hands[0].status == "playing"
    assert alice.legal == {Action.HIT, Action.STAND}


#: The Hint's words (bot/tables/advice.py) while its exact figures are being worked out,
#: and before its figures.
NOT_READY = "(infinite-deck chart: this table's exact figures are still being worked out)"
WHAT_FIGURES_MEAN = "What each choice wins or loses on average, as a share of your bet"
