"""Tournaments through the fake Discord: a whole one to its end, a duplicate one on two
channels, a cancel's refunds, and the play gate's hold on them (the stop switch, a break,
the account-age gate)."""

from __future__ import annotations

from typing import cast

import pytest
from discord_world import SPARE, ShoeQueue, World, embed_text

from bot.engine import Action, Round, Shoe, commitment, continuation_seed
from bot.engine.analysis import infinite_lookup
from bot.play_gate import account_created
from bot.tables.play_words import STOPPED
from bot.tournaments.rules import Format
from bot.tournaments.state import Status, Tournament, tournament_rules
from cogs.responsible_admin import TOURNAMENT_STOPPED_REASON
from cogs.tournament import TournamentCog
from fakediscord.records import FakeMessage
from tests.db.invariants import check_invariants

pytestmark = pytest.mark.usefixtures("bot")


def cog(world: World) -> TournamentCog:
    found = world.running.get_cog("Tournament")
    assert found is not None
    return cast(TournamentCog, found)


async def settled(world: World) -> None:
    await world.settle()
    await cog(world).idle()
    await world.settle()


async def ask(
    world: World, member: object, command: str, channel: object = None, **options: object
) -> str:
    text = await world.say(member, command, channel, **options)  # type: ignore[arg-type]
    await settled(world)
    return text


async def tick(world: World, seconds: float) -> None:
    await world.tick(seconds)
    await settled(world)


def find_seed(fmt: Format) -> bytes:
    """A seed whose first hand, three players betting 10 (the first two standing, the
    third played by basic strategy), leaves the first two tied below the third."""
    rules = tournament_rules(fmt)
    lookup = infinite_lookup(rules)
    for n in range(1, 5000):
        seed = n.to_bytes(32, "big")
        shoe = Shoe(rules.decks, rules.penetration, continuation_seed(seed, 1))
        round_ = Round.deal(rules, shoe, [("a", [10]), ("b", [10]), ("c", [10])])
        if round_.is_finished or not {"a", "b"} <= set(round_.players_to_act()):
            continue
        round_.act("a", Action.STAND)
        round_.act("b", Action.STAND)
        while "c" in round_.players_to_act():
            hand = round_.hands("c")[round_.current_hand_index("c") or 0]
            legal = {x for x in round_.legal_actions("c") if x in (Action.HIT, Action.STAND)}
            round_.act("c", lookup.advise(list(hand.cards), round_.dealer_up_card, legal))
        nets = {p: round_.settlement().player(p).net for p in "abc"}
        if nets["a"] == nets["b"] < nets["c"]:
            return seed
    raise AssertionError("no seed found")


def the_board(world: World, channel: object = None) -> FakeMessage:
    messages = [
        m
        for m in world.fake.messages_in(channel or world.channel)  # type: ignore[arg-type]
        if m.embed is not None and str(m.embed.get("title", "")).startswith("Tournament")
    ]
    assert messages
    return messages[-1]


def live(world: World) -> Tournament:
    (t,) = cog(world).service.live.values()
    return t


async def test_a_three_player_tournament_to_its_end(world: World) -> None:
    fmt = Format(hands=2, eliminations=(1,), fee=100)
    seed = find_seed(fmt)
    cog(world).service.new_seed = lambda: seed
    created = await world.slash(
        world.mod, "tournament create", None, fee=100, hands=2, eliminations="1"
    )
    await settled(world)
    assert created.original is not None
    assert not created.original.ephemeral
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

    # Alice bets through the Bet button's form, Bob with the command.
    opened = await world.fake.click(world.alice, board, label="Bet")
    assert opened.response_type == 9  # the form
    typo = await world.fake.submit_modal(world.alice, opened, {"Chips": "ten"})
    assert typo.content == "Write the bet as a whole number of chips, like 50."
    assert "betting" in embed_text(board)  # nothing sealed
    opened = await world.fake.click(world.alice, board, label="Bet")
    sealed = await world.fake.submit_modal(world.alice, opened, {"Chips": "10"})
    await settled(world)
    assert sealed.content == "Your bet of 10 chips is sealed."
    assert "Bet between 10 and 500 chips" in await ask(world, world.bob, "tournament bet", amount=5)
    assert "secret bet of 10" in await ask(
        world, world.bob, "tournament bet", amount=10, secret=True
    )
    assert "already sealed" in await ask(world, world.bob, "tournament bet", amount=20)
    assert "not playing at this table" in await ask(world, world.mod, "tournament bet", amount=20)
    text = embed_text(board)
    assert "bet sealed" in text
    assert "bet 10" not in text  # sealed: nobody's amount shows while bets are open
    # Bob's one secret bet is used.
    # Carol does not bet: when the timer ends she bets the minimum and the hand is dealt.
    await tick(world, t.bet_s)
    text = embed_text(board)
    assert "Carol did not bet in time and bets the minimum, 10 chips." in text
    assert "secret bet" in text  # Bob's amount stays hidden until the hand is paid
    assert "bet 10" in text
    await world.click(world.alice, board, "Stand")
    await world.click(world.bob, board, "Stand")
    await settled(world)
    # Carol does not act: basic strategy plays her hand, and the table says so.
    await tick(world, t.action_s)
    text = embed_text(board)
    assert "Carol did not act in time: basic strategy played their hand." in text
    assert "Bob's secret bet was 10 chips" in text
    # Alice and Bob are tied; both began the hand with 1,000, so seat order from the
    # first bettor (Alice's seat) breaks it: Bob is out.
    assert "Bob has the fewest chips after hand 1 and is out." in text
    # Everyone began hand 1 with the smallest stack (1,000): Alice and Carol survived it.
    survived = "earned an achievement: Against the odds."
    assert f"Alice {survived}" in text
    assert f"Carol {survived}" in text
    assert f"Bob {survived}" not in text
    alice, bob, carol = (t.entrant(m.id) for m in (world.alice, world.bob, world.carol))
    assert alice is not None
    assert bob is not None
    assert carol is not None
    assert alice.chips == bob.chips < carol.chips
    assert bob.out_after == 1
    standings = await ask(world, world.alice, "tournament standings")
    assert standings.splitlines()[-1].startswith("3. Bob")
    assert "Hand 2 of 2" in embed_text(board)
    assert "out after hand 1" in embed_text(board)

    # Hand 2: everyone left misses the timers; the tournament ends.
    await tick(world, t.bet_s)
    await tick(world, t.action_s)
    assert cog(world).service.live == {}
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
    shoe = await world.store.get_shoe(commitment(seed))
    assert shoe is not None
    assert shoe.seed_hex == seed.hex()
    posted = [m.content for m in world.fake.messages_in(world.channel) if m.content]
    (over,) = [
        text for text in posted if text.startswith(f"Tournament #{t.tournament_id} is over.")
    ]
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


def unfinished_deal_seed(fmt: Format) -> bytes:
    """A seed whose first hand, two players betting 20, still waits for them after the deal."""
    rules = tournament_rules(fmt)
    for n in range(1, 1000):
        seed = n.to_bytes(32, "big")
        shoe = Shoe(rules.decks, rules.penetration, continuation_seed(seed, 1))
        if len(Round.deal(rules, shoe, [("a", [20]), ("b", [20])]).players_to_act()) == 2:
            return seed
    raise AssertionError("no seed found")


async def test_a_duplicate_tournament_deals_the_same_cards_at_two_channels(world: World) -> None:
    seed = unfinished_deal_seed(Format(hands=3, eliminations=(1,)))
    cog(world).service.new_seed = lambda: seed
    await world.slash(
        world.mod, "tournament create", None, duplicate=True, hands=3, eliminations="1"
    )
    await world.slash(world.mod, "tournament create", world.other_channel, duplicate=True)
    await settled(world)
    t = live(world)
    assert [table.channel_id for table in t.tables] == [world.channel.id, world.other_channel.id]
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
    first, second = t.tables
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
    await tick(world, t.idle_s - 1)
    assert cog(world).service.live  # still taking entries
    await tick(world, 1)
    assert cog(world).service.live == {}
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
    assert "not enough for funding the prize pool" in await ask(
        world, world.mod, "tournament create", prize=5000
    )
    assert await world.balance(world.mod) == 1000
    await world.slash(world.mod, "tournament create", None, prize=300)
    await settled(world)
    assert live(world).pool == 300
    assert await world.balance(world.mod) == 700
    await ask(world, world.mod, "tournament cancel")
    assert await world.balance(world.mod) == 1000


def blackjack_seed(fmt: Format) -> bytes:
    """A seed whose first hand deals "a" (betting the whole stack) a blackjack the dealer
    does not match, and "b" (betting the minimum) a hand to play."""
    rules = tournament_rules(fmt)
    for n in range(1, 5000):
        seed = n.to_bytes(32, "big")
        shoe = Shoe(rules.decks, rules.penetration, continuation_seed(seed, 1))
        round_ = Round.deal(rules, shoe, [("a", [fmt.stack]), ("b", [fmt.min_bet])])
        if round_.hands("a")[0].natural and not round_.is_finished:
            return seed
    raise AssertionError("no seed found")


async def test_a_tournament_hand_earns_the_card_achievements_but_not_big_round(
    world: World,
) -> None:
    fmt = Format(hands=2, eliminations=(1,), max_bet=1000)
    cog(world).service.new_seed = lambda: blackjack_seed(fmt)
    await world.slash(world.mod, "tournament create", None, hands=2, eliminations="1", max_bet=1000)
    await settled(world)
    for member in (world.alice, world.bob):
        await ask(world, member, "tournament join")
    await ask(world, world.mod, "tournament start")
    t = live(world)
    await ask(world, world.alice, "tournament bet", amount=1000)
    await ask(world, world.bob, "tournament bet", amount=10)
    await tick(world, t.action_s)  # Bob's hand is played for him; Bob is out, Alice wins
    alice = t.entrant(world.alice.id)
    assert alice is not None
    assert alice.chips == 2500  # +1,500 tournament chips: not the economy's, no Big round
    posted = [m.content for m in world.fake.messages_in(world.channel) if m.content]
    (over,) = [text for text in posted if text.startswith(f"Tournament #{t.tournament_id} is")]
    assert "Alice earned an achievement: First blackjack." in over
    assert "Alice earned an achievement: Champion." in over
    held = {
        a.key for a in await world.store.competition.achievements(world.guild.id, alice.user_id)
    }
    assert {"first_blackjack", "tournament_winner", "tournament_survivor"} <= held
    assert "big_round" not in held


async def test_a_player_on_a_break_or_at_a_loss_limit_cannot_enter(world: World) -> None:
    await world.slash(world.mod, "tournament create", None, fee=100)
    await settled(world)
    await ask(world, world.alice, "limits break", period="7d")
    refused = await ask(world, world.alice, "tournament join")
    assert refused.startswith("You're taking a break from play until <t:")
    # A fee is a stake: a daily loss limit below it refuses the entry in the stake's
    # own transaction, and nothing is taken.
    await ask(world, world.bob, "limits set", daily_loss=50)
    over = await ask(world, world.bob, "tournament join")
    assert over.startswith("That bet would take you past")
    assert await world.balance(world.alice) == 1000
    assert await world.balance(world.bob) == 1000
    assert live(world).entrants == []


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
    await ask(world, world.alice, "tournament bet", amount=10)
    assert live(world).status is Status.PLAYING
    third = world.fake.add_text_channel(world.guild, "tournaments")
    await world.slash(world.mod, "tournament create", third, prize=300)
    await settled(world)
    assert await world.balance(world.mod) == 700
    assert await world.balance(world.alice) == 900

    stopped = await ask(world, world.admin, "blackjack-admin config", stop_all=True)
    assert "tables closed now: 1; their rounds were refunded." in stopped
    assert "Tournaments cancelled: 2; every fee was refunded." in stopped
    assert cog(world).service.live == {}
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


async def test_a_break_begun_during_a_tournament_plays_the_seat_and_stakes_nothing_more(
    world: World,
) -> None:
    await world.slash(world.mod, "tournament create", None, fee=100, hands=2)
    await settled(world)
    for member in (world.alice, world.bob):
        await ask(world, member, "tournament join")
    await ask(world, world.mod, "tournament start")
    await ask(world, world.alice, "limits break", period="7d")
    refused = await ask(world, world.alice, "tournament bet", amount=50)
    assert refused.startswith("You're taking a break from play until <t:")
    assert refused.endswith(
        "Your tournament seat plays on by itself until then:"
        " the minimum bet each hand, and basic strategy."
    )
    opened = await world.fake.click(world.alice, the_board(world), label="Bet")
    assert opened.content == refused  # no form: the same answer
    await ask(world, world.bob, "tournament bet", amount=10)
    t = live(world)
    await tick(world, t.bet_s)
    assert "Alice did not bet in time and bets the minimum, 10 chips." in embed_text(
        the_board(world)
    )
    assert await world.balance(world.alice) == 900
    fee_paid = len(await world.ledger(world.alice))
    while cog(world).service.live:  # every decision and bet left to the timers
        await tick(world, max(t.bet_s, t.action_s))
    after = (await world.ledger(world.alice))[fee_paid:]
    assert all(amount > 0 for _, amount in after)  # a prize, if any: never a stake


async def test_an_account_younger_than_the_gate_cannot_enter(world: World) -> None:
    newbie = world.fake.add_member(
        world.guild, "newbie", user=world.fake.add_user("newbie", age_days=2)
    )
    await world.slash(world.mod, "tournament create", None, fee=100)
    await settled(world)
    refused = await ask(world, newbie, "tournament join")
    allowed_from = int(account_created(newbie.id) + 7 * 86_400)
    assert refused.startswith("Your Discord account is too new to play here")
    assert f"<t:{allowed_from}:f>" in refused
    assert live(world).entrants == []
    assert await world.store.ledger(world.guild.id, newbie.id) == []
