"""The Components V2 layout: the same table as the embed, inside Discord's V2 limits."""

from __future__ import annotations

from dataclasses import replace

import discord
import pytest

from bot.i18n import LANGUAGES
from bot.tables.snapshot import StackView, TablePhase, TournamentPanel
from cogs.table.layouts import (
    COMPONENTS,
    COMPONENTS_LIMIT,
    EMBED,
    TEXT_LIMIT,
    components_payload,
    embed_payload,
    note_fields,
)
from cogs.table.render import render_table
from fakediscord import components_v2 as v2
from fakediscord.limits import validate_message
from tests.support.render_snapshots import (
    busiest_table,
    hand,
    picture_faces,
    seat,
    table,
    worst_case,
)

V2 = 1 << 15


async def sent_body(view: discord.ui.LayoutView) -> dict[str, object]:
    return {"flags": V2, "components": view.to_components()}


def text_and_count(view: discord.ui.View | discord.ui.LayoutView) -> tuple[str, int]:
    components = view.to_components()
    return v2.text_of(components), len(list(v2.walk(components)))


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("faces", [None, picture_faces()], ids=["text cards", "pictures"])
async def test_seven_players_of_four_split_hands_fit_the_v2_limits_in_every_phase(
    language: str, faces: dict[str, str] | None
) -> None:
    for snapshot in (worst_case(), busiest_table()):
        for phase in TablePhase:
            payload = components_payload(replace(snapshot, phase=phase), faces, language)
            assert payload.layout == COMPONENTS
            assert payload.embed is None
            assert isinstance(payload.view, discord.ui.LayoutView)
            text, count = text_and_count(payload.view)
            assert len(text.replace("\n", "")) <= TEXT_LIMIT
            assert count <= COMPONENTS_LIMIT
            validate_message(await sent_body(payload.view), allowed_flags=V2)


async def test_every_seat_and_hand_of_the_busiest_table_stays_on_the_v2_message() -> None:
    snapshot = busiest_table()
    payload = components_payload(snapshot, None, "en-US")
    text, _ = text_and_count(payload.view)
    for seated in snapshot.seats:
        assert f"**{seated.name}**" in text
    assert text.count("8♠ 3♥ 10♣") == 7 * 4
    # The buttons are the embed's, row by row under the container.
    assert [b["custom_id"] for b in v2.walk(payload.view.to_components()) if b["type"] == 2] == [
        spec.custom_id for spec in render_table(snapshot).buttons
    ]


async def test_the_v2_message_says_what_the_embed_says() -> None:
    snapshot = table(TablePhase.PLAYING, seat(1, "alice", hand("10♠ 7♥", 17)))
    embed = render_table(snapshot).embed
    text, _ = text_and_count(components_payload(snapshot, None, "en-US").view)
    assert embed.title is not None
    assert embed.title in text
    assert (embed.description or "") in text
    for field in embed.fields:
        assert f"**{field.name}**\n{field.value}" in text
    assert (embed.footer.text or "") in text


async def test_a_long_panel_and_the_busiest_seats_still_fit() -> None:
    # A duplicate tournament's panel with fourteen stacks of the longest names Discord allows.
    stacks = tuple(StackView("p" * 32 + str(i), 10**12, 3 if i % 2 else None) for i in range(14))
    panel = TournamentPanel(
        tournament_id=10**9,
        table=2,
        tables=3,
        hand=4,
        hands=9,
        eliminations=(3, 6),
        stacks=stacks,
        pool=10**14,
        split=(50, 30, 20),
        fee=10**9,
    )
    snapshot = replace(worst_case(), panel=panel)
    payload = components_payload(snapshot, picture_faces(), "en-US")
    text, count = text_and_count(payload.view)
    assert len(text.replace("\n", "")) <= TEXT_LIMIT
    assert count <= COMPONENTS_LIMIT
    validate_message(await sent_body(payload.view), allowed_flags=V2)
    for seated in snapshot.seats:  # every seat keeps its place, its lines clipped
        assert seated.name.strip("*") in text.replace("\\", "")


async def test_pictures_give_way_to_text_cards_before_any_seat_is_clipped() -> None:
    snapshot = worst_case()
    with_pictures = components_payload(snapshot, picture_faces(), "en-US")
    text, _ = text_and_count(with_pictures.view)
    assert "<:" not in text  # too many pictures for 4,000 characters: every card as text
    assert text.count("2♠ 2♥ A♦") == 7 * 4


async def test_an_old_table_message_is_told_where_the_table_went_in_its_own_layout() -> None:
    embed_note = note_fields(EMBED, "moved")
    assert embed_note == {"content": "moved", "embed": None, "view": None}
    v2_note = note_fields(COMPONENTS, "moved")
    assert v2_note["embed"] is None
    assert "content" not in v2_note
    assert v2.text_of(v2_note["view"].to_components()) == "moved"
    validate_message(await sent_body(v2_note["view"]), allowed_flags=V2)


async def test_the_embed_payload_is_the_rendered_embed_and_its_buttons() -> None:
    rendered = render_table(table(TablePhase.BETTING))
    payload = embed_payload(rendered)
    assert payload.fields()["embed"] is rendered.embed
    assert isinstance(payload.view, discord.ui.View)
    assert payload.view.to_components() == rendered.components()
