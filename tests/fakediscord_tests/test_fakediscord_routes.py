"""The demo bot, in this event loop, goes through every route the fake serves."""

from __future__ import annotations

import discord
import pytest
from discord.http import Route

from fakediscord import FakeDiscord
from fakediscord.demo_bot import DemoBot
from tests.support.fakediscord_scenario import play_table_scenario
from tests.support.fakediscord_world import Table

ROUTES_OF_THE_SCENARIO = {
    "GET /users/@me",
    "GET /oauth2/applications/@me",
    "PUT /applications/{application_id}/commands",
    "PUT /applications/{application_id}/guilds/{guild_id}/commands",
    "POST /interactions/{interaction_id}/{interaction_token}/callback",
    "PATCH /webhooks/{application_id}/{interaction_token}/messages/@original",
    "GET /webhooks/{application_id}/{interaction_token}/messages/@original",
    "DELETE /webhooks/{application_id}/{interaction_token}/messages/@original",
    "POST /webhooks/{application_id}/{interaction_token}",
    "PATCH /webhooks/{application_id}/{interaction_token}/messages/{message_id}",
    "POST /channels/{channel_id}/messages",
    "GET /channels/{channel_id}/messages/{message_id}",
    "PATCH /channels/{channel_id}/messages/{message_id}",
    "DELETE /channels/{channel_id}/messages/{message_id}",
}


async def test_bot_sees_guild_channels_and_threads_after_login(
    table: Table, demo_bot: DemoBot
) -> None:
    guild = demo_bot.get_guild(table.guild.id)
    assert guild is not None
    assert guild.name == "Casino"
    assert demo_bot.user is not None
    assert demo_bot.user.id == table.fake.bot_user.id
    assert demo_bot.application_id == table.fake.application_id
    channel = guild.get_channel(table.channel.id)
    assert isinstance(channel, discord.TextChannel)
    assert guild.get_thread(table.thread.id) is not None
    me = guild.me
    assert channel.permissions_for(me).send_messages
    assert channel.permissions_for(me).embed_links


async def test_gateway_speaks_zstd_stream_to_discord_py(table: Table, demo_bot: DemoBot) -> None:
    # discord.py asks for zstd-stream when zstandard is installed (discord.py[speed]).
    assert table.fake.gateway.transports == ["zstd-stream"]
    assert table.fake.gateway.identifies == 1


async def test_commands_are_synced_globally_and_per_guild(table: Table, demo_bot: DemoBot) -> None:
    fake = table.fake
    assert sorted(c.name for c in fake.commands[None]) == ["blackjack", "demo"]
    assert [c.name for c in fake.commands[table.guild.id]] == ["blackjack-admin"]
    fetched = await demo_bot.tree.fetch_commands(guild=discord.Object(table.guild.id))
    assert [c.name for c in fetched] == ["blackjack-admin"]
    assert (
        len(fake.requests_to("GET /applications/{application_id}/guilds/{guild_id}/commands")) == 1
    )


async def test_the_table_scenario_uses_every_route(table: Table, demo_bot: DemoBot) -> None:
    await play_table_scenario(table.fake, table.channel, table.alice, table.bob)
    used = {r.route for r in table.fake.requests}
    assert used >= ROUTES_OF_THE_SCENARIO
    assert table.fake.unexpected_errors() == []


async def test_interaction_callback_is_answered_with_a_body_when_asked(
    table: Table, demo_bot: DemoBot
) -> None:
    result = await table.fake.slash(table.alice, "blackjack start", table.channel)
    (callback,) = table.fake.requests_to(
        "POST /interactions/{interaction_id}/{interaction_token}/callback"
    )
    assert callback.query == {"with_response": "1"}
    assert callback.status == 200
    assert result.original is not None
    assert callback.response["interaction"]["response_message_id"] == str(result.original.id)
    assert callback.response["resource"]["message"]["embeds"][0]["title"] == "Blackjack table"


async def test_a_table_in_a_thread_is_posted_in_the_thread(table: Table, demo_bot: DemoBot) -> None:
    result = await table.fake.slash(table.bob, "blackjack start", table.thread)
    assert result.original is not None
    assert result.original.channel is table.thread
    assert table.fake.messages_in(table.channel) == []


async def test_ephemeral_replies_are_seen_only_by_the_invoker(
    table: Table, demo_bot: DemoBot
) -> None:
    fake = table.fake
    result = await fake.slash(
        table.alice, "blackjack-admin grant", table.channel, member=table.bob, amount=5
    )
    await result.wait_until_loaded()
    assert result.original is not None
    assert fake.messages_in(table.channel, viewer=table.alice) == [result.original]
    assert fake.messages_in(table.channel, viewer=table.bob) == []


async def test_bot_resumes_after_a_dropped_connection_and_gets_the_missed_events(
    table: Table, demo_bot: DemoBot
) -> None:
    fake = table.fake
    await fake.gateway.drop_connections(code=4000)
    # Sent while the bot is away: kept in the session and replayed on RESUME.
    pending = await fake.slash(table.alice, "blackjack start", table.channel, wait=False)
    await pending.wait_for_response(max_wait=15.0)
    assert pending.response_type == 4
    assert fake.gateway.resumes == 1
    assert fake.gateway.identifies == 1


async def test_bot_resumes_when_told_to_reconnect(table: Table, demo_bot: DemoBot) -> None:
    fake = table.fake
    await fake.gateway.send_reconnect()
    await fake.wait_for(lambda: fake.gateway.resumes == 1, max_wait=15.0)
    await fake.sync()
    result = await fake.slash(table.bob, "blackjack start", table.channel)
    assert result.response_type == 4


async def test_channel_created_while_connected_reaches_the_bot(
    table: Table, demo_bot: DemoBot
) -> None:
    channel = table.fake.add_text_channel(table.guild, "side-table")
    await table.fake.sync()
    assert demo_bot.get_channel(channel.id) is not None


async def test_running_bot_disconnects_on_exit(fake_discord: FakeDiscord) -> None:
    from fakediscord.demo_bot import build_bot
    from fakediscord.harness import running_bot

    fake_discord.add_guild()
    async with running_bot(fake_discord, build_bot(fake_discord.clock)) as bot:
        assert not bot.is_closed()
    (session,) = fake_discord.gateway.sessions.values()
    await fake_discord.wait_for(lambda: not session.connected)
    assert bot.is_closed()


async def test_gateway_routes_point_at_the_fake(table: Table, demo_bot: DemoBot) -> None:
    shards, url, limits = await demo_bot.http.get_bot_gateway()
    assert (shards, url) == (1, table.fake.gateway_url)
    assert limits["max_concurrency"] == 1
    gateway = await demo_bot.http.request(Route("GET", "/gateway"))
    assert gateway == {"url": table.fake.gateway_url}


async def test_channel_history_is_newest_first(table: Table, demo_bot: DemoBot) -> None:
    channel = demo_bot.get_channel(table.channel.id)
    assert isinstance(channel, discord.TextChannel)
    for text in ("one", "two", "three"):
        await channel.send(text)
    assert [m.content async for m in channel.history(limit=2)] == ["three", "two"]


async def test_slash_without_a_connected_bot_fails_at_once(table: Table) -> None:
    with pytest.raises(AssertionError, match="no bot has connected"):
        await table.fake.slash(table.alice, "blackjack start", table.channel)
