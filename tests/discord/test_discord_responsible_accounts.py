"""Playing responsibly across accounts and servers, end to end through the fake Discord: the
account-age gate, linked accounts sharing a daily claim, and what another server's admin may
do to a player's limits and links (only there)."""

from __future__ import annotations

from typing import Any

from bot.app import BlackjackBot
from bot.play_gate import account_created
from tests.support.discord_world import World

DAY = 86_400


async def test_an_account_younger_than_the_gate_cannot_claim_or_sit(
    bot: BlackjackBot, world: World
) -> None:
    user = world.fake.add_user("newbie", age_days=2)
    newbie = world.fake.add_member(world.guild, "newbie", user=user)
    allowed_from = int(account_created(newbie.id) + 7 * DAY)
    too_new = (
        "Your Discord account is too new to play here: accounts play once they are 7 days old."
        f" You can play from <t:{allowed_from}:f> (<t:{allowed_from}:R>)."
    )
    assert await world.say(newbie, "daily") == too_new
    assert await world.say(newbie, "blackjack start") == too_new
    table = await world.start(world.alice)
    assert await world.refused(newbie, table, "Join") == too_new
    assert await world.say(newbie, "bet", amount="10") == too_new
    assert await world.store.reports.ledger(world.guild.id, newbie.id) == []
    await world.say(world.admin, "blackjack-admin config", min_account_age=1)
    assert (await world.say(newbie, "daily")).startswith("You claimed 250 chips.")


async def test_linked_accounts_share_one_daily_claim(bot: BlackjackBot, world: World) -> None:
    linked = await world.say(
        world.admin, "blackjack-admin link", member=world.alice, other=world.bob, reason="alt"
    )
    assert linked.startswith(f"Linked <@{world.alice.id}> and <@{world.bob.id}>")
    assert (await world.say(world.alice, "daily")).startswith("You claimed 250 chips.")
    assert (await world.say(world.bob, "daily")).startswith("You already claimed today.")
    player = await world.slash(world.admin, "blackjack-admin player", member=world.bob)
    assert player.original is not None
    assert player.original.embed is not None
    fields = {f["name"]: f["value"] for f in player.original.embed["fields"]}
    assert fields["Linked accounts"] == f"<@{world.alice.id}>"
    assert f"by <@{world.admin.id}>: “alt”" in fields["Moderation"]
    unlinked = await world.say(
        world.admin, "blackjack-admin unlink", member=world.bob, reason="not an alt"
    )
    assert unlinked.startswith(f"Unlinked <@{world.bob.id}>")
    assert (await world.say(world.bob, "daily")).startswith("You claimed 250 chips.")


async def test_another_servers_admin_lifts_a_break_in_their_server_only(
    bot: BlackjackBot, world: World
) -> None:
    fake = world.fake
    club = fake.add_guild("Book club")
    club_channel = fake.add_text_channel(club, "tables")
    alice_there = fake.add_member(club, "alice", user=world.alice.user)
    club_admin = fake.add_member(club, "librarian", permissions=["manage_guild"])
    await fake.sync()
    await world.say(world.alice, "limits break", period="admin")  # taken in the Casino

    lifted = await world.say(
        club_admin, "blackjack-admin lift", club_channel, member=alice_there, reason="asked me"
    )
    assert lifted.startswith("Lifted")
    assert "in this server" in lifted
    claimed = await world.say(alice_there, "daily", club_channel)
    assert claimed.startswith("You claimed 250 chips.")
    # Her break holds in the Casino, whose admin sees it and no lift in their log.
    assert await world.say(world.alice, "daily") == (
        "You're taking a break from play until a server admin lifts it. Nothing was changed."
    )
    player = await world.slash(world.admin, "blackjack-admin player", member=world.alice)
    assert player.original is not None
    assert player.original.embed is not None
    shown = player.original.embed["description"]
    assert "On a break: until a server admin lifts it" in shown
    assert "lifted" not in embed_all(player.original.embed)
    # The club's admin sees the lift in their own log.
    there = await world.slash(
        club_admin, "blackjack-admin player", club_channel, member=alice_there
    )
    assert there.original is not None
    assert there.original.embed is not None
    assert "break lifted by" in embed_all(there.original.embed)
    assert "On a break: no" in there.original.embed["description"]


async def test_another_servers_link_binds_nobody_here_and_leaves_no_limits_behind(
    bot: BlackjackBot, world: World
) -> None:
    fake = world.fake
    club = fake.add_guild("Book club")
    club_channel = fake.add_text_channel(club, "tables")
    alice_there = fake.add_member(club, "alice", user=world.alice.user)
    bob_there = fake.add_member(club, "bob", user=world.bob.user)
    club_admin = fake.add_member(club, "librarian", permissions=["manage_guild"])
    await fake.sync()
    await world.say(world.bob, "limits set", daily_loss=1)  # Bob's own limit
    linked = await world.say(
        club_admin,
        "blackjack-admin link",
        club_channel,
        member=alice_there,
        other=bob_there,
        reason="same person?",
    )
    assert linked.startswith(f"Linked <@{world.alice.id}> and <@{world.bob.id}> in this server")
    # In the Casino Alice is linked to nobody: her own claim, no limit of Bob's.
    assert (await world.say(world.alice, "daily")).startswith("You claimed 250 chips.")
    assert (await world.say(world.bob, "daily")).startswith("You claimed 250 chips.")
    shown = await world.say(world.alice, "limits show")
    assert "Daily loss limit: none" in shown
    player = await world.slash(world.admin, "blackjack-admin player", member=world.alice)
    assert player.original is not None
    assert player.original.embed is not None
    assert "same person?" not in embed_all(player.original.embed)  # logged in the club only
    # In the club they share one claim, and Bob's limit counts for Alice.
    assert (await world.say(alice_there, "daily", club_channel)).startswith("You claimed")
    shared = await world.say(bob_there, "daily", club_channel)
    assert shared.startswith("You already claimed today.")
    assert "Daily loss limit: 1" in await world.say(alice_there, "limits show", club_channel)
    unlinked = await world.say(
        club_admin, "blackjack-admin unlink", club_channel, member=alice_there, reason="no"
    )
    assert unlinked.startswith(f"Unlinked <@{world.alice.id}> in this server")
    assert "Daily loss limit: none" in await world.say(alice_there, "limits show", club_channel)


def embed_all(embed: dict[str, Any]) -> str:
    """An embed's description and every field, as one text."""
    fields = [f"{f['name']}\n{f['value']}" for f in embed.get("fields", [])]
    return "\n".join([embed.get("description", ""), *fields])
