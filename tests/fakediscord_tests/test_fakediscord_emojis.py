"""Application emojis on the fake: routes and refusals as Discord has them, CDN, messages."""

from __future__ import annotations

import base64
import io
from typing import Any

import aiohttp
import discord
import pytest
from discord.http import Route
from PIL import Image

from fakediscord.demo_bot import DemoBot
from fakediscord.emojis import APPLICATION_EMOJIS_MAX, FakeEmoji
from tests.support.fakediscord_world import Table


def png(size: int = 8) -> bytes:
    """A small real PNG."""
    out = io.BytesIO()
    Image.new("RGBA", (size, size), (200, 16, 32, 255)).save(out, format="PNG")
    return out.getvalue()


def data_uri(data: bytes, mime: str = "image/png") -> str:
    return f"data:{mime};base64,{base64.b64encode(data).decode()}"


async def refused(bot: DemoBot, method: str, path: str, body: Any) -> discord.HTTPException:
    """The error Discord answers a raw request with."""
    route = Route(method, path, application_id=bot.application_id)
    with pytest.raises(discord.HTTPException) as caught:
        await bot.http.request(route, json=body)
    return caught.value


async def test_create_list_rename_and_delete_an_application_emoji(
    table: Table, demo_bot: DemoBot
) -> None:
    created = await demo_bot.create_application_emoji(name="bj_AS", image=png())
    assert (created.name, created.is_application_owned()) == ("bj_AS", True)
    assert [e.name for e in await demo_bot.fetch_application_emojis()] == ["bj_AS"]
    assert (await demo_bot.fetch_application_emoji(created.id)).name == "bj_AS"
    renamed = await created.edit(name="bj_ace")
    assert renamed.name == "bj_ace"
    await created.delete()
    assert await demo_bot.fetch_application_emojis() == []
    created_route = table.fake.requests_to("POST /applications/{application_id}/emojis")[0]
    assert created_route.status == 201
    assert created_route.response["user"]["id"] == str(table.fake.bot_user.id)


@pytest.mark.parametrize(
    ("body", "field", "code"),
    [
        ({"name": "b", "image": data_uri(png())}, "name", "BASE_TYPE_BAD_LENGTH"),
        ({"name": "b" * 33, "image": data_uri(png())}, "name", "BASE_TYPE_BAD_LENGTH"),
        ({"name": "bj-AS", "image": data_uri(png())}, "name", "STRING_TYPE_REGEX"),
        ({"name": "bj AS", "image": data_uri(png())}, "name", "STRING_TYPE_REGEX"),
        ({"image": data_uri(png())}, "name", "BASE_TYPE_REQUIRED"),
        ({"name": "bj_AS"}, "image", "BASE_TYPE_REQUIRED"),
        ({"name": "bj_AS", "image": base64.b64encode(png()).decode()}, "image", "IMAGE_INVALID"),
        ({"name": "bj_AS", "image": data_uri(png(), "image/bmp")}, "image", "IMAGE_INVALID"),
        ({"name": "bj_AS", "image": data_uri(b"not a picture")}, "image", "IMAGE_INVALID"),
        ({"name": "bj_AS", "image": "data:image/png;base64,%%%"}, "image", "IMAGE_INVALID"),
        (
            {"name": "bj_AS", "image": data_uri(png() + bytes(256 * 1024))},
            "image",
            "BINARY_TYPE_MAX_SIZE",
        ),
    ],
)
async def test_a_bad_emoji_is_refused_with_discords_form_error(
    table: Table, demo_bot: DemoBot, body: dict[str, Any], field: str, code: str
) -> None:
    table.fake.expect_errors(50035)
    error = await refused(demo_bot, "POST", "/applications/{application_id}/emojis", body)
    assert (error.status, error.code) == (400, 50035)
    reply = table.fake.requests[-1].response
    assert reply["message"] == "Invalid Form Body"
    assert [e["code"] for e in reply["errors"][field]["_errors"]] == [code]
    assert table.fake.app_emojis == {}


async def test_a_name_already_taken_is_refused_and_nothing_is_duplicated(
    table: Table, demo_bot: DemoBot
) -> None:
    fake = table.fake
    fake.expect_errors(50035)
    first = await demo_bot.create_application_emoji(name="bj_AS", image=png())
    with pytest.raises(discord.HTTPException) as taken:
        await demo_bot.create_application_emoji(name="bj_AS", image=png(9))
    assert (taken.value.status, taken.value.code) == (400, 50035)
    inner = fake.requests[-1].response["errors"]["name"]["_errors"][0]["code"]
    assert inner == "APPLICATION_EMOJI_NAME_ALREADY_TAKEN"
    other = await demo_bot.create_application_emoji(name="bj_KH", image=png())
    with pytest.raises(discord.HTTPException):
        await other.edit(name="bj_AS")
    assert sorted(e.name for e in fake.app_emojis.values()) == ["bj_AS", "bj_KH"]
    assert first.id in fake.app_emojis


async def test_an_application_holds_at_most_2000_emojis(table: Table, demo_bot: DemoBot) -> None:
    fake = table.fake
    fake.expect_errors(30008)
    for number in range(APPLICATION_EMOJIS_MAX):
        emoji_id = fake.snowflake()
        fake.app_emojis[emoji_id] = FakeEmoji(emoji_id, f"e{number}", png(), "image/png")
    with pytest.raises(discord.HTTPException) as full:
        await demo_bot.create_application_emoji(name="bj_AS", image=png())
    assert (full.value.status, full.value.code) == (400, 30008)
    assert len(fake.app_emojis) == APPLICATION_EMOJIS_MAX


async def test_unknown_emoji_and_another_application(table: Table, demo_bot: DemoBot) -> None:
    table.fake.expect_errors(10014, 50001)
    with pytest.raises(discord.NotFound) as unknown:
        await demo_bot.fetch_application_emoji(12345)
    assert unknown.value.code == 10014
    route = Route("GET", "/applications/{application_id}/emojis", application_id=1)
    with pytest.raises(discord.Forbidden):
        await demo_bot.http.request(route)


async def test_the_cdn_serves_an_emoji_as_png_and_as_webp(table: Table, demo_bot: DemoBot) -> None:
    image = png(16)
    emoji = await demo_bot.create_application_emoji(name="bj_AS", image=image)
    url = table.fake.emoji_url(emoji.id)
    assert url == f"{table.fake.base_url}/emojis/{emoji.id}.png"
    async with aiohttp.ClientSession() as http:
        async with http.get(url) as as_png:
            assert (as_png.status, as_png.content_type) == (200, "image/png")
            assert await as_png.read() == image
        async with http.get(table.fake.emoji_url(emoji.id, "webp")) as as_webp:
            assert (as_webp.status, as_webp.content_type) == (200, "image/webp")
            with Image.open(io.BytesIO(await as_webp.read())) as decoded:
                assert (decoded.format, decoded.size) == ("WEBP", (16, 16))
        async with http.get(table.fake.emoji_url(emoji.id + 1)) as missing:
            assert missing.status == 404
    # The CDN is not the API: it is not in the request log.
    assert not [r for r in table.fake.requests if "/emojis/" in r.path and r.method == "GET"]


async def test_a_message_may_show_the_applications_and_shared_guilds_emojis_only(
    table: Table, demo_bot: DemoBot
) -> None:
    fake = table.fake
    own = await demo_bot.create_application_emoji(name="bj_AS", image=png())
    guilds = fake.add_guild_emoji(table.guild, "chip")
    channel = demo_bot.get_partial_messageable(table.channel.id)
    sent = await channel.send(
        embed=discord.Embed(description=f"<:bj_AS:{own.id}> <:chip:{guilds}>")
    )
    assert fake.foreign_emojis == []
    await sent.edit(content="<:bj_KH:999> and <a:spin:998>")
    assert [e.markup for e in fake.foreign_emojis] == ["<:bj_KH:999>", "<a:spin:998>"]
    assert {e.message_id for e in fake.foreign_emojis} == {sent.id}
    with pytest.raises(AssertionError, match="bj_KH"):
        fake.assert_clean()
    fake.foreign_emojis.clear()  # seen: the fixture's own check passes
