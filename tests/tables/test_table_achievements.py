"""Achievements earned at the table: read from the settled round, awarded once with it,
announced in the table's Latest line; and a season rolling over on the service's clock."""

from __future__ import annotations

from pathlib import Path

import pytest

import db
from bot.engine import Action, Round, StackedShoe, parse_cards, preset
from bot.tables import TablePhase, TableService, TableSnapshot
from bot.tables.achievements import (
    ACHIEVEMENTS,
    ANNOUNCEMENT,
    BY_KEY,
    FIRST_BLACKJACK,
    FIVE_CARD_21,
    HAT_TRICK,
    SPLIT_ACES_SWEEP,
    SUITED_BLACKJACK,
    TOURNAMENT_SURVIVOR,
    TOURNAMENT_WINNER,
    Achievement,
    round_awards,
)
from bot.tables.cash import CashMode
from fakediscord.clock import ManualClock
from tests.support.shoes import SPARE, ShoeQueue
from tests.support.tables import ALICE, BOB, CHANNEL, GUILD, Player

#: Alice A♠ K♠ (a suited blackjack), Bob 9 7 stands; the dealer shows a 9 and holds 17.
SUITED = "As 9h 9d Ks 7c 8c " + SPARE
MESSAGE = 900_000_000_000_000_555


def announced(player: Player, *achievements: Achievement) -> list[str]:
    return [
        ANNOUNCEMENT.format(player=player.name, name=a.name, wording=a.wording)
        for a in achievements
    ]


async def held(store: db.Store, player: Player) -> list[tuple[str, int | None]]:
    return [
        (a.key, a.round_id) for a in await store.competition.achievements(GUILD, player.user_id)
    ]


async def _deal_suited_round(service: TableService) -> TableSnapshot:
    """Alice and Bob bet 100; the deal leaves Bob to act."""
    started = (await service.start(GUILD, CHANNEL, ALICE)).snapshot
    await service.attach_message(started.table_id, MESSAGE)
    await service.join(CHANNEL, BOB)
    await service.bet(CHANNEL, ALICE, "100")
    snap, _ = await service.bet(CHANNEL, BOB, "100")
    assert snap.phase is TablePhase.PLAYING
    return snap


def test_every_achievement_has_its_own_key_name_and_wording() -> None:
    assert len(ACHIEVEMENTS) == len(BY_KEY) == len({a.name for a in ACHIEVEMENTS}) == 14
    assert all(a.wording.endswith(".") and a.wording[0].isupper() for a in ACHIEVEMENTS)
    assert {TOURNAMENT_SURVIVOR.key, TOURNAMENT_WINNER.key} <= set(BY_KEY)


# Each round: the cards in dealing order (players, dealer up, players, dealer hole, then
# draws), the bets, the decisions, and what each player earns.
ROUNDS = {
    "doubled 11 to 20": ("5s 9d 6h 8c 9h", {"1": 100}, [("1", "double")], {1: ("double_win",)}),
    "seven cards, 17": (
        "2c 9d 2d 8c 2h 2s 3c 3d 3h",
        {"1": 100},
        [("1", "hit")] * 5 + [("1", "stand")],
        {1: ("seven_cards",)},
    ),
    "insured against a blackjack": (
        "Ts Ad 9h Kc",
        {"1": 100},
        [("1", "insurance")],
        {1: ("insurance_paid",)},
    ),
    "blackjack against blackjack": (
        "As Ad Kh Kc",
        {"1": 100},
        [("1", "no_insurance")],
        {1: ("blackjack_standoff",)},
    ),
    "20 wins 1,000": ("Ts 9d Th 8c", {"1": 1000}, [("1", "stand")], {1: ("big_round",)}),
    "999 is not 1,000": ("Ts 9d Th 8c", {"1": 999}, [("1", "stand")], {}),
    "surrendered 16": ("Ts 9d 6h Tc", {"1": 100}, [("1", "surrender")], {1: ("surrendered",)}),
    "five players": (
        "Ts Ts Ts Ts Ts 9d 9s 9s 9s 9s 9s 8c",
        {str(n): 10 for n in range(1, 6)},
        [(str(n), "stand") for n in range(1, 6)],
        {n: ("full_table",) for n in range(1, 6)},
    ),
    "four players": (
        "Ts Ts Ts Ts 9d 9s 9s 9s 9s 8c",
        {str(n): 10 for n in range(1, 5)},
        [(str(n), "stand") for n in range(1, 5)],
        {},
    ),
    "split aces, one lost": ("As 9s Ah 9d 2c 9c 8h", {"1": 10}, [("1", "split")], {}),
}


@pytest.mark.parametrize("name", list(ROUNDS))
def test_what_a_round_earns(name: str) -> None:
    cards, bets, decisions, expected = ROUNDS[name]
    round_ = Round.deal(
        preset("vegas-shoe"),
        StackedShoe(parse_cards(cards + " " + SPARE)),
        [(pid, [stake]) for pid, stake in bets.items()],
    )
    for pid, action in decisions:
        round_.act(pid, action)
    assert round_.is_finished
    assert dict(round_awards(GUILD, round_).earned) == expected


def test_the_readme_words_every_achievement_as_the_code_does() -> None:
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    for achievement in ACHIEVEMENTS:
        assert f"| {achievement.name} | {achievement.wording} |" in readme


async def test_a_suited_blackjack_is_awarded_with_its_round_and_announced(
    service: TableService, store: db.Store, shoes: ShoeQueue
) -> None:
    shoes.add(SUITED)
    snap = await _deal_suited_round(service)
    [round_record] = await store.reports.round_history(GUILD, channel_id=CHANNEL, limit=1)
    snap = (await service.act(snap.table_id, snap.round_no, BOB, Action.STAND)).snapshot
    assert snap.phase is TablePhase.BETTING
    assert list(snap.events) == announced(ALICE, FIRST_BLACKJACK, SUITED_BLACKJACK)
    assert await held(store, ALICE) == [
        ("first_blackjack", round_record.round_id),
        ("suited_blackjack", round_record.round_id),
    ]
    assert await held(store, BOB) == []


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
async def test_a_round_settled_by_a_resumed_process_awards_once(
    service: TableService, store: db.Store, clock: ManualClock, shoes: ShoeQueue
) -> None:
    shoes.add(SUITED)
    snap = await _deal_suited_round(service)
    [round_record] = await store.reports.round_history(GUILD, channel_id=CHANNEL, limit=1)
    # Bob's stand reached the journal, then the process died before settling.
    await service.suspend()
    stand = db.TableAction(
        snap.table_id,
        round_record.round_id,
        str(BOB.user_id),
        Action.STAND.value,
        None,
        clock.now(),
    )
    await store.tables.append_actions([stand])
    for _ in range(2):  # a resumed process settles from the journal; the next finds it settled
        restarted = TableService(store, clock=clock)
        [resumed] = (await restarted.resume()).resumed
        assert resumed.snapshot.phase is TablePhase.BETTING
        await restarted.suspend()
    assert await held(store, ALICE) == [
        ("first_blackjack", round_record.round_id),
        ("suited_blackjack", round_record.round_id),
    ]
    assert await store.balance(GUILD, ALICE.user_id) == 1000 + 150


async def _play_alone(service: TableService, table_id: str, *actions: Action) -> TableSnapshot:
    snap, _ = await service.bet(CHANNEL, ALICE, "100")
    for action in actions:
        snap = (await service.act(table_id, snap.round_no, ALICE, action)).snapshot
    assert snap.phase is TablePhase.BETTING
    return snap


async def test_split_aces_both_won_then_a_five_card_21(
    service: TableService, store: db.Store, shoes: ShoeQueue
) -> None:
    # Round 1: A♠ A♥ against 7 10, split: K♦ and 9♣ (21 and 20). Round 2: 2 3 against
    # 9 8, hits 4 5 7: five cards, 21.
    shoes.add("As 7s Ah Td Kd 9c 2c 9s 3d 8h 4h 5s 7d " + SPARE)
    table_id = (await service.start(GUILD, CHANNEL, ALICE)).snapshot.table_id
    snap = await _play_alone(service, table_id, Action.SPLIT)
    assert list(snap.events) == announced(ALICE, SPLIT_ACES_SWEEP)
    snap = await _play_alone(service, table_id, Action.HIT, Action.HIT, Action.HIT)
    assert list(snap.events) == announced(ALICE, FIVE_CARD_21)
    assert [key for key, _ in await held(store, ALICE)] == ["split_aces_sweep", "five_card_21"]


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
async def test_three_blackjacks_in_a_row_make_a_hat_trick_once(
    service: TableService, store: db.Store, shoes: ShoeQueue
) -> None:
    shoes.add("Ac 9s Kd 8h " * 4 + "9c 9s 8d 8h " + "Ac 9s Kd 8h " * 3 + SPARE)
    table_id = (await service.start(GUILD, CHANNEL, ALICE)).snapshot.table_id
    assert list((await _play_alone(service, table_id)).events) == announced(ALICE, FIRST_BLACKJACK)
    assert list((await _play_alone(service, table_id)).events) == []
    assert list((await _play_alone(service, table_id)).events) == announced(ALICE, HAT_TRICK)
    await _play_alone(service, table_id)  # a fourth: held already
    await _play_alone(service, table_id, Action.STAND)  # 18 against 17: the run ends
    for _ in range(3):
        last = await _play_alone(service, table_id)
    assert list(last.events) == []
    assert [key for key, _ in await held(store, ALICE)] == ["first_blackjack", "hat_trick"]


async def test_the_season_rolls_over_on_the_services_clock(
    service: TableService, store: db.Store, clock: ManualClock, shoes: ShoeQueue
) -> None:
    shoes.add(SUITED)
    snap = await _deal_suited_round(service)
    await service.act(snap.table_id, snap.round_no, BOB, Action.STAND)
    season = await store.competition.current_season(GUILD)
    standings = await store.competition.season_standings(GUILD)
    assert standings is not None
    assert [(e.user_id, e.net) for e in standings.entries] == [
        (ALICE.user_id, 150),
        (BOB.user_id, -100),
    ]
    await service.suspend()
    clock.advance((season.ends_at.timestamp() - clock.now()) + 1)
    following = await store.competition.current_season(GUILD)
    assert following.starts_at == season.ends_at
    now = await store.competition.season_standings(GUILD)
    assert now is not None
    assert now.entries == []
    past = await store.competition.season_standings(GUILD, season.name)
    assert past is not None
    assert past.entries == standings.entries
    assert await store.competition.season_names(GUILD) == [following.name, season.name]


async def test_achievements_a_player_holds_are_neither_checked_nor_asked_for_again(
    service: TableService, store: db.Store, shoes: ShoeQueue
) -> None:
    shoes.add(SUITED)
    snap = await _deal_suited_round(service)
    await service.act(snap.table_id, snap.round_no, BOB, Action.STAND)
    cash = service.flow.modes[CashMode.key]
    assert isinstance(cash, CashMode)
    assert cash.held.of(GUILD, ALICE.user_id) == {"first_blackjack", "suited_blackjack"}
    assert cash.held.of(GUILD, BOB.user_id) == frozenset()
    # The same cards again: Alice earns what she holds, so nothing is asked of the store,
    # but her blackjack still counts toward the hat trick, which she does not hold.
    alice, bob = str(ALICE.user_id), str(BOB.user_id)
    round_ = Round.deal(
        preset("vegas-shoe"), StackedShoe(parse_cards(SUITED)), [(alice, [100]), (bob, [100])]
    )
    round_.act(bob, "stand")
    assert round_.is_finished
    assert dict(round_awards(GUILD, round_).earned) == {
        ALICE.user_id: ("first_blackjack", "suited_blackjack")
    }
    awards = round_awards(GUILD, round_, cash.held)
    assert dict(awards.earned) == {}
    assert awards.blackjack_players == (ALICE.user_id,)
