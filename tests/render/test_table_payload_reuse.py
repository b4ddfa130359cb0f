"""A table's message is made once per table state, and each new one reuses the discord.py
items of the last that show the same, without ever showing another state than its own."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import discord

from bot.engine.actions import Action
from bot.tables.snapshot import TablePhase, TableSnapshot
from cogs.table.layouts import COMPONENTS, EMBED, TablePayload, components_payload
from cogs.table.render import render_table
from cogs.table.renderer import TableRenderer
from tests.support.render_snapshots import NOW, hand, seat, table

EVERY_PLAY = frozenset({Action.HIT, Action.STAND, Action.DOUBLE})


def playing(alice_cards: str = "10♠ 7♥", legal: frozenset[Action] = EVERY_PLAY) -> TableSnapshot:
    """Alice and Bob at play; Alice holds ``alice_cards``."""
    return table(
        TablePhase.PLAYING,
        seat(1, "alice", hand(alice_cards, 17), legal=legal, deadline=NOW + 30),
        seat(2, "bob", hand("9♣ 9♦", 18), legal=legal, deadline=NOW + 30),
        deadline=NOW + 30,
    )


def sent(payload: TablePayload) -> dict[str, Any]:
    """What discord.py sends of the payload: its components and its embed."""
    embed = None if payload.embed is None else payload.embed.to_dict()
    return {"components": payload.view.to_components(), "embed": embed}


def buttons_of(payload: TablePayload) -> dict[str, discord.ui.Button[Any]]:
    """The payload's buttons by custom id, as discord.py items."""
    found: dict[str, discord.ui.Button[Any]] = {}
    for item in payload.view.walk_children():
        if isinstance(item, discord.ui.Button) and item.custom_id is not None:
            found[item.custom_id] = item
    return found


async def test_the_same_table_state_is_answered_with_the_same_payload() -> None:
    renderer = TableRenderer()
    snapshot = playing()
    for layout in (EMBED, COMPONENTS):
        first = await renderer.payload(snapshot, layout)
        assert await renderer.payload(snapshot, layout) is first
        # The same state made again (as a closed table's snapshot is): still the one payload.
        assert await renderer.payload(replace(snapshot), layout) is first


async def test_a_new_state_language_or_layout_gets_a_payload_of_its_own() -> None:
    renderer = TableRenderer()
    spanish = False

    async def language_for(guild_id: int) -> str:
        return "es-ES" if spanish else "en-US"

    renderer.use_language(language_for)
    before = await renderer.payload(playing(), EMBED)
    after = await renderer.payload(playing("10♠ 7♥ 2♣"), EMBED)
    assert after is not before
    assert after.embed is not None
    assert "2♣" in str(after.embed.to_dict())
    v2 = await renderer.payload(playing("10♠ 7♥ 2♣"), COMPONENTS)
    assert v2 is not after
    assert v2.layout == COMPONENTS
    spanish = True
    in_spanish = await renderer.payload(playing("10♠ 7♥ 2♣"), COMPONENTS)
    assert in_spanish is not v2
    assert "Pedir" in [button.label for button in buttons_of(in_spanish).values()]


async def test_every_payload_sends_its_own_state_as_a_fresh_render_would() -> None:
    # Each state in turn, in each layout: the reused items never change what an earlier
    # payload sends, and a later one sends exactly what a table rendered afresh would.
    states = [
        playing(),
        playing("10♠ 7♥ 2♣"),
        playing("10♠ 7♥ 2♣", frozenset({Action.HIT, Action.STAND})),
        replace(playing(), round_no=4, phase=TablePhase.BETTING, dealer=None, deadline=NOW),
    ]
    for layout in (EMBED, COMPONENTS):
        renderer = TableRenderer()
        made = [await renderer.payload(state, layout) for state in states]
        for state, payload in zip(states, made, strict=True):
            if layout == EMBED:
                rendered = render_table(state)
                fresh = {"components": rendered.components(), "embed": rendered.embed.to_dict()}
            else:
                fresh = sent(components_payload(state, None, "en-US"))
            assert sent(payload) == fresh


async def test_buttons_that_stay_the_same_are_given_again_and_a_new_round_gets_new_ones() -> None:
    for layout in (EMBED, COMPONENTS):
        renderer = TableRenderer()
        everything = buttons_of(await renderer.payload(playing(), layout))
        no_double = playing("10♠ 7♥ 2♣", frozenset({Action.HIT, Action.STAND}))
        fewer = buttons_of(await renderer.payload(no_double, layout))
        hit = "bj:a1b2c3d4:3:hit"
        assert fewer[hit] is everything[hit]
        double = "bj:a1b2c3d4:3:double"
        assert fewer[double] is not everything[double]
        assert fewer[double].disabled
        assert not everything[double].disabled
        # The next round's buttons carry its number: none of the last round's is sent again.
        next_round = buttons_of(await renderer.payload(replace(no_double, round_no=4), layout))
        assert all(custom_id.startswith("bj:a1b2c3d4:4:") for custom_id in next_round)
        assert not {id(button) for button in next_round.values()} & {
            id(button) for button in fewer.values()
        }
