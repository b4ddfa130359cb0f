"""Hostile display names through every text the table writes, rendered into Discord embeds.

Seven players named to break things, each on seven hands, play a whole round at a
real table service (real store); every snapshot published is rendered and checked:
each name shown exactly as written and harmless, every player's result present, and
every message within Discord's limits (the fake Discord's own validator).
"""

from __future__ import annotations

import re

import discord
import pytest

import db
from bot.shown_names import NAME_LIMIT, NO_NAME, shown_name, shows_blank
from bot.tables import Player, TablePhase, TableService, TableSnapshot
from cogs.economy import leaderboard_embed, stats_embed
from cogs.table.render import render_table
from cogs.table.render_results import CONTINUED, LAST_ROUND
from fakediscord.clock import ManualClock
from fakediscord.limits import validate_message
from tests.support.shoes import SPARE, ShoeQueue
from tests.support.tables import CHANNEL, GUILD, Published, tick

#: Names as members could set them (a display name is at most 32 characters).
HOSTILE_NAMES = (
    "**bold** __under__",
    "||spoiler|| `code` ~~gone~~",
    "[click](https://evil.example/x)",
    "<@800000000000000009> @everyone",
    "\u202eevil\u202c <t:0:R> <#1>",
    "# big\n> quoted\n- listed",
    "עברית \\*) @here",
)
PLAYERS = [Player(810_000_000_000_000_000 + n, name) for n, name in enumerate(HOSTILE_NAMES)]
BIDI_CONTROLS = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def unescaped(shown: str) -> str:
    """What Discord displays for a shown name: backslash escapes and helper marks gone."""
    text = re.sub(r"\\(.)", r"\1", shown).replace("\u200b", "")
    return text.removeprefix("\u2068").removesuffix("\u2069")


def texts(embed: discord.Embed) -> list[str]:
    parts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    for field in embed.fields:
        parts += [field.name or "", field.value or ""]
    return parts


def assert_harmless(embed: discord.Embed) -> None:
    """No raw name, no live mention, no bidi override, within every limit."""
    validate_message({"embeds": [embed.to_dict()]}, allowed_flags=64)
    for text in texts(embed):
        for name in HOSTILE_NAMES:
            assert name not in text
        assert "@everyone" not in text
        assert "@here" not in text
        assert "<@8" not in text
        assert "](" not in text.replace("\\](", "")
        assert "\u202e" not in text
        # Only isolates the name function adds, always in pairs.
        assert text.count("\u2068") == text.count("\u2069")
        assert not BIDI_CONTROLS.search(text.replace("\u2068", "").replace("\u2069", ""))


def test_each_hostile_name_is_shown_as_written_on_one_line_and_harmless() -> None:
    for name in HOSTILE_NAMES:
        shown = shown_name(name)
        assert "\n" not in shown
        assert not re.search(r"(?<!\\)[*_~`|\[\]()<>#:]", shown), shown
        assert unescaped(shown) == " ".join(BIDI_CONTROLS.sub("", name).split())
    assert shown_name("\u202e\u2066\n") == "player"
    long = shown_name("W" * 100)
    assert len(unescaped(long)) == NAME_LIMIT
    assert long.endswith("…")
    # A right-to-left name is isolated so it cannot reorder the rest of its line.
    assert shown_name("עברית").startswith("\u2068")
    assert shown_name("alice") == "alice"


def hostile_round_shoe() -> str:
    # 49 hands of 10-8 (18), the dealer 9-7 draws a king and busts: every hand wins.
    spots = len(PLAYERS) * 7
    return " ".join(["Ts"] * spots + ["9d"] + ["8c"] * spots + ["7c", "Kd"]) + " " + SPARE


async def test_seven_hostile_names_on_seven_hands_each_render_harmless_with_every_result(
    service: TableService,
    store: db.Store,
    shoes: ShoeQueue,
    clock: ManualClock,
    published: Published,
) -> None:
    await store.set_guild_settings(GUILD, min_bet=1)
    shoes.add(hostile_round_shoe())
    await service.start(GUILD, CHANNEL, PLAYERS[0])
    for player in PLAYERS[1:]:
        await service.join(CHANNEL, player)
    for player in PLAYERS:
        await service.bet(CHANNEL, player, "10", spots=7)
    await tick(clock, 30)  # every hand stands at the action timer; the dealer busts
    settled = published.last
    assert settled.phase is TablePhase.BETTING
    await service.stop(CHANNEL, PLAYERS[3], may_manage_channel=True)

    snapshots: list[TableSnapshot] = published.snapshots
    assert {s.phase for s in snapshots} >= {
        TablePhase.BETTING,
        TablePhase.PLAYING,
        TablePhase.CLOSED,
    }
    for snapshot in snapshots:
        embed = render_table(snapshot).embed
        assert_harmless(embed)
        seat_fields = [field.name for field in embed.fields[: len(snapshot.seats)]]
        assert seat_fields == [shown_name(seat.name) for seat in snapshot.seats]

    # Every player sees their result in the Last round section (over several fields).
    embed = render_table(settled).embed
    names = (LAST_ROUND, CONTINUED)
    last_round = "\n".join(f.value or "" for f in embed.fields if f.name in names)
    for player in PLAYERS:
        assert f"{shown_name(player.name)}: net +70" in last_round
    closed = render_table(published.last).embed
    assert f"Stopped by {shown_name(PLAYERS[3].name)}." in (closed.description or "")


def test_stats_and_leaderboard_titles_show_names_harmless() -> None:
    for name in HOSTILE_NAMES:
        stats = stats_embed(name, db.PlayerStats())
        board = leaderboard_embed(db.LeaderboardPage(GUILD, 1, 10, 1, 0, [], None), name)
        for embed in (stats, board):
            assert embed.title is not None
            assert embed.title.endswith(shown_name(name))
            assert_harmless(embed)


@pytest.mark.parametrize(
    "name", ["\u200b", "\u200b\u200c\u200d", "\u2060\ufeff", "\u3164", " \u200b ", "\u202e\u200b"]
)
def test_a_name_of_zero_width_characters_only_is_not_shown_blank(name: str) -> None:
    assert shows_blank(name)
    assert shown_name(name) == NO_NAME


def test_a_name_with_something_visible_is_kept() -> None:
    assert not shows_blank("\u200bAl")
    assert shown_name("👨\u200d👩\u200d👧") == "👨\u200d👩\u200d👧"  # joiners in an emoji stay
