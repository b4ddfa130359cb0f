"""``/blackjack-admin``: settings and chip changes, only for Manage Server, all on the ledger."""

from __future__ import annotations

from discord_world import START_CHIPS, World, embed_text

from bot.app import BlackjackBot

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
    assert refused.startswith("Nothing changed: ")
    assert "min_bet" in refused
    settings = await world.store.get_guild_settings(world.guild.id)
    assert (settings.min_bet, settings.max_bet) == (10, 10_000)


async def test_grant_and_take_are_ledger_rows_with_the_admins_id(
    bot: BlackjackBot, world: World
) -> None:
    granted = await world.say(world.admin, "blackjack-admin grant", member=world.bob, amount=500)
    assert granted == f"Gave 500 chips to <@{world.bob.id}>. Their balance: {START_CHIPS + 500:,}."
    taken = await world.say(
        world.admin, "blackjack-admin take", member=world.bob, amount=200, reason="cheating"
    )
    assert taken == f"Took 200 from <@{world.bob.id}>. Their balance: {START_CHIPS + 300:,}."
    rows = await world.store.ledger(world.guild.id, world.bob.id, 10)
    assert [(r.kind, r.delta, r.actor_id, r.reason) for r in rows[:2]] == [
        ("admin", -200, world.admin.id, "cheating"),
        ("admin", 500, world.admin.id, "grant"),
    ]


async def test_take_more_than_a_member_has_is_refused_not_clamped(
    bot: BlackjackBot, world: World
) -> None:
    before = await world.chips()
    refused = await world.say(world.admin, "blackjack-admin take", member=world.bob, amount=5_000)
    assert refused == f"<@{world.bob.id}> has 1,000 chips: cannot take 5,000. Nothing changed."
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
