"""The user install: commands in DMs, group DMs and servers without the bot, the installs
that authorise each interaction, Discord's followup cap and forced ephemeral answers."""

from __future__ import annotations

import discord
import pytest
from discord.http import Route

from fakediscord import FakeDiscord
from fakediscord.demo_bot import DemoBot
from fakediscord.interactions import FOLLOWUP_CAP, FakeInteraction, InteractionRejected
from tests.support.fakediscord_world import Table


def followup_route(fake: FakeDiscord, token: str) -> Route:
    return Route(
        "POST",
        "/webhooks/{webhook_id}/{webhook_token}",
        webhook_id=fake.application_id,
        webhook_token=token,
    )


async def send_followups(demo_bot: DemoBot, answered: FakeInteraction, count: int) -> None:
    for n in range(count):
        route = followup_route(answered.fake, answered.token)
        await demo_bot.http.request(route, json={"content": f"note {n}"})


async def test_a_group_dm_command_is_authorised_by_the_users_own_install(
    table: Table, demo_bot: DemoBot
) -> None:
    fake = table.fake
    alice, bob = table.alice.user, table.bob.user
    group = fake.add_group_dm(alice, bob)
    with pytest.raises(InteractionRejected, match="by no install"):
        await fake.slash(alice, "blackjack start", group)  # not installed yet
    fake.install_app(alice)
    start = await fake.slash(alice, "blackjack start", group)
    assert (start.context, start.owners) == (2, {"1": str(alice.id)})
    assert start.original is not None
    assert not start.ephemeral
    assert "guild_id" not in start.original.to_dict()
    # Bob has not installed the app, but may press its buttons: Alice's install authorises.
    hit = await fake.click(bob, start.original, label="Hit")
    assert (hit.context, hit.owners, hit.user) == (2, {"1": str(alice.id)}, bob)
    assert start.original.content == "Hits: 1"
    with pytest.raises(InteractionRejected, match="by no install"):
        await fake.slash(bob, "blackjack start", group)
    # The bot is no member of a group DM: the channel is unknown to it.
    fake.expect_errors(10003)
    with pytest.raises(discord.NotFound):
        await demo_bot.http.get_channel(group.id)


async def test_the_bots_dm_is_its_own_context(table: Table, demo_bot: DemoBot) -> None:
    fake = table.fake
    dm = fake.add_dm(table.alice.user)
    by_server_install = await fake.slash(table.alice.user, "blackjack start", dm)
    assert (by_server_install.context, by_server_install.owners) == (1, {"0": "0"})
    fake.install_app(table.alice.user)
    both = await fake.slash(table.alice.user, "blackjack start", dm)
    assert both.owners == {"0": "0", "1": str(table.alice.id)}


async def test_five_followups_then_discord_refuses_a_user_installs_sixth(
    table: Table, demo_bot: DemoBot
) -> None:
    fake = table.fake
    fake.install_app(table.alice.user)
    group = fake.add_group_dm(table.alice.user, table.bob.user)
    answered = await fake.slash(table.alice.user, "blackjack start", group)
    await send_followups(demo_bot, answered, FOLLOWUP_CAP)
    fake.expect_errors(40094)
    with pytest.raises(discord.HTTPException) as refused:
        await send_followups(demo_bot, answered, 1)
    assert (refused.value.status, refused.value.code) == (400, 40094)
    assert len(answered.followups) == FOLLOWUP_CAP
    # The server's own install has no such cap.
    in_server = await fake.slash(table.alice, "blackjack start", table.channel)
    assert in_server.owners == {"0": str(table.guild.id), "1": str(table.alice.id)}
    await send_followups(demo_bot, in_server, FOLLOWUP_CAP + 1)
    assert len(in_server.followups) == FOLLOWUP_CAP + 1


async def test_a_dm_token_expires_after_fifteen_minutes(table: Table, demo_bot: DemoBot) -> None:
    fake = table.fake
    fake.install_app(table.alice.user)
    group = fake.add_group_dm(table.alice.user, table.bob.user)
    answered = await fake.slash(table.alice.user, "blackjack start", group)
    fake.clock.advance(15 * 60 + 1)
    fake.expect_errors(50027)
    with pytest.raises(discord.HTTPException) as refused:
        await send_followups(demo_bot, answered, 1)
    assert (refused.value.status, refused.value.code) == (401, 50027)


@pytest.mark.parametrize("external_apps", [True, False])
async def test_a_server_without_the_bot_answers_in_private_when_external_apps_are_off(
    table: Table, demo_bot: DemoBot, external_apps: bool
) -> None:
    fake = table.fake
    everyone = ["view_channel", "send_messages", "use_application_commands"]
    if external_apps:
        everyone.append("use_external_apps")
    other = fake.add_guild("Book club", everyone=everyone, with_bot=False)
    channel = fake.add_text_channel(other, "general")
    carol = fake.add_member(other, "carol")
    with pytest.raises(InteractionRejected, match="by no install"):
        await fake.slash(carol, "blackjack start", channel)
    fake.install_app(carol.user)
    start = await fake.slash(carol, "blackjack start", channel)
    assert (start.context, start.owners) == (0, {"1": str(carol.id)})
    assert start.ephemeral is not external_apps
    assert start.original is not None
    assert start.original.is_visible_to(table.bob) is external_apps
    fake.expect_errors(50001)
    with pytest.raises(discord.Forbidden):
        await demo_bot.http.get_channel(channel.id)
