"""Every documented message limit is refused with 400 Invalid Form Body (50035), at the wire."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord.http import Route

from fakediscord.demo_bot import DemoBot
from tests.support.fakediscord_world import Table


def button(custom_id: str, label: str = "Go") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def row(*buttons: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(buttons)}


def embed(**fields: Any) -> dict[str, Any]:
    return {"type": "rich", **fields}


def field(name: str = "n", value: str = "v") -> dict[str, Any]:
    return {"name": name, "value": value}


# (payload over the limit, the field Discord names, its message) -- and the same at the limit.
OVER_THE_LIMIT = {
    "content 2001": ({"content": "x" * 2001}, "content", "Must be 2000 or fewer in length."),
    "title 257": ({"embeds": [embed(title="x" * 257)]}, "embeds.0.title", "256 or fewer"),
    "description 4097": (
        {"embeds": [embed(description="x" * 4097)]},
        "embeds.0.description",
        "4096 or fewer",
    ),
    "26 fields": ({"embeds": [embed(fields=[field()] * 26)]}, "embeds.0.fields", "25 or fewer"),
    "field name 257": (
        {"embeds": [embed(fields=[field(name="x" * 257)])]},
        "embeds.0.fields.0.name",
        "256 or fewer",
    ),
    "field value 1025": (
        {"embeds": [embed(fields=[field(value="x" * 1025)])]},
        "embeds.0.fields.0.value",
        "1024 or fewer",
    ),
    "footer 2049": (
        {"embeds": [embed(footer={"text": "x" * 2049})]},
        "embeds.0.footer.text",
        "2048 or fewer",
    ),
    "author 257": (
        {"embeds": [embed(author={"name": "x" * 257})]},
        "embeds.0.author.name",
        "256 or fewer",
    ),
    "6001 in total": (
        {"embeds": [embed(description="x" * 4000), embed(description="x" * 2001)]},
        "embeds",
        "Embed size exceeds maximum size of 6000",
    ),
    "11 embeds": ({"embeds": [embed(title="t")] * 11}, "embeds", "10 or fewer"),
    "6 action rows": (
        {"components": [row(button(f"b{i}")) for i in range(6)]},
        "components",
        "5 or fewer",
    ),
    "6 buttons in a row": (
        {"components": [row(*(button(f"b{i}") for i in range(6)))]},
        "components.0.components",
        "5 or fewer",
    ),
    "custom_id 101": (
        {"components": [row(button("x" * 101))]},
        "components.0.components.0.custom_id",
        "between 1 and 100",
    ),
    "empty custom_id": (
        {"components": [row(button(""))]},
        "components.0.components.0.custom_id",
        "between 1 and 100",
    ),
    "duplicate custom_id": (
        {"components": [row(button("same")), row(button("same"))]},
        "components.1.components.0.custom_id",
        "Component custom id cannot be duplicated",
    ),
    "label 81": (
        {"components": [row(button("b", label="x" * 81))]},
        "components.0.components.0.label",
        "80 or fewer",
    ),
}

AT_THE_LIMIT = {
    "content 2000": {"content": "x" * 2000},
    "title 256 and description 4096": {"embeds": [embed(title="x" * 256, description="x" * 4096)]},
    "25 fields of 256/1024 and footer 2048": {
        "embeds": [
            embed(fields=[field("x" * 40, "x" * 40)] * 25, footer={"text": "x" * 2048}),
        ]
    },
    "6000 in total over 10 embeds": {"embeds": [embed(description="x" * 600)] * 10},
    "5 rows of 5 buttons, custom_id 100, label 80": {
        "components": [
            row(*(button(f"{r}{c}".ljust(100, "x"), "y" * 80) for c in range(5))) for r in range(5)
        ]
    },
}


async def post(bot: DemoBot, channel_id: int, payload: dict[str, Any]) -> Any:
    """POST a raw payload with the bot's own HTTP client (bypassing discord.py's checks)."""
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id)
    return await bot.http.request(route, json=payload)


@pytest.mark.parametrize(("payload", "where", "says"), OVER_THE_LIMIT.values(), ids=OVER_THE_LIMIT)
async def test_payload_over_a_limit_is_refused_with_invalid_form_body(
    table: Table, demo_bot: DemoBot, payload: dict[str, Any], where: str, says: str
) -> None:
    table.fake.expect_errors(50035)
    with pytest.raises(discord.HTTPException) as refused:
        await post(demo_bot, table.channel.id, payload)
    assert refused.value.status == 400
    assert refused.value.code == 50035
    assert f"In {where}: " in refused.value.text
    assert says in refused.value.text
    assert table.fake.messages_in(table.channel) == []


@pytest.mark.parametrize("payload", AT_THE_LIMIT.values(), ids=AT_THE_LIMIT)
async def test_payload_at_a_limit_is_accepted(
    table: Table, demo_bot: DemoBot, payload: dict[str, Any]
) -> None:
    await post(demo_bot, table.channel.id, payload)
    assert len(table.fake.messages_in(table.channel)) == 1


async def test_error_body_has_discords_shape(table: Table, demo_bot: DemoBot) -> None:
    table.fake.expect_errors(50035)
    channel = demo_bot.get_channel(table.channel.id)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.HTTPException):
        await channel.send(embed=discord.Embed(title="x" * 257))
    (refused,) = [r for r in table.fake.requests if r.status == 400]
    assert refused.response == {
        "code": 50035,
        "message": "Invalid Form Body",
        "errors": {
            "embeds": {
                "0": {
                    "title": {
                        "_errors": [
                            {
                                "code": "BASE_TYPE_MAX_LENGTH",
                                "message": "Must be 256 or fewer in length.",
                            }
                        ]
                    }
                }
            }
        },
    }


async def test_limits_apply_to_interaction_responses_too(table: Table, demo_bot: DemoBot) -> None:
    fake = table.fake
    fake.expect_errors(50035)
    start = await fake.slash(table.alice, "blackjack start", table.channel)
    assert start.original is not None
    click = await fake.click(table.bob, start.original, label="Hit", wait=False)
    # The bot's own type-7 answer is fine; a later edit of @original with 26 fields is not.
    await click.wait_for_response()
    route = Route(
        "PATCH",
        "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
        webhook_id=fake.application_id,
        webhook_token=click.token,
    )
    with pytest.raises(discord.HTTPException) as refused:
        await demo_bot.http.request(route, json={"embeds": [embed(fields=[field()] * 26)]})
    assert refused.value.code == 50035
    assert start.original.embeds[0]["title"] == "Blackjack table"


async def test_an_empty_message_is_refused(table: Table, demo_bot: DemoBot) -> None:
    table.fake.expect_errors(50006)
    with pytest.raises(discord.HTTPException) as refused:
        await post(demo_bot, table.channel.id, {"content": "   "})
    assert refused.value.code == 50006


async def test_a_message_older_than_an_hour_takes_a_few_edits_then_30046(
    table: Table, demo_bot: DemoBot
) -> None:
    fake = table.fake
    fake.expect_errors(30046)
    channel = demo_bot.get_channel(table.channel.id)
    assert isinstance(channel, discord.TextChannel)
    message = await channel.send("fresh")
    for n in range(5):
        await message.edit(content=f"within the hour {n}")  # no cap while it is young
    fake.clock.advance(3601)
    for n in range(fake.old_message_edits):
        await message.edit(content=f"old {n}")
    with pytest.raises(discord.HTTPException) as refused:
        await message.edit(content="one too many")
    assert (refused.value.status, refused.value.code) == (429, 30046)
    assert refused.value.text == (
        "Maximum number of edits to messages older than 1 hour reached. Try again later"
    )
    (stored,) = fake.messages_in(table.channel)
    assert stored.content == f"old {fake.old_message_edits - 1}"  # the refused edit changed nothing
