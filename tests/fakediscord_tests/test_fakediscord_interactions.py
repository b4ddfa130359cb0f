"""Interaction rules: one acknowledgement, within 3 s, tokens for 15 min, allowed callback types."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest
from discord.http import Route

from fakediscord import InteractionRejected
from fakediscord.demo_bot import DemoBot
from tests.support.fakediscord_world import Table


def callback_route(interaction_id: int, token: str) -> Route:
    return Route(
        "POST",
        "/interactions/{webhook_id}/{webhook_token}/callback",
        webhook_id=interaction_id,
        webhook_token=token,
    )


async def test_second_acknowledgement_is_refused_with_40060(
    table: Table, demo_bot: DemoBot
) -> None:
    fake = table.fake
    fake.expect_errors(40060)
    start = await fake.slash(table.alice, "blackjack start", table.channel)
    again = {"type": 4, "data": {"content": "a second answer"}}
    with pytest.raises(discord.HTTPException) as refused:
        await demo_bot.http.request(callback_route(start.id, start.token), json=again)
    assert (refused.value.status, refused.value.code) == (400, 40060)
    assert refused.value.text == "Interaction has already been acknowledged."
    assert start.errors[-1].code == 40060
    assert len(fake.messages_in(table.channel)) == 1


async def test_first_response_after_three_seconds_gets_unknown_interaction(
    table: Table, demo_bot: DemoBot
) -> None:
    fake = table.fake
    fake.expect_errors(10062)
    pending = asyncio.create_task(fake.slash(table.alice, "demo slow", table.channel, seconds=4))
    await fake.clock.wait_for_sleepers(1)
    fake.clock.advance(4)
    late = await pending
    assert late.error is not None
    assert (late.error.status, late.error.code) == (404, 10062)
    assert not late.responded
    assert fake.messages_in(table.channel) == []


async def test_first_response_within_three_seconds_is_accepted(
    table: Table, demo_bot: DemoBot
) -> None:
    fake = table.fake
    pending = asyncio.create_task(fake.slash(table.alice, "demo slow", table.channel, seconds=3))
    await fake.clock.wait_for_sleepers(1)
    fake.clock.advance(3)
    answer = await pending
    assert answer.responded
    assert answer.content == "Sorry for the wait."


async def test_followup_after_fifteen_minutes_is_refused(table: Table, demo_bot: DemoBot) -> None:
    fake = table.fake
    fake.expect_errors(50027)
    later = await fake.slash(table.alice, "demo later", table.channel, seconds=15 * 60 + 1)
    await fake.clock.wait_for_sleepers(1)
    fake.clock.advance(15 * 60 + 1)
    await later.wait_until(lambda: bool(later.errors))
    assert later.followups == []
    assert later.error is not None
    assert (later.error.status, later.error.code) == (401, 50027)


async def test_followup_just_inside_fifteen_minutes_is_sent(
    table: Table, demo_bot: DemoBot
) -> None:
    fake = table.fake
    later = await fake.slash(table.alice, "demo later", table.channel, seconds=15 * 60 - 1)
    await fake.clock.wait_for_sleepers(1)
    fake.clock.advance(15 * 60 - 1)
    (followup,) = await later.wait_for_followups(1)
    assert followup.content == "Here I am."


@pytest.mark.parametrize(("kind", "name"), [(7, "UPDATE_MESSAGE"), (6, "DEFERRED_UPDATE_MESSAGE")])
async def test_component_only_callback_types_are_refused_for_a_slash_command(
    table: Table, demo_bot: DemoBot, kind: int, name: str
) -> None:
    fake = table.fake
    fake.expect_errors(50035)
    # The bot sleeps before answering; meanwhile its HTTP client answers with the wrong type.
    slow = await fake.slash(table.alice, "demo slow", table.channel, seconds=2, wait=False)
    await fake.clock.wait_for_sleepers(1)
    body: dict[str, Any] = {"type": kind, "data": {"content": "edited"}}
    with pytest.raises(discord.HTTPException) as refused:
        await demo_bot.http.request(callback_route(slow.id, slow.token), json=body)
    assert refused.value.code == 50035
    assert "In type: " in refused.value.text
    assert not slow.responded
    # A refused first response does not use up the acknowledgement: the real one still lands.
    fake.clock.advance(2)
    await slow.wait_until(lambda: slow.responded)
    assert slow.response_type == 4


async def test_unknown_interaction_id_is_refused(table: Table, demo_bot: DemoBot) -> None:
    table.fake.expect_errors(10062)
    with pytest.raises(discord.NotFound) as refused:
        await demo_bot.http.request(callback_route(1234, "nope"), json={"type": 5})
    assert refused.value.code == 10062


async def test_click_on_a_disabled_button_is_not_sent(table: Table, demo_bot: DemoBot) -> None:
    fake = table.fake
    start = await fake.slash(table.alice, "blackjack start", table.channel)
    assert start.original is not None
    with pytest.raises(InteractionRejected, match="disabled"):
        await fake.click(table.alice, start.original, label="Split")
    assert len(fake.interactions) == 1


async def test_click_on_a_button_that_is_not_on_the_message_is_not_sent(
    table: Table, demo_bot: DemoBot
) -> None:
    fake = table.fake
    start = await fake.slash(table.alice, "blackjack start", table.channel)
    assert start.original is not None
    with pytest.raises(InteractionRejected, match="no button"):
        await fake.click(table.alice, start.original, custom_id="demo:double")
    stand = await fake.click(table.alice, start.original, label="Stand")
    await stand.wait_for_followups(1)
    # Stand removed the buttons: Hit is gone from the message now.
    with pytest.raises(InteractionRejected, match="no button"):
        await fake.click(table.bob, start.original, label="Hit")


async def test_slash_command_that_was_never_synced_is_not_sent(
    table: Table, demo_bot: DemoBot
) -> None:
    with pytest.raises(InteractionRejected, match="never synced"):
        await table.fake.slash(table.alice, "poker start", table.channel)


@pytest.mark.parametrize(
    ("command", "options", "reason"),
    [
        ("blackjack start", {"colour": "red"}, "declares no option 'colour'"),
        ("blackjack start", {"stake": 0}, "at least 1"),
        ("blackjack start", {"stake": 1001}, "at most 1000"),
        ("blackjack start", {"stake": "ten"}, "takes a number"),
        ("blackjack deal", {}, "no subcommand 'deal'"),
        ("blackjack", {}, "needs a subcommand"),
        ("blackjack-admin grant", {"amount": 5}, "requires option 'member'"),
    ],
)
async def test_options_the_command_does_not_declare_are_not_sent(
    table: Table, demo_bot: DemoBot, command: str, options: dict[str, Any], reason: str
) -> None:
    with pytest.raises(InteractionRejected, match=reason):
        await table.fake.slash(table.alice, command, table.channel, **options)
    assert table.fake.interactions == {}


async def test_guild_command_is_not_available_in_another_guild(
    table: Table, demo_bot: DemoBot
) -> None:
    fake = table.fake
    other = fake.add_guild("Other casino")
    channel = fake.add_text_channel(other)
    carol = fake.add_member(other, "carol")
    with pytest.raises(InteractionRejected, match="never synced"):
        await fake.slash(carol, "blackjack-admin grant", channel, member=carol, amount=1)


async def test_interaction_payload_is_shaped_like_discords(table: Table, demo_bot: DemoBot) -> None:
    fake = table.fake
    grant = await fake.slash(
        table.admin, "blackjack-admin grant", table.channel, member=table.bob, amount=7
    )
    data = grant.data
    assert data["name"] == "blackjack-admin"
    assert data["guild_id"] == str(table.guild.id)
    (group_option,) = data["options"]
    assert group_option["type"] == 1
    assert group_option["name"] == "grant"
    assert group_option["options"] == [
        {"type": 6, "name": "member", "value": str(table.bob.id)},
        {"type": 4, "name": "amount", "value": 7},
    ]
    assert data["resolved"]["users"][str(table.bob.id)]["username"] == "bob"
    assert "user" not in data["resolved"]["members"][str(table.bob.id)]
