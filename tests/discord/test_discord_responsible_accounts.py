"""Playing responsibly across accounts and servers, end to end through the fake Discord: the
account-age gate, linked accounts sharing a daily claim, and what another server's admin may
do to a player's limits and links (only there)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.app import BlackjackBot
from bot.i18n import _
from bot.play_gate import account_created
from bot.tables.play_words import EXCLUDED_BY_ADMIN, too_new_text
from fakediscord.models import FakeChannel, FakeMember
from tests.support.discord_world import World
from tests.support.speech import CLAIMED_ALREADY, LIFTED, claimed, said, says

DAY = 86_400
LINKED = _(
    "Linked {member} and {other} in this server: here they now share one"
    " /daily claim and one set of limits (the stricter of each)."
)
UNLINKED = _("Unlinked {member} in this server. Each account keeps the limits its player set.")


@dataclass
class Club:
    """Another server, where Alice and Bob are members too, with its own admin."""

    channel: FakeChannel
    alice: FakeMember
    bob: FakeMember
    admin: FakeMember


async def book_club(world: World) -> Club:
    fake = world.fake
    club = fake.add_guild("Book club")
    there = Club(
        channel=fake.add_text_channel(club, "tables"),
        alice=fake.add_member(club, "alice", user=world.alice.user),
        bob=fake.add_member(club, "bob", user=world.bob.user),
        admin=fake.add_member(club, "librarian", permissions=["manage_guild"]),
    )
    await fake.sync()
    return there


async def test_an_account_younger_than_the_gate_cannot_claim_or_sit(
    bot: BlackjackBot, world: World
) -> None:
    user = world.fake.add_user("newbie", age_days=2)
    newbie = world.fake.add_member(world.guild, "newbie", user=user)
    too_new = said(newbie, too_new_text(7, account_created(newbie.id) + 7 * DAY))
    assert await world.say(newbie, "daily") == too_new
    assert await world.say(newbie, "blackjack start") == too_new
    table = await world.start(world.alice)
    assert await world.refused(newbie, table, "Join") == too_new
    assert await world.say(newbie, "bet", amount="10") == too_new
    assert await world.store.reports.ledger(world.guild.id, newbie.id) == []
    await world.say(world.admin, "blackjack-admin config", min_account_age=1)
    assert claimed(await world.say(newbie, "daily"), newbie, 1_250)


async def test_linked_accounts_share_one_daily_claim(bot: BlackjackBot, world: World) -> None:
    linked = await world.say(
        world.admin, "blackjack-admin link", member=world.alice, other=world.bob, reason="alt"
    )
    mentions = {"member": world.alice.mention, "other": world.bob.mention}
    assert linked == said(world.admin, LINKED.filled(**mentions))
    assert claimed(await world.say(world.alice, "daily"), world.alice, 1_250)
    shared = await world.say(world.bob, "daily")
    assert says(shared, world.bob, CLAIMED_ALREADY, "when", balance=1_000)
    player = await world.slash(world.admin, "blackjack-admin player", member=world.bob)
    assert player.original is not None
    assert player.original.embed is not None
    fields = {f["name"]: f["value"] for f in player.original.embed["fields"]}
    assert fields["Linked accounts"] == f"<@{world.alice.id}>"
    assert f"by <@{world.admin.id}>: “alt”" in fields["Moderation"]
    unlinked = await world.say(
        world.admin, "blackjack-admin unlink", member=world.bob, reason="not an alt"
    )
    assert unlinked == said(world.admin, UNLINKED.filled(member=world.bob.mention))
    assert claimed(await world.say(world.bob, "daily"), world.bob, 1_250)


async def test_another_servers_admin_lifts_a_break_in_their_server_only(
    bot: BlackjackBot, world: World
) -> None:
    club = await book_club(world)
    await world.say(world.alice, "limits break", period="admin")  # taken in the Casino

    lifted = await world.say(
        club.admin, "blackjack-admin lift", club.channel, member=club.alice, reason="asked me"
    )
    assert lifted == said(club.admin, LIFTED.filled(member=club.alice.mention))
    assert claimed(await world.say(club.alice, "daily", club.channel), club.alice, 1_250)
    # Her break holds in the Casino, whose admin sees it and no lift in their log.
    assert await world.say(world.alice, "daily") == said(world.alice, EXCLUDED_BY_ADMIN)
    player = await world.slash(world.admin, "blackjack-admin player", member=world.alice)
    assert player.original is not None
    assert player.original.embed is not None
    shown = player.original.embed["description"]
    assert "On a break: until a server admin lifts it" in shown
    assert "lifted" not in embed_all(player.original.embed)
    # The club's admin sees the lift in their own log.
    there = await world.slash(club.admin, "blackjack-admin player", club.channel, member=club.alice)
    assert there.original is not None
    assert there.original.embed is not None
    assert "break lifted by" in embed_all(there.original.embed)
    assert "On a break: no" in there.original.embed["description"]


async def test_another_servers_link_binds_nobody_here_and_leaves_no_limits_behind(
    bot: BlackjackBot, world: World
) -> None:
    club = await book_club(world)
    await world.say(world.bob, "limits set", daily_loss=1)  # Bob's own limit
    linked = await world.say(
        club.admin,
        "blackjack-admin link",
        club.channel,
        member=club.alice,
        other=club.bob,
        reason="same person?",
    )
    mentions = {"member": world.alice.mention, "other": world.bob.mention}
    assert linked == said(club.admin, LINKED.filled(**mentions))
    # In the Casino Alice is linked to nobody: her own claim, no limit of Bob's.
    assert claimed(await world.say(world.alice, "daily"), world.alice, 1_250)
    assert claimed(await world.say(world.bob, "daily"), world.bob, 1_250)
    shown = await world.say(world.alice, "limits show")
    assert "Daily loss limit: none" in shown
    player = await world.slash(world.admin, "blackjack-admin player", member=world.alice)
    assert player.original is not None
    assert player.original.embed is not None
    assert "same person?" not in embed_all(player.original.embed)  # logged in the club only
    # In the club they share one claim, and Bob's limit counts for Alice.
    assert claimed(await world.say(club.alice, "daily", club.channel), club.alice, 1_250)
    shared = await world.say(club.bob, "daily", club.channel)
    assert says(shared, club.bob, CLAIMED_ALREADY, "when", balance=1_000)
    assert "Daily loss limit: 1" in await world.say(club.alice, "limits show", club.channel)
    unlinked = await world.say(
        club.admin, "blackjack-admin unlink", club.channel, member=club.alice, reason="no"
    )
    assert unlinked == said(club.admin, UNLINKED.filled(member=world.alice.mention))
    assert "Daily loss limit: none" in await world.say(club.alice, "limits show", club.channel)


def embed_all(embed: dict[str, Any]) -> str:
    """An embed's description and every field, as one text."""
    fields = [f"{f['name']}\n{f['value']}" for f in embed.get("fields", [])]
    return "\n".join([embed.get("description", ""), *fields])
