"""Rounds: settlement pays once, voiding refunds once, recovery after a restart, shoes."""

from __future__ import annotations

import pytest

import db
from db import HandResult

G, ALICE, BOB, CHANNEL, MESSAGE = 10, 21, 22, 30, 40


async def _round_with_bets(store: db.Store, bets: dict[int, int]) -> int:
    round_id = await store.open_round(G, CHANNEL, '{"preset": "vegas-shoe"}', "shoe-1")
    for user_id, amount in bets.items():
        await store.stake(G, user_id, amount, "bet", round_id)
    return round_id


async def test_settlement_credits_each_payout_and_records_the_hands(store: db.Store) -> None:
    round_id = await _round_with_bets(store, {ALICE: 100, BOB: 50})
    hands = [HandResult(ALICE, "blackjack", 100, 250), HandResult(BOB, "loss", 50, 0)]
    result = await store.settle_round(round_id, {ALICE: 250, BOB: 0}, hands, '{"done": 1}')
    assert result == db.SettleResult(round_id, False, "settled", {ALICE: 250}, {ALICE: 1150})
    assert await store.balance(G, BOB) == 950
    [payout, *_] = await store.reports.ledger(G, ALICE)
    assert (payout.kind, payout.delta, payout.round_id) == ("payout", 250, round_id)
    record = await store.reports.get_round(round_id)
    assert record is not None
    assert (record.status, record.paid, record.state_json) == ("settled", 250, '{"done": 1}')


async def test_a_second_settlement_changes_nothing_and_says_so(store: db.Store) -> None:
    round_id = await _round_with_bets(store, {ALICE: 100})
    hands = [HandResult(ALICE, "win", 100, 200)]
    await store.settle_round(round_id, {ALICE: 200}, hands, "{}")
    again = await store.settle_round(round_id, {ALICE: 200}, hands, "{}")
    assert again == db.SettleResult(round_id, already_settled=True, status="settled")
    assert await store.balance(G, ALICE) == 1100


async def test_a_settlement_that_does_not_match_the_stakes_is_refused(store: db.Store) -> None:
    round_id = await _round_with_bets(store, {ALICE: 100})
    with pytest.raises(ValueError, match="staked 100"):
        await store.settle_round(round_id, {ALICE: 200}, [HandResult(ALICE, "win", 90, 200)], "{}")
    with pytest.raises(ValueError, match="paid 300"):
        await store.settle_round(round_id, {ALICE: 300}, [HandResult(ALICE, "win", 100, 200)], "{}")
    with pytest.raises(ValueError, match=f"player {BOB} has no stake"):
        await store.settle_round(round_id, {BOB: 100}, [HandResult(ALICE, "loss", 100, 0)], "{}")
    record = await store.reports.get_round(round_id)
    assert record is not None
    assert record.status == "open"
    assert await store.balance(G, ALICE) == 900


@pytest.mark.parametrize("payout", [-1, 1.5, True])
async def test_a_payout_that_is_not_a_whole_number_of_chips_is_refused(
    store: db.Store, payout: object
) -> None:
    round_id = await _round_with_bets(store, {ALICE: 100})
    with pytest.raises(ValueError, match="payout"):
        await store.settle_round(round_id, {ALICE: payout}, [], "{}")  # type: ignore[dict-item]


async def test_voiding_refunds_every_stake_once(store: db.Store) -> None:
    round_id = await _round_with_bets(store, {ALICE: 100, BOB: 40})
    await store.stake(G, ALICE, 100, "double", round_id)
    result = await store.void_round(round_id, "the dealer fell asleep")
    assert (result.refunds, result.balances) == ({ALICE: 200, BOB: 40}, {ALICE: 1000, BOB: 1000})
    assert not result.already_closed
    again = await store.void_round(round_id, "again")
    assert (again.already_closed, again.status, again.refunds) == (True, "void", {})
    assert await store.balance(G, ALICE) == 1000
    settle = await store.settle_round(round_id, {ALICE: 400}, [], "{}")
    assert (settle.already_settled, settle.status) == (True, "void")
    assert await store.balance(G, ALICE) == 1000


async def test_a_settled_round_cannot_be_voided(store: db.Store) -> None:
    round_id = await _round_with_bets(store, {ALICE: 100})
    await store.settle_round(round_id, {}, [HandResult(ALICE, "loss", 100, 0)], "{}")
    result = await store.void_round(round_id, "too late")
    assert (result.already_closed, result.status, result.refunds) == (True, "settled", {})
    assert await store.balance(G, ALICE) == 900


async def test_recovery_voids_open_rounds_with_what_the_bot_needs_to_tell_the_channel(
    store: db.Store,
) -> None:
    open_id = await _round_with_bets(store, {ALICE: 100})
    await store.set_round_message(open_id, MESSAGE)
    await store.save_round_state(open_id, '{"phase": "play"}')
    settled_id = await store.open_round(G, CHANNEL + 1, "{}", "shoe-2")
    await store.settle_round(settled_id, {}, [], "{}")
    [result] = await store.recover()
    assert (result.round_id, result.guild_id, result.channel_id) == (open_id, G, CHANNEL)
    assert (result.message_id, result.state_json) == (MESSAGE, '{"phase": "play"}')
    assert result.refunds == {ALICE: 100}
    assert await store.recover() == []
    assert await store.balance(G, ALICE) == 1000


async def test_recovery_can_be_limited_to_some_guilds(store: db.Store) -> None:
    mine = await _round_with_bets(store, {ALICE: 10})
    other = await store.open_round(G + 1, CHANNEL, "{}", "shoe-other")
    assert [r.round_id for r in await store.recover([G])] == [mine]
    record = await store.reports.get_round(other)
    assert record is not None
    assert record.status == "open"


async def test_the_state_of_a_closed_round_cannot_be_replaced(store: db.Store) -> None:
    round_id = await _round_with_bets(store, {})
    await store.void_round(round_id, "empty table")
    with pytest.raises(db.RoundClosed):
        await store.save_round_state(round_id, "{}")
    with pytest.raises(db.UnknownRound):
        await store.set_round_message(round_id + 5, MESSAGE)


async def test_a_retired_shoe_reveals_its_seed_and_deals_no_more(store: db.Store) -> None:
    round_id = await _round_with_bets(store, {})
    assert await store.shoes.last_revealed_shoe(G, CHANNEL) is None
    shoe = await store.shoes.reveal_seed("shoe-1", "ab" * 32)
    assert (shoe.commitment, shoe.seed_hex, shoe.channel_id) == ("shoe-1", "ab" * 32, CHANNEL)
    assert shoe.retired_at is not None
    assert await store.shoes.reveal_seed("shoe-1", "ab" * 32) == shoe
    with pytest.raises(ValueError, match="different seed"):
        await store.shoes.reveal_seed("shoe-1", "cd" * 32)
    with pytest.raises(db.UnknownShoe):
        await store.shoes.reveal_seed("never-dealt", "00")
    assert await store.shoes.last_revealed_shoe(G, CHANNEL) == shoe
    with pytest.raises(ValueError, match="revealed"):
        await store.open_round(G, CHANNEL, "{}", "shoe-1")
    record = await store.reports.get_round(round_id)
    assert record is not None
    assert record.seed_hex == "ab" * 32


async def test_the_last_revealed_shoe_is_the_latest_retired(store: db.Store) -> None:
    await store.shoes.open_shoe(G, CHANNEL, "first")
    await store.shoes.open_shoe(G, CHANNEL, "second")
    await store.shoes.reveal_seed("first", "01")
    await store.shoes.reveal_seed("second", "02")
    await store.shoes.open_shoe(G, CHANNEL, "third")
    shoe = await store.shoes.last_revealed_shoe(G, CHANNEL)
    assert shoe is not None
    assert (shoe.commitment, shoe.seed_hex) == ("second", "02")


async def test_round_history_is_newest_first_and_filters_by_channel_and_player(
    store: db.Store,
) -> None:
    first = await _round_with_bets(store, {ALICE: 10})
    second = await store.open_round(G, CHANNEL + 1, "{}", "shoe-1")
    await store.stake(G, BOB, 10, "bet", second)
    third = await _round_with_bets(store, {BOB: 10})
    assert [r.round_id for r in await store.reports.round_history(G)] == [third, second, first]
    assert [r.round_id for r in await store.reports.round_history(G, channel_id=CHANNEL)] == [
        third,
        first,
    ]
    assert [r.round_id for r in await store.reports.round_history(G, user_id=BOB)] == [
        third,
        second,
    ]
    assert [r.round_id for r in await store.reports.round_history(G, limit=1, before_id=third)] == [
        second
    ]
    assert await store.reports.round_history(G + 1) == []


async def test_side_bets_are_staked_with_the_bet_and_paid_at_settlement(store: db.Store) -> None:
    round_id = await store.open_round(G, CHANNEL, '{"preset": "vegas-shoe"}', "shoe-1")
    assert await store.stake(G, ALICE, 100, "bet", round_id, side_amount=30) == 870
    hands = [HandResult(ALICE, "loss", 100, 0)]
    side = [
        db.SideBetResult(ALICE, 0, "21+3", "9", "straight", 10, 100),
        db.SideBetResult(ALICE, 0, "perfect-pairs", "25/12/6", None, 10, 0),
        db.SideBetResult(ALICE, 0, "buster", "2/2/4/12/50/250", None, 10, 0),
    ]
    await store.settle_round(round_id, {ALICE: 0}, hands, "{}", side_bets=side)
    assert await store.balance(G, ALICE) == 970
    kinds = [(entry.kind, entry.delta) for entry in await store.reports.ledger(G, ALICE)]
    assert kinds[:3] == [("side_payout", 100), ("side_bet", -30), ("bet", -100)]
    stats = await store.reports.stats(G, ALICE)
    assert (stats.hands, stats.side_bets, stats.side_bet_wins) == (1, 3, 1)
    assert (stats.side_bet_wagered, stats.side_bet_net) == (30, 70)
    assert stats.net == -100  # the main game's record, apart from the side bets


async def test_side_bets_that_do_not_match_their_stakes_are_refused(store: db.Store) -> None:
    round_id = await store.open_round(G, CHANNEL, '{"preset": "vegas-shoe"}', "shoe-1")
    await store.stake(G, ALICE, 100, "bet", round_id, side_amount=20)
    hands = [HandResult(ALICE, "win", 100, 200)]
    side = [db.SideBetResult(ALICE, 0, "21+3", "9", None, 10, 0)]
    with pytest.raises(ValueError, match="staked 120"):
        await store.settle_round(round_id, {ALICE: 200}, hands, "{}", side_bets=side)
    assert await store.balance(G, ALICE) == 880


async def test_voiding_refunds_the_side_bets_too(store: db.Store) -> None:
    round_id = await store.open_round(G, CHANNEL, '{"preset": "vegas-shoe"}', "shoe-1")
    await store.stake(G, ALICE, 100, "bet", round_id, side_amount=25)
    await store.void_round(round_id, "table closed")
    assert await store.balance(G, ALICE) == 1000


def _deal(round_id: int) -> db.TableAction:
    return db.TableAction("table-1", round_id, "", "deal", '{"bets": []}', 1.0)


#: Alice's 21+3 and Perfect Pairs, decided by the deal: a straight (wins 90) and no pair.
AT_THE_DEAL = [
    db.SideBetResult(ALICE, 0, "21+3", "9", "straight", 10, 100),
    db.SideBetResult(ALICE, 0, "perfect-pairs", "25/12/6", None, 10, 0),
]


async def test_side_bets_settled_at_the_deal_are_paid_with_it_and_kept_by_a_void(
    store: db.Store,
) -> None:
    round_id = await store.open_round(G, CHANNEL, '{"preset": "vegas-shoe"}', "shoe-1")
    await store.stake(G, ALICE, 100, "bet", round_id, side_amount=30)  # and Buster, 10
    paid = await store.deal_side_bets(_deal(round_id), AT_THE_DEAL)
    assert (paid.status, paid.payouts, paid.balances) == ("open", {ALICE: 100}, {ALICE: 970})
    assert [action.action for action in await store.tables.round_actions(round_id)] == ["deal"]
    voided = await store.void_round(round_id, "table closed")
    # The main bet and Buster come back; the 21+3 win stays, the Perfect Pairs loss too.
    assert voided.refunds == {ALICE: 110}
    assert await store.balance(G, ALICE) == 1000 - 130 + 100 + 110
    kinds = [(entry.kind, entry.delta) for entry in await store.reports.ledger(G, ALICE)]
    assert kinds[:3] == [("refund", 110), ("side_payout", 100), ("side_bet", -30)]
    stats = await store.reports.stats(G, ALICE)
    assert (stats.side_bets, stats.side_bet_wins, stats.side_bet_net) == (2, 1, 80)
    with pytest.raises(db.RoundClosed):
        await store.deal_side_bets(_deal(round_id), AT_THE_DEAL)


async def test_a_lost_side_bet_settled_at_the_deal_is_not_refunded(store: db.Store) -> None:
    round_id = await store.open_round(G, CHANNEL, '{"preset": "vegas-shoe"}', "shoe-1")
    await store.stake(G, ALICE, 100, "bet", round_id, side_amount=10)
    lost = [db.SideBetResult(ALICE, 0, "perfect-pairs", "25/12/6", None, 10, 0)]
    await store.deal_side_bets(_deal(round_id), lost)
    assert await store.balance(G, ALICE) == 890
    assert (await store.void_round(round_id, "the bot restarted")).refunds == {ALICE: 100}
    assert await store.balance(G, ALICE) == 990


async def test_the_settlement_pays_buster_after_the_deal_paid_the_rest(store: db.Store) -> None:
    round_id = await store.open_round(G, CHANNEL, '{"preset": "vegas-shoe"}', "shoe-1")
    await store.stake(G, ALICE, 100, "bet", round_id, side_amount=30)
    await store.deal_side_bets(_deal(round_id), AT_THE_DEAL)
    hands = [HandResult(ALICE, "win", 100, 200)]
    buster = [db.SideBetResult(ALICE, 0, "buster", "2/2/4/12/50/250", "3 cards", 10, 30)]
    await store.settle_round(round_id, {ALICE: 200}, hands, "{}", side_bets=buster)
    assert await store.balance(G, ALICE) == 1000 - 130 + 100 + 200 + 30
    record = await store.reports.get_round(round_id)
    assert record is not None
    assert (record.status, record.staked, record.paid) == ("settled", 130, 330)


async def test_the_deal_settles_its_side_bets_once_and_within_their_stakes(
    store: db.Store,
) -> None:
    round_id = await store.open_round(G, CHANNEL, '{"preset": "vegas-shoe"}', "shoe-1")
    await store.stake(G, ALICE, 100, "bet", round_id, side_amount=10)
    with pytest.raises(ValueError, match="staked 10 chips on side bets"):
        await store.deal_side_bets(_deal(round_id), AT_THE_DEAL)
    assert await store.tables.round_actions(round_id) == []  # nothing written, the deal neither
    await store.deal_side_bets(_deal(round_id), AT_THE_DEAL[1:])
    with pytest.raises(ValueError, match="already settled"):
        await store.deal_side_bets(_deal(round_id), AT_THE_DEAL[1:])
    assert len(await store.tables.round_actions(round_id)) == 1
    assert await store.balance(G, ALICE) == 890
    await store.void_round(round_id, "table closed")


async def test_a_side_bet_too_big_for_the_balance_stakes_nothing(store: db.Store) -> None:
    round_id = await store.open_round(G, CHANNEL, '{"preset": "vegas-shoe"}', "shoe-1")
    with pytest.raises(db.InsufficientChips):
        await store.stake(G, ALICE, 900, "bet", round_id, side_amount=200)
    assert await store.balance(G, ALICE) == 1000
    assert [entry.kind for entry in await store.reports.ledger(G, ALICE)] == ["grant"]
