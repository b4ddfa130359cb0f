"""Components V2 on the fake: the flag, components only, the limits, and no way back."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import discord
import pytest
from discord.http import Route

from fakediscord import components_v2 as v2
from fakediscord.demo_bot import DemoBot
from tests.support.fakediscord_world import Table

V2 = 1 << 15
SCHEMAS = json.loads(
    (Path(__file__).parents[1] / "data" / "components_v2_schemas.json").read_text()
)["schemas"]


def text(content: str) -> dict[str, Any]:
    return {"type": 10, "content": content}


def button(custom_id: str) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": "Go", "custom_id": custom_id}


def container(*children: dict[str, Any]) -> dict[str, Any]:
    return {"type": 17, "components": list(children)}


def section(*texts: dict[str, Any], accessory: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"type": 9, "components": list(texts), "accessory": accessory or button("acc")}


OVER_THE_LIMIT = {
    "content with the flag": (
        {"content": "hi", "components": [text("t")]},
        "content",
        "cannot be used when using MessageFlags.IS_COMPONENTS_V2",
    ),
    "an embed with the flag": (
        {"embeds": [{"title": "t"}], "components": [text("t")]},
        "embeds",
        "cannot be used",
    ),
    "41 components": (
        {"components": [container(*(text(f"t{i}") for i in range(40)))]},
        "components",
        "40 or fewer components in total",
    ),
    "4001 characters of text": (
        {"components": [text("x" * 2000), container(text("x" * 2001))]},
        "components",
        "4000 or fewer characters in total",
    ),
    "an empty text display": ({"components": [text("")]}, "components.0.content", "between 1"),
    "a section of 4 texts": (
        {"components": [section(*(text("t") for _ in range(4)))]},
        "components.0.components",
        "between 1 and 3",
    ),
    "a section without accessory": (
        {"components": [{"type": 9, "components": [text("t")]}]},
        "components.0.accessory",
        "required",
    ),
    "a container in a container": (
        {"components": [container(container(text("t")))]},
        "components.0.components.0.type",
        "must be one of",
    ),
    "an empty container": ({"components": [container()]}, "components.0.components", "between 1"),
    "a separator of spacing 3": (
        {"components": [{"type": 14, "spacing": 3}]},
        "components.0.spacing",
        "one of",
    ),
    "6 buttons in a row in a container": (
        {"components": [container({"type": 1, "components": [button(f"b{i}") for i in range(6)]})]},
        "components.0.components.0.components",
        "5 or fewer",
    ),
    "a duplicated custom id across a section and a row": (
        {
            "components": [
                section(text("t"), accessory=button("same")),
                {"type": 1, "components": [button("same")]},
            ]
        },
        "components.1.components.0.custom_id",
        "cannot be duplicated",
    ),
}


async def post(bot: DemoBot, channel_id: int, payload: dict[str, Any]) -> Any:
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id)
    return await bot.http.request(route, json=payload)


async def patch(bot: DemoBot, channel_id: int, message_id: int, payload: dict[str, Any]) -> Any:
    route = Route(
        "PATCH",
        "/channels/{channel_id}/messages/{message_id}",
        channel_id=channel_id,
        message_id=message_id,
    )
    return await bot.http.request(route, json=payload)


@pytest.mark.parametrize(("payload", "where", "says"), OVER_THE_LIMIT.values(), ids=OVER_THE_LIMIT)
async def test_a_v2_payload_over_a_limit_is_refused(
    table: Table, demo_bot: DemoBot, payload: dict[str, Any], where: str, says: str
) -> None:
    table.fake.expect_errors(50035)
    with pytest.raises(discord.HTTPException) as refused:
        await post(demo_bot, table.channel.id, {**payload, "flags": V2})
    assert refused.value.code == 50035
    assert f"In {where}: " in refused.value.text
    assert says in refused.value.text
    assert table.fake.messages_in(table.channel) == []


async def test_a_v2_message_at_its_limits_is_accepted(table: Table, demo_bot: DemoBot) -> None:
    # 40 components: a container (1) holding 3 sections (3 x 3) and 28 text displays, then
    # an action row (1) of a button (1); 4,000 characters across the 31 text displays.
    sections = [section(text("y" * 100), accessory=button(f"s{i}")) for i in range(3)]
    texts = [text("x" * 100) for _ in range(27)] + [text("z" * (4000 - 30 * 100))]
    body: dict[str, Any] = {
        "flags": V2,
        "components": [container(*sections, *texts), {"type": 1, "components": [button("r")]}],
    }
    assert len(list(v2.walk(body["components"]))) == 40
    await post(demo_bot, table.channel.id, body)
    (message,) = table.fake.messages_in(table.channel)
    assert message.components_v2
    assert len(message.text_displays().replace("\n", "")) == 4000
    assert [b["custom_id"] for b in message.buttons()] == ["s0", "s1", "s2", "r"]


async def test_v2_components_without_the_flag_are_refused(table: Table, demo_bot: DemoBot) -> None:
    table.fake.expect_errors(50035)
    with pytest.raises(discord.HTTPException) as refused:
        await post(demo_bot, table.channel.id, {"components": [container(text("t"))]})
    assert "In components.0.type: " in refused.value.text


async def test_an_embed_message_takes_the_flag_on_an_edit_and_never_loses_it(
    table: Table, demo_bot: DemoBot
) -> None:
    fake = table.fake
    sent = await post(demo_bot, table.channel.id, {"embeds": [{"title": "t"}]})
    message_id = int(sent["id"])
    fake.expect_errors(50035)
    # Taking the flag while keeping the embed is refused: it must be reset to [].
    with pytest.raises(discord.HTTPException):
        await patch(
            demo_bot, table.channel.id, message_id, {"flags": V2, "components": [text("a")]}
        )
    await patch(
        demo_bot,
        table.channel.id,
        message_id,
        {"flags": V2, "embeds": [], "components": [text("a")]},
    )
    (message,) = fake.messages_in(table.channel)
    assert message.components_v2
    assert message.embeds == []
    # No way back: the flag stays whatever an edit says, and an embed is refused.
    for back in ({"flags": 0, "embeds": [{"title": "t"}]}, {"embeds": [{"title": "t"}]}):
        with pytest.raises(discord.HTTPException) as refused:
            await patch(demo_bot, table.channel.id, message_id, back)
        assert refused.value.code == 50035
    await patch(demo_bot, table.channel.id, message_id, {"flags": V2, "components": [text("b")]})
    assert message.components_v2
    assert message.text_displays() == "b"


async def test_discord_pys_layout_view_passes(table: Table, demo_bot: DemoBot) -> None:
    channel = demo_bot.get_channel(table.channel.id)
    assert isinstance(channel, discord.TextChannel)
    view = discord.ui.LayoutView()
    box: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(accent_colour=0x2ECC71)
    box.add_item(discord.ui.TextDisplay("## Table"))
    box.add_item(discord.ui.Separator())
    box.add_item(
        discord.ui.Section("Alice", accessory=discord.ui.Button(label="Hi", custom_id="x"))
    )
    view.add_item(box)
    sent = await channel.send(view=view)
    assert sent.flags.components_v2
    (message,) = table.fake.messages_in(table.channel)
    assert message.text_displays() == "## Table\nAlice"
    assert [b["label"] for b in message.buttons()] == ["Hi"]


def test_the_fakes_limits_are_the_openapi_schemas() -> None:
    def array(schema: str, name: str) -> tuple[int, int]:
        spec = SCHEMAS[schema]["properties"][name]
        return spec["minItems"], spec["maxItems"]

    assert array("ContainerComponentForMessageRequest", "components") == v2.CONTAINER_CHILDREN
    assert array("SectionComponentForMessageRequest", "components") == v2.SECTION_TEXTS
    assert array("MediaGalleryComponentForMessageRequest", "items") == v2.GALLERY_ITEMS
    content = SCHEMAS["TextDisplayComponentForMessageRequest"]["properties"]["content"]
    assert (content["minLength"], content["maxLength"]) == (1, v2.TEXT_DISPLAY_MAX)
    accent = SCHEMAS["ContainerComponentForMessageRequest"]["properties"]["accent_color"]
    assert accent["maximum"] == v2.ACCENT_MAX
    spacing = SCHEMAS["MessageComponentSeparatorSpacingSize"]["oneOf"]
    assert tuple(choice["const"] for choice in spacing) == v2.SPACINGS
    description = SCHEMAS["MediaGalleryItemRequest"]["properties"]["description"]
    assert description["maxLength"] == v2.DESCRIPTION_MAX
    assert SCHEMAS["UnfurledMediaRequest"]["properties"]["url"]["maxLength"] == v2.MEDIA_URL_MAX
    kinds = {
        ref["$ref"].rsplit("/", 1)[1]
        for ref in SCHEMAS["ContainerComponentForMessageRequest"]["properties"]["components"][
            "items"
        ]["oneOf"]
    }
    assert len(kinds) == len(v2.IN_CONTAINER)
