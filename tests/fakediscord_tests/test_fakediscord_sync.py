"""Command sync payloads are checked like Discord checks them."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from fakediscord.demo_bot import DemoBot
from tests.support.fakediscord_world import Table


def command(**overrides: Any) -> dict[str, Any]:
    return {"name": "blackjack", "description": "Play blackjack", "type": 1, **overrides}


def option(name: str = "stake", kind: int = 4, **extra: Any) -> dict[str, Any]:
    return {"name": name, "description": "an option", "type": kind, **extra}


BAD_COMMANDS = {
    "upper-case name": ([command(name="Blackjack")], "In 0.name: Command name is invalid"),
    "name of 33": ([command(name="b" * 33)], "In 0.name: Command name is invalid"),
    "name with a space": ([command(name="black jack")], "In 0.name: Command name is invalid"),
    "empty description": ([command(description="")], "In 0.description: Must be between 1 and 100"),
    "description of 101": (
        [command(description="d" * 101)],
        "In 0.description: Must be between 1 and 100",
    ),
    "26 options": (
        [command(options=[option(f"o{i}") for i in range(26)])],
        "In 0.options: Must be 25 or fewer",
    ),
    "option type 12": ([command(options=[option(kind=12)])], "In 0.options.0.type"),
    "required after optional": (
        [command(options=[option("a"), option("b", required=True)])],
        "In 0.options.1.required",
    ),
    "duplicate option names": (
        [command(options=[option("a"), option("a")])],
        "In 0.options.1.name: Option name already exists",
    ),
    "subcommand beside a plain option": (
        [command(options=[option("start", kind=1), option("stake")])],
        "In 0.options: Sub-command and sub-command group option types are mutually exclusive",
    ),
    "the same command twice": ([command(), command()], "In 1.name"),
    "integration type 2": (
        [command(integration_types=[0, 2])],
        "In 0.integration_types.1: Value must be one of {0, 1}",
    ),
    "integration types not a list": (
        [command(integration_types=1)],
        "In 0.integration_types: Must be an array",
    ),
    "context 3": ([command(contexts=[0, 3])], "In 0.contexts.1: Value must be one of {0, 1, 2}"),
    "context as text": ([command(contexts=["0"])], "In 0.contexts.0: Value must be one of"),
    "the same context twice": (
        [command(contexts=[1, 1])],
        "In 0.contexts.1: The set already contains this value",
    ),
    "a locale Discord does not know": (
        [command(name_localizations={"es": "blackjack"})],
        "In 0.name_localizations.es: Value must be one of",
    ),
    "a localized name with a space": (
        [command(name_localizations={"es-ES": "veintiuna mesa"})],
        "In 0.name_localizations: Command name is invalid",
    ),
    "a localized name in capitals": (
        [command(name_localizations={"pt-BR": "Vinte-e-um"})],
        "In 0.name_localizations: Command name is invalid",
    ),
    "a localized description of 101": (
        [command(description_localizations={"pt-BR": "d" * 101})],
        "In 0.description_localizations.pt-BR: Must be between 1 and 100",
    ),
    "localizations that are not an object": (
        [command(description_localizations=["es-ES"])],
        "In 0.description_localizations: Only dictionaries",
    ),
    "a localized option name of 33": (
        [command(options=[option(name_localizations={"es-ES": "a" * 33})])],
        "In 0.options.0.name_localizations.es-ES: Command name is invalid",
    ),
    "a localized option name another option has": (
        [command(options=[option("a"), option("b", name_localizations={"es-ES": "a"})])],
        "In 0.options.1.name_localizations.es-ES: Option name already exists",
    ),
    "two options localized alike": (
        [
            command(
                options=[
                    option("a", name_localizations={"pt-BR": "c"}),
                    option("b", name_localizations={"pt-BR": "c"}),
                ]
            )
        ],
        "In 0.options.1.name_localizations.pt-BR: Option name already exists",
    ),
    "an empty localized choice": (
        [
            command(
                options=[
                    option(
                        kind=3,
                        choices=[{"name": "x", "value": "x", "name_localizations": {"es-ES": ""}}],
                    )
                ]
            )
        ],
        "In 0.options.0.choices.0.name_localizations.es-ES: Must be between 1 and 100",
    ),
}


@pytest.mark.parametrize(("payload", "says"), BAD_COMMANDS.values(), ids=BAD_COMMANDS)
async def test_bad_command_definitions_are_refused(
    table: Table, demo_bot: DemoBot, payload: list[dict[str, Any]], says: str
) -> None:
    fake = table.fake
    fake.expect_errors(50035)
    before = [c.to_dict() for c in fake.commands[None]]
    assert demo_bot.application_id is not None
    with pytest.raises(discord.HTTPException) as refused:
        await demo_bot.http.bulk_upsert_global_commands(demo_bot.application_id, payload)
    assert refused.value.code == 50035
    assert says in refused.value.text
    assert [c.to_dict() for c in fake.commands[None]] == before


async def test_well_formed_localizations_are_kept(table: Table, demo_bot: DemoBot) -> None:
    fake = table.fake
    assert demo_bot.application_id is not None
    localized = command(
        name_localizations={"es-ES": "veintiuna", "pt-BR": "vinte-e-um"},
        description_localizations={"es-ES": "Juega al blackjack"},
        options=[
            option("stake", name_localizations={"es-ES": "apuesta_mínima"}),
            option("hands", name_localizations={"es-ES": "manos", "pt-BR": "mãos"}),
        ],
    )
    await demo_bot.http.bulk_upsert_global_commands(demo_bot.application_id, [localized])
    (stored,) = fake.commands[None]
    assert stored.data["name_localizations"] == {"es-ES": "veintiuna", "pt-BR": "vinte-e-um"}
    assert stored.data["options"][1]["name_localizations"]["pt-BR"] == "mãos"


async def test_resync_keeps_command_ids_and_drops_removed_commands(
    table: Table, demo_bot: DemoBot
) -> None:
    fake = table.fake
    ids = {c.name: c.id for c in fake.commands[None]}
    demo_bot.tree.remove_command("demo")
    synced = await demo_bot.tree.sync()
    assert [c.name for c in synced] == ["blackjack"]
    assert synced[0].id == ids["blackjack"]
    assert [c.name for c in fake.commands[None]] == ["blackjack"]


async def test_user_install_is_refused_while_the_portal_has_it_off(
    table: Table, demo_bot: DemoBot
) -> None:
    fake = table.fake
    fake.installs = frozenset({0})  # the developer portal offers the server install only
    fake.expect_errors(50035)
    assert demo_bot.application_id is not None
    with pytest.raises(discord.HTTPException) as refused:
        await demo_bot.http.bulk_upsert_global_commands(
            demo_bot.application_id, [command(integration_types=[0, 1])]
        )
    assert "In 0.integration_types.1: Value must be one of {0}" in refused.value.text
    accepted = await demo_bot.http.bulk_upsert_global_commands(
        demo_bot.application_id, [command(integration_types=[0], contexts=[0, 1, 2])]
    )
    assert accepted[0]["integration_types"] == [0]
    assert accepted[0]["contexts"] == [0, 1, 2]
