"""Achievements and seasons through the fake Discord: a new achievement in the table's
Latest line and in /stats, and /leaderboard season before and after the season ends."""

from __future__ import annotations

from bot.app import BlackjackBot
from bot.i18n import _
from tests.support.discord_world import World, embed_text
from tests.support.shoes import SPARE, ShoeQueue
from tests.support.speech import said, says

NO_SEASON = _("There is no season {season} in this server. Seasons: {names}.")


def fields(embed: dict[str, object] | None) -> dict[str, str]:
    assert embed is not None
    return {f["name"]: f["value"] for f in embed["fields"]}  # type: ignore[attr-defined]


async def test_an_achievement_is_announced_at_the_table_and_listed_in_stats(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add("As 9d Ks 8c " + SPARE)  # Alice A♠ K♠: a suited blackjack
    table = await world.start(world.alice)
    await world.bet(world.alice, "100")
    shown = embed_text(table)
    assert "## Latest" in shown
    assert "Alice earned an achievement: First blackjack" in shown
    assert "Alice earned an achievement: Suited blackjack" in shown

    reply = await world.slash(world.bob, "stats", member=world.alice)
    held = fields(reply.embed)["Achievements (2 of 14)"]
    assert held.splitlines() == [
        "🏆 **First blackjack**: Be paid for a blackjack (an ace and a ten-value card as your"
        " first two cards).",
        "🏆 **Suited blackjack**: Be paid for a blackjack whose ace and ten-value card are of"
        " the same suit.",
    ]
    mine = await world.slash(world.bob, "stats")
    none_yet = said(world.bob, _("None yet. A blackjack earns the first."))
    assert fields(mine.embed)["Achievements (0 of 14)"] == none_yet


async def test_leaderboard_season_ranks_this_season_and_keeps_the_last_one(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add("As 9d Ks 8c " + SPARE)  # Alice wins 150
    await world.start(world.alice)
    await world.bet(world.alice, "100")
    await world.store.adjust(world.guild.id, world.bob.id, 5000, world.admin.id, "not play")
    season = await world.store.competition.current_season(world.guild.id)

    reply = await world.slash(world.bob, "leaderboard", season="current")
    assert reply.ephemeral
    assert reply.embed is not None
    assert reply.embed["title"] == f"Season {season.name} · Casino"
    assert reply.embed["description"] == f"`#1` <@{world.alice.id}> · +150"
    not_played = _("You have not played a round in this season.")
    assert fields(reply.embed)["You"] == said(world.bob, not_played)
    everyone = await world.slash(world.bob, "leaderboard")  # all-time: balances
    assert everyone.embed is not None
    assert everyone.embed["description"].splitlines()[0] == f"`#1` <@{world.bob.id}> · 6,000"

    # The month ends on the bot's clock (the idle table closes on the way).
    await world.tick(season.ends_at.timestamp() - world.fake.clock.now() + 60)
    now = await world.slash(world.alice, "leaderboard", season="current")
    assert now.embed is not None
    assert now.embed["title"] != f"Season {season.name} · Casino"
    nobody = _("Nobody has finished a round this season yet.")
    assert now.embed["description"] == said(world.alice, nobody)
    past = await world.slash(world.alice, "leaderboard", season=season.name)
    assert past.embed is not None
    assert past.embed["description"] == f"`#1` <@{world.alice.id}> · +150"
    assert fields(past.embed)["You"] == "`#1` of 1 · +150"
    assert fields(past.embed)["Season"].startswith("Final standings")
    unknown = await world.say(world.alice, "leaderboard", season="1999-01")
    assert says(unknown, world.alice, NO_SEASON, "names", season="1999-01")
    hostile = await world.say(world.alice, "leaderboard", season="@everyone **won**")
    escaped = "@\u200beveryone \\*\\*won\\*\\*"
    assert says(hostile, world.alice, NO_SEASON, "names", season=escaped)
    assert await world.balance(world.alice) == 1000 + 150  # nothing reset


async def test_an_admin_sets_the_season_length(bot: BlackjackBot, world: World) -> None:
    text = await world.say(world.admin, "blackjack-admin config", season_length="week")
    assert "Seasons: one calendar week each (UTC)" in text
    settings = await world.store.get_guild_settings(world.guild.id)
    assert settings.season_length == "week"


async def test_season_names_are_offered_as_you_type(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add("As 9d Ks 8c " + SPARE)
    await world.start(world.alice)
    await world.bet(world.alice, "100")
    first = await world.store.competition.current_season(world.guild.id)
    await world.tick(first.ends_at.timestamp() - world.fake.clock.now() + 60)
    second = await world.store.competition.current_season(world.guild.id)
    offered = await world.fake.autocomplete(world.bob, "leaderboard", world.channel, "season", "")
    assert offered == [
        {"name": f"{second.name} (this season)", "value": second.name},
        {"name": first.name, "value": first.name},
    ]
    typed = first.name[-2:]  # the month's number: only the first season has it
    only = await world.fake.autocomplete(world.bob, "leaderboard", world.channel, "season", typed)
    assert only == [{"name": first.name, "value": first.name}]
