"""What a tournament table shares with every table, through the fake Discord, each hand
dealt from a stacked shoe (or, to check the shuffle, from the tournament's real seed):
the table message deleted, Discord's one-hour edit cap, the bet limits shown, the
reality check's Continue at /tournament join, a command from outside a server, prizes
and refunds at the chip ceiling, and the commitment and seed checked with ``python -m
bot verify``. A store outage is in test_discord_tournament_outage."""

from __future__ import annotations

import hashlib
import logging
import re
import subprocess
import sys
from pathlib import Path

import pytest

import db
from bot.engine import Card, Round
from bot.tournaments.service import TABLE_DONE
from cogs.responsible import CONFIRMED
from cogs.table.render import ROUND_REFUNDED, STAKE_REFUNDED
from cogs.table.restart_text import jump_link, moved_text
from fakediscord.models import FakeChannel, FakeMember
from fakediscord.records import FakeMessage
from tests.db.invariants import check_invariants
from tests.support.discord_world import World, embed_text
from tests.support.shoes import SPARE, START_CHIPS, ShoeQueue
from tests.support.tournaments import (
    ask,
    entered,
    live,
    settled,
    stack_hands,
    stacks,
    the_board,
    tick,
)

REPO = Path(__file__).resolve().parents[2]
#: Hand 1 at a table of Alice and Bob: Alice 10 8 (18) and Bob 9 9 (18) stand against the
#: dealer's 7 and 10 (17): both win their bet.
BOTH_WIN = "Th 9d 7c 8h 9s Tc " + SPARE
NO_TOURNAMENT = "There is no tournament in this channel."
#: Alice and Bob play two hands, each won as BOTH_WIN's.
TWO_HANDS = {"hands": 2, "eliminations": ""}


async def bet_and_stand(world: World, *members: FakeMember, amount: str = "10") -> None:
    """Each of ``members`` bets ``amount``; once dealt, each stands."""
    for member in members:
        assert "sealed" in await ask(world, member, "tournament bet", amount=amount)
    board = the_board(world)
    for member in members:
        await world.click(member, board, "Stand")
    await settled(world)


# -- the reality check, and a command from outside a server ---------------------------------


@pytest.mark.usefixtures("bot")
async def test_join_at_a_due_reality_check_shows_continue_then_enters_once(
    world: World, shoes: ShoeQueue
) -> None:
    # Alice's session began with a round at a cash table, 21 minutes ago: her check is due.
    await world.say(world.alice, "limits set", session_minutes=20)
    shoes.add("Ts 7c 8d Tc " + SPARE)  # 10 8 against 7 10: she stands and wins 100
    table = await world.start(world.alice)
    await world.bet(world.alice, "100")
    await world.click(world.alice, table, "Stand")
    await world.tick(21 * 60)  # the cash table closes when idle; the session goes on
    assert world.running.tables.table_in(world.channel.id) is None
    await entered(world, fee=100)

    check = await world.slash(world.alice, "tournament join")
    message = check.original
    assert message is not None
    assert message.ephemeral
    assert message.content.startswith("Reality check: you've played for 21 min this session")
    assert "Continue" in [button["label"] for button in message.buttons()]
    assert live(world).entrants == []
    assert await world.balance(world.alice) == START_CHIPS + 100

    await world.click(world.alice, message, "Continue")
    assert message.content == CONFIRMED
    joined = await ask(world, world.alice, "tournament join")
    assert joined.startswith(f"You are in tournament #{live(world).tournament_id}.")
    assert [e.user_id for e in live(world).entrants] == [world.alice.id]
    # The fee was taken once: after the refusal, only the entry that went through paid.
    assert (await world.ledger(world.alice))[1:] == [("bet", -100), ("payout", 200), ("bet", -100)]
    assert "already in" in await ask(world, world.alice, "tournament join")
    assert await world.balance(world.alice) == START_CHIPS


@pytest.mark.usefixtures("bot")
async def test_tournament_commands_from_a_group_dm_or_a_dm_say_where_they_are_played(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    fake = world.fake
    alice, bob = world.alice.user, world.bob.user
    fake.install_app(alice)
    places = (fake.add_group_dm(alice, bob), fake.add_dm(alice))
    with caplog.at_level(logging.WARNING):
        for place in places:
            answer = await fake.slash(alice, "tournament create", place, fee=10)
            await world.settle()
            assert answer.content == "Tournaments are played in a server's channels."
            assert answer.ephemeral
            # Every other tournament command: there is none here, plainly.
            for command, options in (
                ("tournament join", {}),
                ("tournament start", {}),
                ("tournament bet", {"amount": "10"}),
                ("tournament standings", {}),
                ("tournament cancel", {}),
            ):
                other = await fake.slash(alice, command, place, **options)
                await world.settle()
                assert (other.content, other.ephemeral) == (NO_TOURNAMENT, True), command
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert world.running.tournaments.live == {}
    assert await world.store.reports.ledger(world.guild.id, alice.id) == []


@pytest.mark.usefixtures("bot")
async def test_the_table_shows_the_formats_bet_limits_that_a_bet_is_held_to(
    world: World,
) -> None:
    await entered(world, world.alice, world.bob, min_bet=25, max_bet=400)
    await ask(world, world.mod, "tournament start")
    assert "`/bet amount` or Bet · 25–400 ·" in embed_text(the_board(world))
    assert await ask(world, world.alice, "bet", amount="5") == "The table minimum is 25; you bet 5."
    assert "sealed" in await ask(world, world.alice, "bet", amount="25")


# -- the table message --------------------------------------------------------------------


def assert_paid_not_refunded(text: str) -> None:
    """A tournament table closed after its last hand: the hand was paid, not refunded."""
    assert "## Last round" in text
    assert ROUND_REFUNDED not in text
    assert STAKE_REFUNDED not in text


def boards(world: World) -> list[FakeMessage]:
    """The tournament table's messages in the channel, oldest first (a moved one too)."""
    return [
        m
        for m in world.fake.messages_in(world.channel)
        if m.author is world.fake.bot_user and not m.content.startswith("Tournament #")
    ]


@pytest.mark.usefixtures("bot")
async def test_a_table_message_deleted_mid_tournament_is_posted_again_and_plays_to_the_end(
    world: World, shoes: ShoeQueue
) -> None:
    fake = world.fake
    fake.expect_errors(10008)
    stack_hands(world, shoes)
    shoes.add(BOTH_WIN)
    shoes.add(BOTH_WIN)
    await entered(world, world.alice, world.bob, fee=100, **TWO_HANDS)
    await ask(world, world.mod, "tournament start")
    t = live(world)
    first = the_board(world)
    assert "Hand 1 of 2" in embed_text(first)
    assert "sealed" in await ask(world, world.alice, "tournament bet", amount="10")

    fake.delete_message(first)
    # Bob's bet deals the hand; the table shows it on a new message below.
    assert "sealed" in await ask(world, world.bob, "tournament bet", amount="10")
    again = the_board(world)
    assert again.id != first.id
    assert "Stand" in embed_text(again)
    where = world.running.tables.table_in(world.channel.id)
    assert where is not None
    for member in (world.alice, world.bob):
        await world.click(member, again, "Stand")
    await settled(world)
    assert stacks(world, t) == {world.alice.id: 1010, world.bob.id: 1010}
    assert "Hand 2 of 2" in embed_text(again)

    await bet_and_stand(world, world.alice, world.bob)
    assert world.running.tournaments.live == {}
    assert TABLE_DONE in embed_text(again)
    assert_paid_not_refunded(embed_text(again))
    assert boards(world) == [again]  # one message now: the deleted one is gone
    places = await world.store.tournaments.places(t.tournament_id)
    assert sorted(p.chips for p in places) == [1020, 1020]
    assert sum(p.prize for p in places) == 200


@pytest.mark.usefixtures("bot")
async def test_a_tournament_past_an_hour_moves_to_a_fresh_message_before_the_hour(
    world: World, shoes: ShoeQueue
) -> None:
    fake = world.fake
    stack_hands(world, shoes)  # seeded shoes: every hand is played by the timers
    await ask(world, world.admin, "blackjack-admin config", bet_timer=600)
    await entered(world, world.alice, world.bob, hands=8, eliminations="")
    began = fake.clock.now()
    await ask(world, world.mod, "tournament start")
    t = live(world)
    assert t.timers[0] == 600
    while world.running.tournaments.live:
        await tick(world, 300)
    assert fake.clock.now() - began > 8 * 600  # past the hour: 8 hands of 10 minutes or more
    old, new = boards(world)
    # Moved at the first hand's end past 50 minutes; the first message points to the new.
    link = jump_link(world.guild.id, world.channel.id, new.id)
    assert old.content == moved_text(link)
    assert (old.embeds, old.buttons()) == ([], [])
    assert TABLE_DONE in embed_text(new)
    assert "Hand 8 of 8" in embed_text(new)
    assert_paid_not_refunded(embed_text(new))
    assert [r for r in fake.requests if r.error_code == 30046] == []
    assert [m.old_edits for m in (old, new)] == [0, 0]  # never edited past its hour
    places = await world.store.tournaments.places(t.tournament_id)
    assert len(places) == 2


# -- the chip ceiling ---------------------------------------------------------------------


@pytest.mark.usefixtures("bot")
async def test_a_prize_and_a_refund_past_the_chip_ceiling_are_paid_up_to_it(
    world: World, shoes: ShoeQueue, database_url: str
) -> None:
    limit = db.MAX_BALANCE
    stack_hands(world, shoes)
    shoes.add("Th 9d 7c 9h 7s Tc " + SPARE)  # Alice 19 and Bob 16 stand on the dealer's 17
    # Alice is 10 chips below the ceiling; the pool of two fees of 100 all goes to first.
    grant = limit - START_CHIPS - 10
    await world.say(world.admin, "blackjack-admin grant", member=world.alice, amount=grant)
    await entered(world, world.alice, world.bob, fee=100, hands=1, eliminations="", split="100")
    await ask(world, world.mod, "tournament start")
    t = live(world)
    for member in (world.alice, world.bob):
        await ask(world, member, "tournament bet", amount="10")
    board = the_board(world)
    for member in (world.alice, world.bob):
        stood = await world.click(member, board, "Stand")
        assert stood.response_type == 7, stood.content  # the table's own update
    await settled(world)
    assert world.running.tournaments.live == {}
    assert await world.balance(world.alice) == limit
    assert (await world.ledger(world.alice))[-1] == ("payout", 110)
    places = await world.store.tournaments.places(t.tournament_id)
    assert [(p.user_id, p.prize) for p in places] == [(world.alice.id, 200), (world.bob.id, 0)]
    (over,) = posted(world, world.channel, f"Tournament #{t.tournament_id} is over.")
    assert f"Alice: 90 not paid: it would pass the chip limit of {limit:,}" in over
    await check_invariants(database_url)

    # Carol's fee comes back to a balance the ceiling has nearly reached (a grant up to it
    # counts the fee at stake; a win at a cash table does not): 90 of it fits.
    await world.slash(world.mod, "tournament create", world.other_channel, fee=100)
    await settled(world)
    await ask(world, world.carol, "tournament join", world.other_channel)
    grant = limit - START_CHIPS
    await world.say(world.admin, "blackjack-admin grant", member=world.carol, amount=grant)
    assert await world.balance(world.carol) == limit - 100
    shoes.add("Ts 7c 8d Tc " + SPARE)  # 10 8 against 7 10: she stands and wins 10
    table = await world.start(world.carol)
    assert (await world.bet(world.carol, "10")).startswith("Bet 10.")
    await world.click(world.carol, table, "Stand")
    assert await world.balance(world.carol) == limit - 90
    cancelled = await ask(world, world.mod, "tournament cancel", world.other_channel)
    assert cancelled == f"Tournament #{t.tournament_id + 1} is cancelled; every fee is refunded."
    assert world.running.tournaments.live == {}
    assert await world.balance(world.carol) == limit
    assert (await world.ledger(world.carol))[-1] == ("refund", 90)
    (ended,) = posted(world, world.other_channel, "Tournament #")
    assert f"Carol: 10 not paid: it would pass the chip limit of {limit:,}" in ended
    await check_invariants(database_url)


def posted(world: World, channel: FakeChannel, start: str) -> list[str]:
    """The texts the bot posted in ``channel`` that begin with ``start``."""
    return [m.content for m in world.fake.messages_in(channel) if m.content.startswith(start)]


# -- the shuffle, checked from outside ------------------------------------------------------


def verified(seed_hex: str, n: int) -> tuple[str, dict[int, list[str]]]:
    """``python -m bot verify`` run as a player would: the commitment it prints, and each
    continuation's cards (``n`` of them) in the order they are dealt."""
    done = subprocess.run(
        [sys.executable, "-m", "bot", "verify", "--seed", seed_hex, "--continuations", f"{n}"],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
        timeout=60,
    )
    commitment = ""
    shoes: dict[int, list[str]] = {}
    current: list[str] = []
    for line in done.stdout.splitlines():
        if line.startswith("commitment:"):
            commitment = line.split()[1]
        elif line.startswith("continuation "):
            current = shoes.setdefault(int(line.split()[1]), [])
        elif line.startswith("shoe order"):
            current = []
        elif line.startswith("  "):
            current.extend(line.split(":", 1)[1].split())
    return commitment, shoes


def first_cards(round_: Round) -> list[Card]:
    """The cards of the deal that nothing after it changes: each spot's first card, the
    dealer's up card, then (after every spot's second) the hole card."""
    firsts = [round_.hands(seat.player_id)[0].cards[0] for seat in round_.seats]
    return [*firsts, *round_.dealer.cards[:1], round_.dealer.cards[1]]


def dealt_at(shoe: list[str], spots: int) -> list[str]:
    """The same cards of a deal from ``shoe`` (cards in dealing order) to ``spots`` spots."""
    return [*shoe[: spots + 1], shoe[2 * spots + 1]]


@pytest.mark.usefixtures("bot")
async def test_the_commitment_and_the_seed_shown_check_out_with_verify(world: World) -> None:
    # A real seed: hand n is dealt from its continuation n.
    seed = hashlib.sha256(b"a tournament checked from outside").digest()
    world.running.tournaments.new_seed = lambda: seed
    await entered(world, world.alice, world.bob, hands=3, eliminations="")
    shown = re.findall(r"`([0-9a-f]{64})`", embed_text(the_board(world)))
    assert len(shown) == 1  # the commitment, shown before any card
    assert shown[0] in await ask(world, world.carol, "blackjack fairness")
    await ask(world, world.mod, "tournament start")
    t = live(world)
    for member in (world.alice, world.bob):
        await ask(world, member, "tournament bet", amount="10")
    table = world.running.tables.registry.tables[t.table_ids[0]]
    assert table.round is not None
    text = embed_text(the_board(world))
    for card in first_cards(table.round)[:-1]:  # the hole card is not shown yet
        assert str(card) in text  # what the table showed
    assert seed.hex() not in text
    while world.running.tournaments.live:  # hands 2 and 3: the timers bet and play
        await tick(world, max(t.timers[:2]))

    (over,) = posted(world, world.channel, f"Tournament #{t.tournament_id} is over.")
    command = re.search(r"`python -m bot verify --seed ([0-9a-f]{64}) --continuations (\d+)`", over)
    assert command is not None
    assert command.group(1) == seed.hex()
    assert command.group(2) == "3"
    commitment, shoes = verified(command.group(1), int(command.group(2)))
    assert commitment == shown[0]
    assert f"(commitment `{commitment}`)" in over
    # Each hand as the store recorded it, oldest first, was dealt from its continuation.
    rounds = await world.store.reports.round_history(world.guild.id, channel_id=world.channel.id)
    hands = [r for r in reversed(rounds) if r.round_id != t.pool_round_id]
    assert [r.status for r in hands] == ["settled"] * 3
    for number, record in enumerate(hands, start=1):
        assert record.state_json is not None
        round_ = Round.from_json(record.state_json)
        assert [str(c) for c in first_cards(round_)] == dealt_at(shoes[number], 2), number
