"""Cards as pictures (the bot's card emojis) on the table message, inside Discord's limits."""

from __future__ import annotations

from dataclasses import replace

import discord
import pytest

from bot.engine.actions import Action
from bot.i18n import ENGLISH, LANGUAGES
from bot.tables.snapshot import DealerView, TablePhase, TableSnapshot
from cogs.table.card_art import Faces, picture_count
from cogs.table.embed_limits import EMBED_TOTAL_LIMIT, FIELD_VALUE_LIMIT, embed_size
from cogs.table.hint_text import hint_text
from cogs.table.render import STAKE_REFUNDED, render_table
from fakediscord.limits import validate_message
from tests.support.render_snapshots import (
    NOW,
    busiest_table,
    cards,
    hand,
    picture_faces,
    seat,
    table,
    worst_case,
)

FACES = picture_faces()


def field_named(embed: discord.Embed, name: str) -> str:
    for field in embed.fields:
        if field.name == name:
            return str(field.value)
    raise AssertionError(f"no field {name!r} in {[f.name for f in embed.fields]}")


def within_limits(
    snapshot: TableSnapshot, faces: Faces | None, language: str = ENGLISH
) -> discord.Embed:
    """Render, and check the message as the fake Discord (Discord's limits) checks it."""
    rendered = render_table(snapshot, faces, language)
    embed = rendered.embed
    validate_message(
        {"embeds": [embed.to_dict()], "components": rendered.components()}, allowed_flags=64
    )
    assert embed_size(embed) <= EMBED_TOTAL_LIMIT
    assert all(len(field.value or "") <= FIELD_VALUE_LIMIT for field in embed.fields)
    return embed


def test_a_hand_shows_its_cards_as_pictures_and_its_total_in_text() -> None:
    alice = seat(1, "alice", hand("A♠ 10♥", 21, status="blackjack"), hand("9♦ 7♣", 16))
    lines = field_named(render_table(table(TablePhase.PLAYING, alice), FACES).embed, "alice")
    assert lines.splitlines() == [
        f"• {FACES['AS']}{FACES['10H']} · **BJ** · 100",
        f"• {FACES['9D']}{FACES['7C']} · **16** · 100",
    ]


def test_the_dealers_hole_card_is_the_card_back_until_the_dealer_plays() -> None:
    hidden = render_table(table(TablePhase.PLAYING, seat(1, "alice", hand("10♠ 7♥", 17))), FACES)
    assert f"**Dealer** {FACES['9S']}{FACES['back']} · shows 9" in (hidden.embed.description or "")
    revealed = table(
        TablePhase.PLAYING,
        dealer=DealerView(cards=cards("9♠ 8♦"), hole_hidden=False, total=17, soft=False),
    )
    description = render_table(revealed, FACES).embed.description or ""
    assert f"**Dealer** {FACES['9S']}{FACES['8D']} · **17**" in description
    assert FACES["back"] not in description


def test_the_last_round_shows_its_cards_as_pictures() -> None:
    results = (
        "Dealer busts: 10♠ 6♥ 9♦ (25)",
        "alice♠ (hand 1): 8♠ 3♥ 10♣ — 21 wins: 200",
        "alice♠: net +100",
    )
    snapshot = table(TablePhase.BETTING, seat(1, "alice"), dealer=None, last_results=results)
    shown = field_named(render_table(snapshot, FACES).embed, "Last round").splitlines()
    assert shown == [
        f"Dealer busts: {FACES['10S']} {FACES['6H']} {FACES['9D']} (25)",
        f"alice♠ (hand 1): {FACES['8S']} {FACES['3H']} {FACES['10C']} — 21 wins: 200",
        "alice♠: net +100",  # only a card standing alone becomes a picture
    ]


def test_the_hint_shows_the_hand_against_the_dealers_up_card() -> None:
    alice = seat(1, "alice", hand("8♠ 3♥", 11, is_current=True), legal=frozenset({Action.HIT}))
    snapshot = table(TablePhase.PLAYING, alice)
    advice = "Basic strategy: double (hard 11 against a 9)."
    assert hint_text(snapshot, 1, advice, FACES) == (
        f"Your hand {FACES['8S']}{FACES['3H']} against {FACES['9S']}\n{advice}"
    )
    assert hint_text(snapshot, 1, advice, None) == f"Your hand 8♠ 3♥ against 9♠\n{advice}"
    assert hint_text(snapshot, 2, advice, FACES) == advice  # not seated: the advice alone


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("phase", list(TablePhase))
@pytest.mark.parametrize("style", ["pictures", "text"])
def test_seven_players_with_four_split_hands_fit_in_every_phase_style_and_language(
    phase: TablePhase, style: str, language: str
) -> None:
    faces = FACES if style == "pictures" else None
    for snapshot in (busiest_table(), worst_case()):
        embed = within_limits(replace(snapshot, phase=phase), faces, language)
        for field in embed.fields[:7]:
            if phase is TablePhase.CLOSED:  # a closed table shows refunds, not hands
                assert field.value == STAKE_REFUNDED.in_language(language)
            else:  # every seat and every hand is still on the table
                assert (field.value or "").count("\n") >= 3


def test_at_the_busiest_real_table_every_seat_keeps_its_pictures() -> None:
    embed = within_limits(busiest_table(), FACES)
    for field in embed.fields[:7]:
        assert picture_count(field.value or "") == 4 * 3
    assert picture_count(embed.description or "") == 3


def test_older_news_gives_way_before_any_picture() -> None:
    news = tuple(f"Event {n}: {'x' * 190}" for n in range(12))
    snapshot = replace(busiest_table("8♠ 3♥ 2♣ 5♦"), events=news)
    as_text = field_named(render_table(snapshot).embed, "Latest").splitlines()
    assert as_text == list(news[-4:])
    embed = within_limits(snapshot, FACES)
    shown = field_named(embed, "Latest").splitlines()
    assert 0 < len(shown) < len(as_text)
    assert shown == as_text[len(as_text) - len(shown) :]  # the newest stay
    assert all(picture_count(field.value or "") == 16 for field in embed.fields[:7])


def test_then_the_busiest_section_shows_text_cards_and_the_rest_keep_pictures() -> None:
    busy = busiest_table("8♠ 3♥ 2♣ 2♦ 2♥")
    crowded = busiest_table("2♠ 2♥ 2♦ 2♣ A♠ A♥").seats[6]
    snapshot = replace(busy, seats=(*busy.seats[:6], crowded))
    assert embed_size(render_table(replace(snapshot, events=()), FACES).embed) <= 6000
    embed = within_limits(snapshot, FACES)
    assert picture_count(embed.fields[6].value or "") == 0  # the busiest seat: text
    assert (embed.fields[6].value or "").count("2♠ 2♥ 2♦ 2♣ A♠ A♥") == 4
    assert all(picture_count(field.value or "") == 20 for field in embed.fields[:6])
    assert picture_count(embed.description or "") == 3


def test_without_a_faces_map_the_table_is_exactly_the_text_table() -> None:
    snapshot = busiest_table()
    assert render_table(snapshot, None).embed.to_dict() == render_table(snapshot).embed.to_dict()
    assert "<:" not in str(render_table(snapshot).embed.to_dict())


def _names(embed: discord.Embed) -> list[str]:
    return [field.name or "" for field in embed.fields]


def test_a_countdown_stays_on_the_hand_to_act_in_pictures() -> None:
    alice = seat(
        1,
        "alice",
        hand("8♦ 10♣", 18, is_current=True),
        legal=frozenset({Action.HIT, Action.STAND}),
        deadline=NOW + 30,
    )
    value = field_named(render_table(table(TablePhase.PLAYING, alice), FACES).embed, "alice")
    assert value == f"▶ {FACES['8D']}{FACES['10C']} · **18** · 100 · <t:{int(NOW + 30)}:R>"
