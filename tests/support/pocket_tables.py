"""A round at a pocket table in a group DM (the user install), played through the fake Discord."""

from __future__ import annotations

from bot.user_install import POCKET_SCOPE
from fakediscord import FakeDiscord
from fakediscord.interactions import FOLLOWUP_CAP
from fakediscord.models import FakeUser
from fakediscord.records import FakeMessage
from tests.support.discord_world import World, embed_text
from tests.support.shoes import SPARE, START_CHIPS, ShoeQueue


async def play_a_group_dm_round(world: World, shoes: ShoeQueue) -> None:
    """Alice (19) and Bob (16) play a round in their group DM, both by user install."""
    shoes.add(TWO_PLAYER_ROUND)
    fake = world.fake
    alice, bob = world.alice.user, world.bob.user
    fake.install_app(alice)
    fake.install_app(bob)
    group = fake.add_group_dm(alice, bob)

    start = await fake.slash(alice, "blackjack start", group)
    assert (start.context, start.owners) == (2, {"1": str(alice.id)})
    assert start.response_type == 4
    assert not start.ephemeral
    table = start.original
    assert table is not None
    await world.settle()
    assert "Place your bets" in embed_text(table)

    await press(world, bob, table, "Join", shows="## Bob")

    for who in (alice, bob):
        bet = await fake.slash(who, "bet", group, amount="100")
        assert bet.content == f"Bet 100. Balance: {START_CHIPS - 100:,}."
        assert bet.ephemeral
        await world.settle()
    # Everyone bet: the cards are out, shown through Bob's click's token.
    text = embed_text(table)
    assert "**Your move**" in text
    assert "▶ 10♠ 9♠ · **19** · 100" in text
    for who in (alice, bob):
        stood = await fake.click(who, table, label="Stand")
        assert stood.response_type == 7, stood.content
        await world.settle()

    text = embed_text(table)
    assert "Place your bets" in text
    assert "Alice: 10♠ 9♠ 19 wins · balance change +100" in text
    assert "Bob: 9♥ 7♥ 16 loses · balance change -100" in text
    balance = await fake.slash(alice, "balance", group)
    assert balance.content == f"You have {START_CHIPS + 100:,} chips."
    balance = await fake.slash(bob, "balance", group)
    assert balance.content == f"You have {START_CHIPS - 100:,} chips."
    # The pocket wallet is apart from the server's: Alice's chips there never moved.
    assert await world.say(world.alice, "balance") == f"You have {START_CHIPS:,} chips."
    assert await world.store.balance(POCKET_SCOPE, alice.id) == START_CHIPS + 100
    answers_within_the_followup_cap(fake)
    no_channel_messages(fake)


#: Alice Ts 9s (19) and Bob 9h 7h (16) stand; the dealer shows 7c and holds Kd (17).
TWO_PLAYER_ROUND = "Ts 9h 7c 9s 7h Kd " + SPARE


def answers_within_the_followup_cap(fake: FakeDiscord) -> None:
    """No interaction got more than Discord's five followups, and none was refused one."""
    assert all(len(i.followups) <= FOLLOWUP_CAP for i in fake.interactions.values())
    assert not [e for i in fake.interactions.values() for e in i.errors if e.code == 40094]


def no_channel_messages(fake: FakeDiscord) -> None:
    """The bot posted and edited nothing through a channel: only interaction tokens."""
    assert fake.requests_to("POST /channels/{channel_id}/messages") == []
    assert fake.requests_to("PATCH /channels/{channel_id}/messages/{message_id}") == []


async def press(
    world: World, who: FakeUser, message: FakeMessage, label: str, *, shows: str
) -> None:
    """``who`` presses ``label``; the click's answer updates the table, which then ``shows``."""
    answer = await world.fake.click(who, message, label=label)
    assert answer.response_type == 7, answer.content
    await world.settle()
    assert shows in embed_text(message)
