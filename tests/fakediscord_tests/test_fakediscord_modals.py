"""A modal's submission keeps each field's place and shape, as Discord's client sends it."""

from __future__ import annotations

import discord
import pytest

from fakediscord import InteractionRejected
from fakediscord.modals import submission


class EveryField(discord.ui.Modal, title="Every field"):
    name = discord.ui.TextInput(label="Name", default="Ana")
    pick = discord.ui.Label(
        text="Pick",
        component=discord.ui.Select(
            options=[
                discord.SelectOption(label="A", value="a"),
                discord.SelectOption(label="B", value="b", default=True),
            ]
        ),
    )
    sure = discord.ui.Label(text="Sure?", component=discord.ui.Checkbox())
    seat = discord.ui.Label(
        text="Seat",
        component=discord.ui.RadioGroup(
            options=[discord.RadioGroupOption(label="1", value="1")], required=False
        ),
    )
    notes = discord.ui.TextDisplay("Read the rules")


def test_each_field_is_answered_in_its_place_by_label_or_custom_id() -> None:
    modal = EveryField().to_dict()
    ids = [
        modal["components"][0]["components"][0]["custom_id"],
        *(item["component"]["custom_id"] for item in modal["components"][1:4]),
    ]
    data = submission(modal, {"Name": "Bo", ids[2]: True})
    assert data == {
        "custom_id": modal["custom_id"],
        "components": [
            {"type": 1, "components": [{"type": 4, "custom_id": ids[0], "value": "Bo"}]},
            {
                "type": 18,
                "component": {
                    "type": 3,
                    "component_type": 3,
                    "custom_id": ids[1],
                    "values": ["b"],
                },
            },
            {"type": 18, "component": {"type": 23, "custom_id": ids[2], "value": True}},
            {"type": 18, "component": {"type": 21, "custom_id": ids[3], "value": None}},
            {"type": 10},
        ],
    }
    picked = submission(modal, {"Pick": ["a"], "Seat": "1"})
    assert picked["components"][1]["component"]["values"] == ["a"]
    assert picked["components"][3]["component"]["value"] == "1"
    assert picked["components"][0]["components"][0]["value"] == "Ana"  # as shown


def test_what_the_client_would_not_send_is_refused() -> None:
    modal = EveryField().to_dict()
    for values, refusal in [
        ({"Name": ""}, "Name is required"),
        ({"Pick": ["z"]}, "offers no such choice"),
        ({"Pick": {"a": 1}}, "takes a list of values"),
        ({"Seat": "9"}, "offers no such choice"),
    ]:
        with pytest.raises(InteractionRejected, match=refusal):
            submission(modal, values)
