"""Tournaments and the rules every table keeps: the play gate's hold on a tournament (a
break, a loss limit, the account-age gate), one table a channel, and one bet parser."""

from __future__ import annotations

import pytest

from bot.play_gate import account_created
from bot.tournaments.state import Status
from tests.support.discord_world import World, embed_text
from tests.support.shoes import ShoeQueue
from tests.support.tournaments import ask, live, service, settled, stack_hands, the_board, tick

pytestmark = pytest.mark.usefixtures("bot")


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
    assert over.startswith("That entry fee would take you past")
    assert await world.balance(world.alice) == 1000
    assert await world.balance(world.bob) == 1000
    assert live(world).entrants == []


async def test_a_break_begun_during_a_tournament_plays_the_seat_and_stakes_nothing_more(
    world: World,
) -> None:
    await world.slash(world.mod, "tournament create", None, fee=100, hands=2)
    await settled(world)
    for member in (world.alice, world.bob):
        await ask(world, member, "tournament join")
    await ask(world, world.mod, "tournament start")
    await ask(world, world.alice, "limits break", period="7d")
    refused = await ask(world, world.alice, "tournament bet", amount="50")
    assert refused.startswith("You're taking a break from play until <t:")
    assert refused.endswith(
        "Your tournament seat plays on by itself until then:"
        " the minimum bet each hand, and basic strategy."
    )
    opened = await world.fake.click(world.alice, the_board(world), label="Bet")
    assert opened.content == refused  # no form: the same answer
    await ask(world, world.bob, "tournament bet", amount="10")
    t = live(world)
    await tick(world, t.timers[0])
    assert "Alice did not bet in time and bets the minimum, 10 chips." in embed_text(
        the_board(world)
    )
    assert await world.balance(world.alice) == 900
    fee_paid = len(await world.ledger(world.alice))
    while service(world).live:  # every decision and bet left to the timers
        await tick(world, max(t.timers[0], t.timers[1]))
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
    assert await world.store.reports.ledger(world.guild.id, newbie.id) == []


async def test_one_table_a_channel_and_one_bet_parser_at_a_tournament(
    world: World, shoes: ShoeQueue
) -> None:
    stack_hands(world, shoes)
    await world.slash(world.mod, "tournament create", None, hands=2, eliminations="1")
    await settled(world)
    # A cash table cannot open where a tournament plays, and /bet there is the tournament's.
    refused = await ask(world, world.alice, "blackjack start")
    assert "already open in this channel" in refused
    assert world.running.tables.table_in(world.channel.id) is not None
    assert "not playing at this table" in await ask(world, world.carol, "bet", amount="50")
    assert await world.balance(world.carol) == 1000
    for member in (world.alice, world.bob):
        await ask(world, member, "tournament join")
    await ask(world, world.mod, "tournament start")
    # Every way to bet reads the amount as /bet does (``ha_lf`` and ``half,`` are half, as
    # at a cash table), and refuses what a tournament does not take: more hands, side
    # bets. A refused bet seals nothing.
    assert "one hand" in await ask(world, world.alice, "bet", amount="10", hands=3)
    refused = await ask(world, world.alice, "bet", amount="10", perfect_pairs=5)
    assert "sealed" not in refused
    assert "Bet sealed" not in embed_text(the_board(world))
    assert "Your bet of 500 chips is sealed." in await ask(
        world, world.alice, "bet", amount="ha_lf"
    )
    assert "Your bet of 500 chips is sealed." in await ask(
        world, world.bob, "tournament bet", amount="half,"
    )
    assert await world.balance(world.alice) == 1000  # tournament chips only


async def test_a_tournament_table_cannot_be_stopped_like_a_cash_table(world: World) -> None:
    await world.slash(world.mod, "tournament create", None)
    await settled(world)
    refused = await ask(world, world.mod, "blackjack stop")
    assert "/tournament cancel" in refused
    assert live(world).status is Status.REGISTERING
