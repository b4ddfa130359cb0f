"""Hostile input through the fake Discord: names, amounts and commands chosen to break things.

Every request the bot sends to Discord (table messages, edits, answers, follow-ups) is
searched afterwards: no raw hostile name, no live mass mention, no bidi override, and
the fake validated every payload against Discord's limits on the way in.
"""

from __future__ import annotations

import json
import re

import pytest

import db
from bot.app import BlackjackBot
from bot.bet_amount import stake_words
from bot.shown_names import shown_name
from fakediscord import FakeDiscord, FakeMember
from fakediscord.interactions import InteractionRejected
from tests.support.discord_world import World, embed_text
from tests.support.shoes import SPARE, START_CHIPS, ShoeQueue

#: Display names (nicknames) members can set, each meant to break something.
HOSTILE_NICKS = (
    "**bold** __under__ ~~gone~~",
    "||spoiler|| `code` > quote",
    "[free chips](https://evil.example)",
    "@everyone @here",
    "\u202eevil\u202c #general -# small",
    "<t:0:R> <#1> <:e:1> \\*",
    "𝕬𝖑𝖎𝖈𝖊 עברית 🂡🂡🂡 ‮",
)


def everything_sent(fake: FakeDiscord) -> str:
    """Every body the bot sent to Discord, as one JSON text."""
    return "\n".join(json.dumps(r.body, ensure_ascii=False) for r in fake.requests)


def assert_nothing_hostile_sent(fake: FakeDiscord, raw: list[str]) -> None:
    sent = everything_sent(fake)
    for text in raw:
        assert json.dumps(text, ensure_ascii=False)[1:-1] not in sent, text
    assert "@everyone" not in sent
    assert "@here" not in sent
    assert "\u202e" not in sent
    assert "](https://evil" not in sent


def hostile_members(world: World) -> list[FakeMember]:
    return [
        world.fake.add_member(world.guild, f"stranger{n}", nick=nick)
        for n, nick in enumerate(HOSTILE_NICKS)
    ]


async def test_seven_hostile_names_play_a_round_stop_it_and_look_themselves_up(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    members = hostile_members(world)
    await world.fake.sync()
    # Every hand 10 8 against the dealer's 9 7, who draws a king and busts.
    spots = [1, 2, 1, 3, 1, 2, 1]
    hands = sum(spots)
    shoes.add(" ".join(["Ts"] * hands + ["9d"] + ["8c"] * hands + ["7c", "Kd"]) + " " + SPARE)
    table = await world.start(members[0])
    for member in members[1:]:
        await world.click(member, table, "Join")
    for member, count in zip(members, spots, strict=True):
        answer = await world.bet(member, "10", hands=count)
        assert answer.startswith(f"Bet {stake_words(10, count)}. Balance: ")
    dealt = embed_text(table)
    for member in members:
        assert shown_name(member.nick or "") in dealt
    await world.tick(30)  # every hand stands at the action timer; the dealer busts
    settled = embed_text(table)
    for member, count in zip(members, spots, strict=True):
        assert f"{shown_name(member.nick or '')}: net +{10 * count}" in settled

    refused = await world.say(members[3], "blackjack stop")
    assert refused == "Only the host or someone with Manage Channels can stop this table."
    await world.slash(members[0], "blackjack stop")
    assert f"Stopped by {shown_name(HOSTILE_NICKS[0])}." in embed_text(table)

    stats = await world.slash(members[6], "stats", member=members[4])
    assert stats.original is not None
    assert stats.original.embed is not None
    assert stats.original.embed["title"] == f"Stats · {shown_name(HOSTILE_NICKS[4])}"
    board = await world.slash(members[5], "leaderboard")
    assert board.original is not None
    assert await world.say(members[1], "balance", member=members[2]) == (
        f"<@{members[2].user.id}> has {START_CHIPS + 10:,} chips."
    )
    assert_nothing_hostile_sent(world.fake, list(HOSTILE_NICKS))


@pytest.mark.parametrize(
    "amount",
    [
        "@everyone",
        "@here 100",
        "<@800000000000000001>",
        "**100**",
        "||100||",
        "`100`",
        "[100](https://evil.example)",
        "\u202e001",
        "100\n200",
        "1e400",
        "NaN",
        "-inf",
        "0x64",
        "١٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠",
        "9" * 32,
        " ",
        "½",
        "1.000000000000000000001",
        "all all",
        "max\u200b",
    ],
)
async def test_hostile_amounts_are_refused_harmlessly_and_move_nothing(
    bot: BlackjackBot, world: World, amount: str
) -> None:
    table = await world.start(world.alice)
    before, shown = await world.chips(), (table.embeds, table.edits)
    answer = await world.bet(world.alice, amount)
    assert answer
    assert await world.chips() == before
    assert (table.embeds, table.edits) == shown
    # Text that means something in Markdown is echoed escaped, never as typed.
    changed = amount.strip() and shown_name(amount) != amount
    assert_nothing_hostile_sent(world.fake, [amount] if changed else [])
    assert not re.search(r"(?<!\\)(\*\*|\|\||`|<@|\[)", answer), answer


@pytest.mark.parametrize("hands", [0, -1, 8, 10**20])
async def test_a_number_of_hands_out_of_range_never_reaches_the_table(
    bot: BlackjackBot, world: World, hands: int
) -> None:
    await world.start(world.alice)
    before = await world.chips()
    with pytest.raises(InteractionRejected, match="option 'hands'"):
        await world.fake.slash(world.alice, "bet", world.channel, amount="10", hands=hands)
    assert await world.chips() == before


async def ten_below_the_limit(world: World, member: FakeMember) -> None:
    """An admin grant that leaves ``member`` (a new account) 10 chips below the ceiling."""
    amount = db.MAX_BALANCE - START_CHIPS - 10
    await world.say(world.admin, "blackjack-admin grant", member=member, amount=amount)


async def test_daily_at_the_chip_limit_says_so_and_keeps_the_claim(
    bot: BlackjackBot, world: World
) -> None:
    limit = db.MAX_BALANCE
    await ten_below_the_limit(world, world.alice)
    answer = await world.say(world.alice, "daily")
    assert answer == (
        f"You are at the chip limit of {limit:,} (balance {limit - 10:,}): "
        "the daily 250 chips could take you past it. Nothing changed."
    )
    assert await world.balance(world.alice) == limit - 10
    # The claim was not used up: once there is room, the daily is paid.
    await world.say(world.admin, "blackjack-admin take", member=world.alice, amount=1000)
    assert (await world.say(world.alice, "daily")).startswith("You claimed 250 chips.")


async def test_a_grant_past_the_chip_limit_is_refused_plainly(
    bot: BlackjackBot, world: World
) -> None:
    answer = await world.say(
        world.admin, "blackjack-admin grant", member=world.bob, amount=db.MAX_BALANCE
    )
    assert answer == (
        f"That would take <@{world.bob.user.id}> past {db.MAX_BALANCE:,} chips. Nothing changed."
    )
    assert await world.balance(world.bob) == START_CHIPS


async def test_a_bet_at_the_chip_limit_is_refused_with_the_limit_named(
    bot: BlackjackBot, world: World
) -> None:
    limit = db.MAX_BALANCE
    await ten_below_the_limit(world, world.alice)
    await world.start(world.alice)
    before = await world.chips()
    answer = await world.bet(world.alice, "10")
    assert answer.startswith(f"You are at the chip limit of {limit:,}")
    assert await world.chips() == before


async def test_a_nick_of_zero_width_characters_shows_the_account_name(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    ghost = world.fake.add_member(world.guild, "ghostly", nick="\u200b\u200c\u200b")
    await world.fake.sync()
    shoes.add("Ts 9d 8c 7c Kd " + SPARE)  # 10 8 against 9 7, who draws a king and busts
    table = await world.start(ghost)
    await world.bet(ghost, "10")
    await world.click(ghost, table, "Stand")
    assert "ghostly: net +10" in embed_text(table)
