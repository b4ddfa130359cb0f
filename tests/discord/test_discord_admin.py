"""``/blackjack-admin``: settings and chip changes, only for Manage Server, all on the ledger."""

from __future__ import annotations

import pytest

from bot.app import BlackjackBot
from bot.i18n import _
from cogs.admin import CROSSED
from db.ops.settings import LIMITS
from fakediscord.interactions import InteractionRejected
from tests.support.discord_world import World, embed_text, labels_enabled
from tests.support.shoes import SPARE, START_CHIPS, ShoeQueue
from tests.support.speech import said

#: A role id in a reason: shown as text, never as a mention.
ROLE = 123456789012345678
REFUSED = "Only members with the Manage Server permission can use /blackjack-admin."


async def test_config_without_options_shows_the_settings(bot: BlackjackBot, world: World) -> None:
    shown = await world.say(world.admin, "blackjack-admin config")
    assert shown.splitlines() == [
        "Settings of this server:",
        "Default rules: vegas-shoe",
        "Bets: 10 to 10,000 a hand",
        "Timers: betting 30 s, acting 30 s, idle table closes after 300 s",
        "New players start with 1,000 chips; /daily gives 250",
        "Cards: pictures",
        "Seasons: one calendar month each (UTC)",
        "21+3: off",
        "Perfect Pairs: off",
        "Buster Blackjack: off",
        "Lucky Ladies: off",
        "Side bets: 1 to 1,000 chips a hand; the largest house edge a table offers: 25%",
        "Minimum account age for /daily and seats: 7 days",
        "Tables open in: any channel",
        "Who may play: everyone",
        "Play: on",
        "Table language: the server's language",
        "Table layout: one embed",
    ]


async def test_config_changes_the_next_tables(bot: BlackjackBot, world: World) -> None:
    changed = await world.say(
        world.admin,
        "blackjack-admin config",
        default_preset="single-deck",
        min_bet=25,
        max_bet=2_500,
        bet_timer=20,
        action_timer=15,
        idle_close=120,
        starting_chips=5_000,
        daily_amount=500,
    )
    assert changed.splitlines()[1:5] == [
        "Default rules: single-deck",
        "Bets: 25 to 2,500 a hand",
        "Timers: betting 20 s, acting 15 s, idle table closes after 120 s",
        "New players start with 5,000 chips; /daily gives 500",
    ]
    table = await world.start(world.alice)
    text = embed_text(table)
    assert text.startswith("# Blackjack · single-deck")
    assert "25–2,500 a hand" in text
    assert f"<t:{int(world.fake.clock.now()) + 20}:R>" in text
    assert await world.balance(world.alice) == 5_000


async def test_config_refuses_a_minimum_above_the_maximum_and_changes_nothing(
    bot: BlackjackBot, world: World
) -> None:
    refused = await world.say(world.admin, "blackjack-admin config", min_bet=500, max_bet=100)
    assert refused == said(world.admin, CROSSED["bet"].filled(low=500, high=100))
    settings = await world.store.get_guild_settings(world.guild.id)
    assert (settings.min_bet, settings.max_bet) == (10, 10_000)
    # In the admin's words, not the store's field names; the side bets' alike.
    refused = await world.say(world.admin, "blackjack-admin side-bets", min_bet=2_000)
    assert refused == said(world.admin, CROSSED["side_bet"].filled(low=2_000, high=1_000))
    settings = await world.store.get_guild_settings(world.guild.id)
    assert (settings.side_min_bet, settings.side_max_bet) == (1, 1_000)


async def test_grant_and_take_are_ledger_rows_with_the_admins_id(
    bot: BlackjackBot, world: World
) -> None:
    granted = await world.say(world.admin, "blackjack-admin grant", member=world.bob, amount=500)
    gave = _(
        "Gave {amount} chips to {member}. Their balance: {balance}.",
        amount=500,
        member=world.bob.mention,
        balance=START_CHIPS + 500,
    )
    assert granted == said(world.admin, gave)
    taken = await world.say(
        world.admin, "blackjack-admin take", member=world.bob, amount=200, reason="cheating"
    )
    took = _(
        "Took {amount} from {member}. Their balance: {balance}.",
        amount=200,
        member=world.bob.mention,
        balance=START_CHIPS + 300,
    )
    assert taken == said(world.admin, took)
    rows = await world.store.reports.ledger(world.guild.id, world.bob.id, 10)
    assert [(r.kind, r.delta, r.actor_id, r.reason) for r in rows[:2]] == [
        ("admin", -200, world.admin.id, "cheating"),
        ("admin", 500, world.admin.id, "grant"),
    ]


async def test_take_more_than_a_member_has_is_refused_not_clamped(
    bot: BlackjackBot, world: World
) -> None:
    before = await world.chips()
    refused = await world.say(world.admin, "blackjack-admin take", member=world.bob, amount=5_000)
    short = _(
        "{member} has {balance} chips: cannot take {amount}. Nothing changed.",
        member=world.bob.mention,
        balance=1_000,
        amount=5_000,
    )
    assert refused == said(world.admin, short)
    assert await world.chips() == before


async def test_a_grant_past_the_balance_limit_is_refused(bot: BlackjackBot, world: World) -> None:
    await world.say(world.admin, "blackjack-admin grant", member=world.bob, amount=10**15 - 1000)
    before = await world.chips()
    refused = await world.say(world.admin, "blackjack-admin grant", member=world.bob, amount=1)
    assert refused == (
        f"That would take <@{world.bob.id}> past 1,000,000,000,000,000 chips. Nothing changed."
    )
    assert await world.chips() == before


async def test_every_admin_command_is_refused_without_manage_server(
    bot: BlackjackBot, world: World
) -> None:
    before = await world.chips()
    settings = await world.store.get_guild_settings(world.guild.id)
    assert await world.say(world.alice, "blackjack-admin config") == REFUSED
    assert await world.say(world.alice, "blackjack-admin config", min_bet=1) == REFUSED
    grant = await world.say(world.alice, "blackjack-admin grant", member=world.alice, amount=10**6)
    assert grant == REFUSED
    take = await world.say(world.mod, "blackjack-admin take", member=world.bob, amount=100)
    assert take == REFUSED
    assert await world.chips() == before
    assert await world.store.get_guild_settings(world.guild.id) == settings


def entry_ids(lines: list[str]) -> list[int]:
    return [int(line.split("`")[1].lstrip("#")) for line in lines]


async def test_ledger_pages_a_members_rows_newest_first_with_round_ids(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    fake, bob, admin = world.fake, world.bob, world.admin
    shoes.add("Ts 8c 6d 9d Kh " + SPARE)  # Bob 10 6 hits a K: bust
    table = await world.start(bob)
    await world.bet(bob, "100")
    await world.click(bob, table, "Hit")
    round_id = (await world.store.reports.ledger(world.guild.id, bob.id, 1))[0].round_id
    for gift in range(1, 13):
        await world.store.adjust(world.guild.id, bob.id, gift, admin.id, f"gift {gift}")

    reply = await world.slash(admin, "blackjack-admin ledger", member=bob)
    assert reply.ephemeral
    message = reply.original
    assert message is not None
    assert message.embed is not None
    assert message.embed["title"] == "Ledger · Bob"
    first = message.embed["description"].splitlines()
    assert len(first) == 10
    assert entry_ids(first) == sorted(entry_ids(first), reverse=True)
    assert f"admin **+12** → 978 · by <@{admin.id}> · “gift 12”" in first[0]
    assert labels_enabled(message) == {"Older ▶"}

    older = await fake.click(admin, message, label="Older ▶")
    assert older.response_type == 7
    second = message.embed["description"].splitlines()
    assert len(second) == 4
    assert entry_ids(second) == sorted(entry_ids(second), reverse=True)
    assert max(entry_ids(second)) < min(entry_ids(first))
    assert "“gift 2”" in second[0]
    assert f"bet **-100** → 900 · round {round_id}" in second[2]
    assert "starting chips **+1,000** → 1,000" in second[3]
    assert labels_enabled(message) == {"◀ Newer"}
    assert message.embed["title"] == "Ledger · Bob"

    await fake.click(admin, message, label="◀ Newer")
    assert message.embed["description"].splitlines() == first
    assert labels_enabled(message) == {"Older ▶"}


async def test_ledger_is_for_manage_server_only_and_names_are_shown_harmlessly(
    bot: BlackjackBot, world: World
) -> None:
    fake, admin = world.fake, world.admin
    assert await world.say(world.alice, "blackjack-admin ledger", member=world.bob) == REFUSED
    rascal = fake.add_member(world.guild, "rascal", nick="**boss** @everyone")
    await fake.sync()
    for _row in range(11):
        await world.store.adjust(world.guild.id, rascal.id, 5, admin.id, f"<@&{ROLE}> ~~gone~~")
    reply = await world.slash(admin, "blackjack-admin ledger", member=rascal)
    message = reply.original
    assert message is not None
    assert message.embed is not None
    assert message.embed["title"] == "Ledger · \\*\\*boss\\*\\* @\u200beveryone"
    # The role mention cannot ping (its < is escaped and @ broken) and ~~ is not struck.
    assert f"“\\<@\u200b&{ROLE}\\> \\~\\~gone\\~\\~”" in message.embed["description"]

    (admin_role,) = [role for role in world.guild.roles if role.name == "croupier-role"]
    admin_role.permissions = 0  # Manage Server taken away after the message was sent
    shown = message.embed["description"]
    refused = await fake.click(admin, message, label="Older ▶")
    assert refused.response_type == 4
    assert refused.ephemeral
    assert refused.content == REFUSED
    assert message.embed["description"] == shown


#: Each whole-number option of /blackjack-admin config and side-bets, and the setting it writes.
RANGED_OPTIONS = {
    ("config", "bet_timer"): "bet_timer_s",
    ("config", "action_timer"): "action_timer_s",
    ("config", "idle_close"): "idle_close_s",
    ("config", "starting_chips"): "starting_chips",
    ("config", "daily_amount"): "daily_amount",
    ("side-bets", "min_bet"): "side_min_bet",
    ("side-bets", "max_bet"): "side_max_bet",
    ("side-bets", "max_edge"): "side_max_edge_pct",
    ("config", "min_account_age"): "min_account_age_days",
}


@pytest.mark.parametrize(("command_option", "setting"), RANGED_OPTIONS.items())
async def test_config_offers_exactly_the_values_the_store_takes(
    bot: BlackjackBot, world: World, command_option: tuple[str, str], setting: str
) -> None:
    command, option = command_option
    low, high = LIMITS[setting]
    for outside in (low - 1, high + 1):  # Discord's own client refuses these
        with pytest.raises(InteractionRejected, match=f"option {option!r}"):
            await world.slash(world.admin, f"blackjack-admin {command}", **{option: outside})
    # Both ends are taken (a side minimum above the side maximum is not: only its lowest).
    for value in (low,) if setting == "side_min_bet" else (low, high):
        changed = await world.say(world.admin, f"blackjack-admin {command}", **{option: value})
        assert changed.startswith("Settings changed."), changed
        settings = await world.store.get_guild_settings(world.guild.id)
        assert getattr(settings, setting) == value


async def test_a_bet_timer_of_an_hour_and_a_one_chip_daily_are_taken(
    bot: BlackjackBot, world: World
) -> None:
    with pytest.raises(InteractionRejected, match="option 'bet_timer'"):
        await world.slash(world.admin, "blackjack-admin config", bet_timer=3601)
    with pytest.raises(InteractionRejected, match="option 'daily_amount'"):
        await world.slash(world.admin, "blackjack-admin config", daily_amount=0)
    changed = await world.say(world.admin, "blackjack-admin config", bet_timer=3600, daily_amount=1)
    assert changed.startswith("Settings changed.")
