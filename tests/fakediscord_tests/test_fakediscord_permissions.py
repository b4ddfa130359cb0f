"""Permissions, deleted messages and channels, auth, unknown routes and the JSON content type."""

from __future__ import annotations

import asyncio

import aiohttp
import discord
import pytest
from discord.http import Route

from fakediscord import FakeDiscord
from fakediscord.demo_bot import DemoBot
from fakediscord.harness import endpoints_applied
from tests.support.fakediscord_world import Table


def text_channel(bot: DemoBot, channel_id: int) -> discord.TextChannel:
    channel = bot.get_channel(channel_id)
    assert isinstance(channel, discord.TextChannel)
    return channel


async def test_bot_without_send_messages_gets_missing_permissions(
    table: Table, demo_bot: DemoBot
) -> None:
    fake = table.fake
    fake.expect_errors(50013)
    fake.deny_bot(table.channel, "send_messages")
    await fake.sync()
    channel = text_channel(demo_bot, table.channel.id)
    assert not channel.permissions_for(channel.guild.me).send_messages
    with pytest.raises(discord.Forbidden) as refused:
        await channel.send("hello")
    assert (refused.value.status, refused.value.code) == (403, 50013)


async def test_bot_without_embed_links_may_send_text_but_not_embeds(
    table: Table, demo_bot: DemoBot
) -> None:
    fake = table.fake
    fake.expect_errors(50013)
    fake.deny_bot(table.channel, "embed_links")
    channel = text_channel(demo_bot, table.channel.id)
    await channel.send("plain text is fine")
    with pytest.raises(discord.Forbidden) as refused:
        await channel.send(embed=discord.Embed(title="table"))
    assert refused.value.code == 50013
    assert [m.content for m in fake.messages_in(table.channel)] == ["plain text is fine"]


async def test_bot_that_cannot_see_a_channel_gets_missing_access(
    table: Table, demo_bot: DemoBot
) -> None:
    table.fake.expect_errors(50001)
    table.fake.deny_bot(table.channel, "view_channel")
    with pytest.raises(discord.Forbidden) as refused:
        await demo_bot.http.send_message(table.channel.id, params=_text("hi"))
    assert refused.value.code == 50001


async def test_thread_needs_send_messages_in_threads(table: Table, demo_bot: DemoBot) -> None:
    fake = table.fake
    fake.expect_errors(50013)
    fake.deny_bot(table.thread, "send_messages_in_threads")
    with pytest.raises(discord.Forbidden):
        await demo_bot.http.send_message(table.thread.id, params=_text("hi"))
    await demo_bot.http.send_message(table.channel.id, params=_text("the parent is fine"))


async def test_interaction_responses_do_not_need_channel_permissions(
    table: Table, demo_bot: DemoBot
) -> None:
    table.fake.deny_bot(table.channel, "send_messages", "embed_links")
    start = await table.fake.slash(table.alice, "blackjack start", table.channel)
    assert start.response_type == 4
    assert start.embed is not None


async def test_editing_a_message_deleted_by_a_moderator_gets_unknown_message(
    table: Table, demo_bot: DemoBot
) -> None:
    fake = table.fake
    fake.expect_errors(10008)
    channel = text_channel(demo_bot, table.channel.id)
    sent = await channel.send("table")
    fake.delete_message(fake.messages[sent.id])
    with pytest.raises(discord.NotFound) as refused:
        await sent.edit(content="table, updated")
    assert (refused.value.status, refused.value.code) == (404, 10008)


async def test_clicking_after_the_table_message_was_deleted_gets_unknown_message(
    table: Table, demo_bot: DemoBot
) -> None:
    fake = table.fake
    fake.expect_errors(10008)
    start = await fake.slash(table.alice, "blackjack start", table.channel)
    assert start.original is not None
    hit = await fake.click(table.alice, start.original, label="Hit", wait=False)
    fake.delete_message(start.original)
    await hit.wait_for_response()
    assert hit.error is not None
    assert hit.error.code == 10008


async def test_posting_in_a_deleted_channel_gets_unknown_channel(
    table: Table, demo_bot: DemoBot
) -> None:
    table.fake.expect_errors(10003)
    table.fake.delete_channel(table.channel)
    with pytest.raises(discord.NotFound) as refused:
        await demo_bot.http.send_message(table.channel.id, params=_text("anyone?"))
    assert refused.value.code == 10003


async def test_unknown_route_is_404_and_fails_the_test() -> None:
    async with FakeDiscord() as fake:
        with endpoints_applied(fake):
            http = discord.http.HTTPClient(loop=asyncio.get_running_loop())
            await http.static_login(fake.token)
            with pytest.raises(discord.NotFound) as refused:
                await http.request(Route("GET", "/channels/{channel_id}/pins", channel_id=1))
            await http.close()
        assert refused.value.status == 404
        (unknown,) = fake.unknown_routes()
        assert unknown.path.endswith("/channels/1/pins")
        with pytest.raises(AssertionError, match="unexpected Discord errors"):
            fake.assert_clean()


async def test_rest_without_the_bot_token_is_unauthorized(fake_discord: FakeDiscord) -> None:
    fake_discord.expect_errors(statuses=(401,))
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{fake_discord.api_base}/users/@me") as anonymous:
            assert anonymous.status == 401
            assert await anonymous.json() == {"code": 0, "message": "401: Unauthorized"}
        headers = {"Authorization": f"Bot {fake_discord.token}"}
        async with session.get(f"{fake_discord.api_base}/users/@me", headers=headers) as me:
            assert me.status == 200
            assert me.headers["Content-Type"] == "application/json"
            assert me.headers["Via"] == "1.1 google"
            assert (await me.json())["bot"] is True


def _text(content: str) -> discord.http.MultipartParameters:
    return discord.http.handle_message_parameters(content=content)
