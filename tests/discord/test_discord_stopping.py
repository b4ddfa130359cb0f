"""Stopping a table: between rounds at once; with cards out, once the round is settled (so
nobody, the host least of all, cancels a round they are losing); every table of a server
stopped by an admin whatever one of them does; and the rules read before a table opens."""

from __future__ import annotations

import db
from bot.app import BlackjackBot
from bot.i18n import _
from tests.support.discord_world import World, embed_text
from tests.support.shoes import SPARE, START_CHIPS, ShoeQueue
from tests.support.speech import receipt, said

# Alice 10 3 against a dealer 9 8: her 13 loses to 17 if she stands.
ALICE_LOSING = "Ts 9h 3c 8d " + SPARE


async def test_a_host_stopping_a_round_they_are_losing_plays_it_out_then_closes(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add(ALICE_LOSING)
    table = await world.start(world.alice)
    await world.bet(world.alice, "100")
    assert "**13**" in embed_text(table)
    answer = await world.say(world.alice, "blackjack stop")
    played_out = _("The round in play is played out; the table closes when it ends.")
    assert answer == said(world.alice, played_out)
    assert await world.balance(world.alice) == START_CHIPS - 100  # nothing refunded
    assert "The table closes when this round ends." in embed_text(table)
    again = await world.say(world.alice, "blackjack stop")
    assert again == said(world.alice, _("This table already closes when this round ends."))
    await world.tick(120)  # her hand stands on the action timer and loses
    assert bot.tables.table_in(world.channel.id) is None
    assert "**Table closed** · Stopped by Alice." in embed_text(table)
    assert await world.balance(world.alice) == START_CHIPS - 100
    assert ("refund", 100) not in await world.ledger(world.alice)
    # The channel is free again.
    await world.start(world.bob)


async def test_the_rules_before_any_table_are_the_servers_default_rules(
    bot: BlackjackBot, world: World
) -> None:
    answer = await world.say(world.alice, "blackjack rules")
    assert answer.startswith("No table is open here; a new one would play:\n")
    assert "**Table rules: vegas-shoe**" in answer
    assert "House edge" in answer or "house edge" in answer


async def test_a_grant_to_the_ceiling_over_chips_at_stake_is_refused_and_the_table_closes(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    limit = db.MAX_BALANCE
    table = await world.start(world.alice)
    await world.click(world.carol, table, "Join")  # Carol has not bet: no deal yet
    to_near = limit - 1_000_000 - START_CHIPS
    await world.say(world.admin, "blackjack-admin grant", member=world.alice, amount=to_near)
    bet = await world.bet(world.alice, "1000")
    assert bet == said(world.alice, receipt(1_000, limit - 1_000_000 - 1_000))
    # 1,000 of hers is at stake: a grant to exactly the ceiling would leave no room to
    # refund it, so it is refused; a grant that leaves that room is not.
    refused = await world.say(
        world.admin, "blackjack-admin grant", member=world.alice, amount=1_001_000
    )
    past = _(
        "That would take {member} past {limit} chips. Nothing changed.",
        member=world.alice.mention,
        limit=limit,
    )
    assert refused == said(world.admin, past)
    await world.say(world.admin, "blackjack-admin grant", member=world.alice, amount=1_000_000)
    assert await world.balance(world.alice) == limit - 1000
    stopped = await world.say(world.alice, "blackjack stop")
    assert stopped == said(world.alice, _("Table closed. Any bets not yet dealt were refunded."))
    assert await world.balance(world.alice) == limit
    assert (await world.ledger(world.alice))[-1] == ("refund", 1000)
    assert bot.tables.table_in(world.channel.id) is None
    await world.start(world.alice)  # the channel is free
