"""Tournaments through the fake Discord, each hand dealt from a stacked shoe through the
tournament's own shoe factory: a whole one to its end, a duplicate one on two channels, a
cancel's refunds, the play gate's hold on them, and what a tournament table shares with
every table (one bet parser, one refusal path, the table's message upkeep)."""

from __future__ import annotations

import pytest

from bot.engine import StackedShoe, commitment, continuation_seed, parse_cards
from bot.tables.play_words import STOPPED
from bot.tournaments.state import Status
from cogs.responsible_admin import TOURNAMENT_STOPPED_REASON
from cogs.table.render import ROUND_REFUNDED, STAKE_REFUNDED
from tests.db.invariants import check_invariants
from tests.support.discord_world import World, embed_text
from tests.support.shoes import SPARE, ShoeQueue
from tests.support.tournaments import (
    TIED_BELOW,
    ask,
    live,
    service,
    settled,
    stack_hands,
    stacks,
    the_board,
    tick,
)

pytestmark = pytest.mark.usefixtures("bot")


async def test_a_three_player_tournament_to_its_end(world: World, shoes: ShoeQueue) -> None:
    stack_hands(world, shoes)
    shoes.add(TIED_BELOW)
    seed = bytes(range(32))
    service(world).new_seed = lambda: seed
    created = await world.slash(
        world.mod, "tournament create", None, fee=100, hands=2, eliminations="1"
    )
    await settled(world)
    assert created.original is not None
    assert not created.original.ephemeral
    # The shuffle's commitment is shown from the start.
    assert commitment(seed) in embed_text(the_board(world))
    for member in (world.alice, world.bob, world.carol):
        assert "prize pool" in await ask(world, member, "tournament join")
    assert await world.balance(world.alice) == 900
    t = live(world)
    assert t.pool == 300
    # Someone without Manage Channels cannot start it.
    assert "Only the host" in await ask(world, world.alice, "tournament start")
    assert "started" in await ask(world, world.mod, "tournament start")
    board = the_board(world)
    assert "Hand 1 of 2 · next elimination after hand 1" in embed_text(board)

    # Alice bets through the Bet button's form, Bob with the command: one parser for both.
    opened = await world.fake.click(world.alice, board, label="Bet")
    assert opened.response_type == 9  # the form
    typo = await world.fake.submit_modal(world.alice, opened, {"Chips": "ten"})
    assert typo.content is not None
    assert "ten" in typo.content
    assert "Bet sealed" not in embed_text(board)  # nothing sealed
    opened = await world.fake.click(world.alice, board, label="Bet")
    sealed = await world.fake.submit_modal(world.alice, opened, {"Chips": "10"})
    await settled(world)
    assert sealed.content == "Your bet of 10 chips is sealed."
    assert "The table minimum is 10" in await ask(world, world.bob, "tournament bet", amount="5")
    assert "secret bet of 10" in await ask(
        world, world.bob, "tournament bet", amount="10", secret=True
    )
    assert "already bet" in await ask(world, world.bob, "tournament bet", amount="20")
    assert "not playing at this table" in await ask(world, world.mod, "tournament bet", amount="20")
    text = embed_text(board)
    assert text.count("Bet sealed") == 2
    assert "Bet 10" not in text  # sealed: nobody's amount shows while bets are open
    # Carol does not bet: when the timer ends she bets the minimum and the hand is dealt.
    await tick(world, t.timers[0])
    text = embed_text(board)
    assert "Carol did not bet in time and bets the minimum, 10 chips." in text
    assert "secret bet" in text  # Bob's amount stays hidden until the hand is paid
    await world.click(world.alice, board, "Stand")
    await world.click(world.bob, board, "Stand")
    await settled(world)
    # Carol does not act: basic strategy plays her hand, and the table says so.
    await tick(world, t.timers[1])
    text = embed_text(board)
    assert "Bob's secret bet was 10 chips" in text
    # Alice and Bob are tied; both began the hand with 1,000, so seat order from the
    # first bettor (Alice's seat) breaks it: Bob is out.
    assert "Bob has the fewest chips after hand 1 and is out." in text
    # Everyone began hand 1 with the smallest stack (1,000): Alice and Carol survived it.
    survived = "earned an achievement: Against the odds."
    assert f"Alice {survived}" in text
    assert f"Carol {survived}" in text
    assert f"Bob {survived}" not in text
    assert stacks(world, t) == {world.alice.id: 990, world.bob.id: 990, world.carol.id: 1010}
    standings = await ask(world, world.alice, "tournament standings")
    assert standings.splitlines()[-1].startswith("3. Bob")
    assert "Hand 2 of 2" in embed_text(board)
    assert "out after hand 1" in embed_text(board)

    # Hand 2: everyone left misses the timers; the tournament ends.
    await tick(world, t.timers[0])
    await tick(world, t.timers[1])
    assert service(world).live == {}
    places = await world.store.tournaments.places(t.tournament_id)
    assert [p.place for p in places] == [1, 2, 3]
    assert places[2].user_id == world.bob.id
    assert [p.prize for p in places] == [180, 90, 30]
    for place in places:
        assert await world.store.balance(world.guild.id, place.user_id) == 900 + place.prize
    eliminations = await world.store.tournaments.eliminations(t.tournament_id)
    assert {(r.user_id, r.eliminated) for r in eliminations} == {
        (world.alice.id, False),
        (world.bob.id, True),
        (world.carol.id, False),
    }
    shoe = await world.store.shoes.get_shoe(commitment(seed))
    assert shoe is not None
    assert shoe.seed_hex == seed.hex()
    # The last hand is shown on the table (its dealer's cards and every result), and the
    # final standings below it, with the seed and the command that checks it.
    last = embed_text(board)
    assert "Dealer" in last
    assert "This table has played its last hand." in last
    # Nothing was called off: the last hand was paid, and no stake is said to be refunded.
    assert ROUND_REFUNDED not in last
    assert STAKE_REFUNDED not in last
    posted = [m.content for m in world.fake.messages_in(world.channel) if m.content]
    (over,) = [
        text for text in posted if text.startswith(f"Tournament #{t.tournament_id} is over.")
    ]
    assert f"python -m bot verify --seed {seed.hex()}" in over
    winner, name = next(
        (m, n)
        for m, n in ((world.alice, "Alice"), (world.carol, "Carol"))
        if m.id == places[0].user_id
    )
    assert f"{name} earned an achievement: Champion. Win a tournament." in over
    for member in (world.alice, world.bob, world.carol):
        shown = await world.slash(world.mod, "stats", member=member)
        assert shown.embed is not None
        held = "".join(f["value"] for f in shown.embed["fields"])
        assert ("**Champion**" in held) == (member is winner)
        assert ("**Against the odds**" in held) == (member is not world.bob)
    # After the end, the standings and the fairness check still answer in the channel.
    assert "1. " in await ask(world, world.bob, "tournament standings")
    assert seed.hex() in await ask(world, world.bob, "blackjack fairness")


async def test_a_duplicate_tournament_deals_the_same_cards_at_two_channels(world: World) -> None:
    # Every table's hand n is dealt from the one seed's continuation n: here, one stack.
    dealt: list[bytes] = []

    def same_cards(table: object, seed: bytes) -> StackedShoe:
        dealt.append(seed)
        return StackedShoe(parse_cards("Th 9d 7c 6s 8h 8d " + SPARE))

    service(world).mode.hand_shoe = same_cards
    await world.slash(
        world.mod, "tournament create", None, duplicate=True, hands=3, eliminations="1"
    )
    await world.slash(world.mod, "tournament create", world.other_channel, duplicate=True)
    await settled(world)
    t = live(world)
    assert t.channels == [world.channel.id, world.other_channel.id]
    await ask(world, world.alice, "tournament join")
    await ask(world, world.carol, "tournament join")
    await ask(world, world.bob, "tournament join", world.other_channel)
    await ask(world, world.mod, "tournament join", world.other_channel)
    await ask(world, world.mod, "tournament start")
    for member, channel in (
        (world.alice, world.channel),
        (world.carol, world.channel),
        (world.bob, world.other_channel),
        (world.mod, world.other_channel),
    ):
        await world.bet(member, "20", channel=channel)  # /bet works at a tournament too
    assert dealt[0] == dealt[1] == continuation_seed(t.seed, 1)
    first, second = (world.running.tables.registry.tables[i] for i in t.table_ids)
    assert first.round is not None
    assert second.round is not None
    assert first.round.dealer_up_card == second.round.dealer_up_card
    for a, b in ((world.alice, world.bob), (world.carol, world.mod)):
        assert first.round.hands(str(a.id))[0].cards == second.round.hands(str(b.id))[0].cards
    assert "Duplicate" in embed_text(the_board(world, world.other_channel))
    standings = await ask(world, world.bob, "tournament standings", world.other_channel)
    assert len(standings.splitlines()) == 5  # all four players, ranked together


async def test_a_cancel_refunds_every_fee(world: World) -> None:
    await world.slash(world.mod, "tournament create", None, fee=250)
    await settled(world)
    await ask(world, world.alice, "tournament join")
    await ask(world, world.bob, "tournament join")
    assert await world.balance(world.alice) == 750
    assert "Only the host" in await ask(world, world.carol, "tournament cancel")
    assert "refunded" in await ask(world, world.mod, "tournament cancel")
    for member in (world.alice, world.bob):
        assert await world.balance(member) == 1000
        assert (await world.ledger(member))[-2:] == [("bet", -250), ("refund", 250)]
    assert "Cancelled by Moderator" in embed_text(the_board(world))
    assert "no tournament" in await ask(world, world.alice, "tournament join")


async def test_a_tournament_nobody_plays_ends_after_the_idle_timeout_with_fees_refunded(
    world: World,
) -> None:
    await world.slash(world.mod, "tournament create", None, fee=50)
    await settled(world)
    await ask(world, world.alice, "tournament join")
    t = live(world)
    assert await world.balance(world.alice) == 950
    await tick(world, t.timers[2] - 1)
    assert service(world).live  # still taking entries
    await tick(world, 1)
    assert service(world).live == {}
    assert await world.balance(world.alice) == 1000
    assert "Nobody played for a while" in embed_text(the_board(world))


async def test_the_host_funds_a_prize_pool_without_a_fee(world: World) -> None:
    await world.start(world.alice, world.other_channel)
    assert "channel of its own" in await ask(
        world, world.mod, "tournament create", world.other_channel
    )
    refused = await ask(world, world.mod, "tournament create", fee=10, prize=100)
    assert "leave prize out" in refused
    assert "Creating a tournament needs Manage Channels" in await ask(
        world, world.alice, "tournament create"
    )
    assert "Funding the prize pool needs 5,000 chips and you have 1,000." in await ask(
        world, world.mod, "tournament create", prize=5000
    )
    assert await world.balance(world.mod) == 1000
    assert service(world).live == {}
    assert world.running.tables.table_in(world.channel.id) is None  # its table closed
    await world.slash(world.mod, "tournament create", None, prize=300)
    await settled(world)
    assert live(world).pool == 300
    assert await world.balance(world.mod) == 700
    await ask(world, world.mod, "tournament cancel")
    assert await world.balance(world.mod) == 1000


async def test_a_tournament_hand_earns_the_card_achievements_but_not_big_round(
    world: World, shoes: ShoeQueue
) -> None:
    stack_hands(world, shoes)
    # Alice (all 1,000 in) is dealt a blackjack; Bob's 12 is played for him and busts.
    shoes.add("Ah 7d 9c Kh 5d Ts Th " + SPARE)
    await world.slash(world.mod, "tournament create", None, hands=2, eliminations="1", max_bet=1000)
    await settled(world)
    for member in (world.alice, world.bob):
        await ask(world, member, "tournament join")
    await ask(world, world.mod, "tournament start")
    t = live(world)
    await ask(world, world.alice, "tournament bet", amount="1000")
    await ask(world, world.bob, "tournament bet", amount="10")
    await tick(world, t.timers[1])  # Bob's hand is played for him; Bob is out, Alice wins
    assert service(world).live == {}
    posted = [m.content for m in world.fake.messages_in(world.channel) if m.content]
    (over,) = [text for text in posted if text.startswith(f"Tournament #{t.tournament_id} is")]
    assert "Alice: 2,500 tournament chips" in over  # +1,500: not the economy's, no Big round
    assert "Alice earned an achievement: First blackjack." in over
    assert "Alice earned an achievement: Champion." in over
    held = {
        a.key for a in await world.store.competition.achievements(world.guild.id, world.alice.id)
    }
    assert {"first_blackjack", "tournament_winner", "tournament_survivor"} <= held
    assert "big_round" not in held


async def test_the_stop_switch_cancels_a_tournament_mid_hand_and_refunds_every_chip(
    world: World, shoes: ShoeQueue, database_url: str
) -> None:
    # Carol's table round is in play: 10 and 8 against the dealer's 7 and 10.
    shoes.add("Ts 7c 8d Tc " + SPARE)
    table = await world.start(world.carol, world.other_channel)
    await world.bet(world.carol, "100", channel=world.other_channel)
    assert "Stand" in embed_text(table)
    # A tournament is at its first hand; another, funded by its host, takes entries.
    await world.slash(world.mod, "tournament create", None, fee=100, hands=2)
    await settled(world)
    for member in (world.alice, world.bob):
        await ask(world, member, "tournament join")
    await ask(world, world.mod, "tournament start")
    await ask(world, world.alice, "tournament bet", amount="10")
    assert live(world).status is Status.PLAYING
    third = world.fake.add_text_channel(world.guild, "tournaments")
    await world.slash(world.mod, "tournament create", third, prize=300)
    await settled(world)
    assert await world.balance(world.mod) == 700
    assert await world.balance(world.alice) == 900

    stopped = await ask(world, world.admin, "blackjack-admin config", stop_all=True)
    assert "Tournaments cancelled: 2; every fee was refunded." in stopped
    assert service(world).live == {}
    for member in (world.alice, world.bob, world.carol, world.mod):
        assert await world.balance(member) == 1000
    assert (await world.ledger(world.carol))[-2:] == [("bet", -100), ("refund", 100)]
    assert (await world.ledger(world.alice))[-2:] == [("bet", -100), ("refund", 100)]
    assert TOURNAMENT_STOPPED_REASON in embed_text(the_board(world))
    assert TOURNAMENT_STOPPED_REASON in embed_text(the_board(world, third))
    await check_invariants(database_url)

    assert await ask(world, world.mod, "tournament create", fee=10) == STOPPED
    await ask(world, world.admin, "blackjack-admin config", stop_all=False)
    await world.slash(world.mod, "tournament create", None, fee=10)
    await settled(world)
    assert live(world).fmt.fee == 10
