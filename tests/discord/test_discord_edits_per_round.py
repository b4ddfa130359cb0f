"""Channel edits a round costs: the table's display needs one, to show the deal, since the
bets are answered privately and every decision is answered by a type-7 edit of the table."""

from __future__ import annotations

from bot.app import BlackjackBot
from cogs.table.commands import table_cog
from fakediscord.models import FakeMember
from fakediscord.records import FakeMessage
from tests.support.discord_world import World, embed_text, labels_enabled
from tests.support.shoes import SPARE, ShoeQueue

EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"
# Five players on 18 or 20 against the dealer's 7 Q: all stand, the dealer stands on 17.
FIVE_STAND = "Ts Th Td Tc Ks 7c 8d 8h 8s 8c Kh Qd " + SPARE


def edits_sent(world: World) -> int:
    """Channel edits of table messages the fake took."""
    return len([r for r in world.fake.requests_to(EDIT) if not r.injected])


async def seated(world: World) -> tuple[FakeMessage, list[FakeMember]]:
    """Alice's table message, with all five of the world's members at the table."""
    players = [world.alice, world.bob, world.carol, world.admin, world.mod]
    table = await world.start(world.alice)
    for member in players[1:]:
        await world.click(member, table, "Join")
    return table, players


def newest_shown(world: World) -> bool:
    latest = world.table()
    return table_cog(world.running).messages.shown_version(latest.table_id) == latest.version


async def test_a_round_of_bets_at_once_then_clicks_costs_one_edit(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add(FIVE_STAND)
    fake = world.fake
    message, players = await seated(world)
    before = edits_sent(world)
    held = fake.faults.hold(CALLBACK, times=len(players))
    bets = [
        await fake.slash(member, "bet", world.channel, amount="100", wait=False)
        for member in players
    ]
    await fake.wait_for(lambda: held.arrived == len(players))
    held.release()
    for bet in bets:
        await bet.wait_for_response()
    await world.settle()
    assert edits_sent(world) == before + 1  # the five bets and the deal
    assert labels_enabled(message) >= {"Hit", "Stand"}
    for member in players:
        answer = await world.click(member, message, "Stand")
        assert answer.response_type == 7
    assert "Place your bets" in embed_text(message)  # paid, betting open: by the last answer
    assert edits_sent(world) == before + 1
    assert newest_shown(world)
