"""Playing responsibly, end to end through the fake Discord: each refusal of the play gate and
of a player's own limits, the reality check's button, the stop switch, the no-value notice,
and that no command moves chips between players (the account-age gate, linked accounts and
other servers: test_discord_responsible_accounts.py).

Tournament entry asks the same gate (bot.play_gate, Action.TOURNAMENT); its test comes
with the tournament command.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

import db
from bot.app import BlackjackBot
from bot.i18n import _
from bot.tables.play_words import (
    EXCLUDED_BY_ADMIN,
    FIRST_BET_NOTICE,
    NO_VALUE_NOTICE,
    STOPPED,
    excluded_text,
    reality_check_text,
)
from cogs.responsible import ADMIN_ONLY_BREAK, CONFIRMED
from db.play_store import PlayLimitsStore
from db.report_store import ReportStore
from db.shoe_store import ShoeStore
from fakediscord import FakeMessage
from tests.support.discord_world import World, embed_text
from tests.support.shoes import SPARE, START_CHIPS, ShoeQueue
from tests.support.speech import LIFTED, claimed, receipt, said, says

DAY = 86_400
# Alice alone: 5 and 6 against the dealer's 10 and 7; she doubles, draws a 5 (16) and loses.
DOUBLE_AND_LOSE = "5h Tc 6d 7s 5c " + SPARE
# Alice alone: 10 and 8 against the dealer's 7 and 10; she stands, the dealer stands on 17.
STAND_AND_WIN = "Ts 7c 8d Tc " + SPARE
LIMIT_REACHED = _(
    "You've reached your daily loss limit of {limit} chips. Your limit resets {when}."
)
PAST_LIMIT = _(
    "That bet would take you past your daily loss limit of {limit} chips (lost today:"
    " {lost}). Your limit resets {when}."
)


async def won_a_round(world: World, shoes: ShoeQueue) -> FakeMessage:
    """Alice's table after she bet 100 and won by standing: its bets are open again."""
    shoes.add(STAND_AND_WIN)
    table = await world.start(world.alice)
    await world.bet(world.alice, "100")
    await world.click(world.alice, table, "Stand")
    return table


async def test_a_loss_limit_reached_in_a_round_lets_it_finish_and_refuses_the_next_bet(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add(DOUBLE_AND_LOSE)
    shown = await world.say(world.alice, "limits set", daily_loss=150)
    assert "Daily loss limit: 150 chips" in shown
    table = await world.start(world.alice)
    assert await world.bet(world.alice, "100") == said(world.alice, receipt(100, 900))
    await world.click(world.alice, table, "Double")  # past the limit: the round plays out
    assert said(world.alice, _("**Place your bets**")) in embed_text(table)
    assert await world.ledger(world.alice) == [
        ("grant", START_CHIPS),
        ("bet", -100),
        ("double", -100),
    ]
    refused = await world.bet(world.alice, "10")
    assert says(refused, world.alice, LIMIT_REACHED, "when", limit=150)
    assert "Your limit resets <t:" in refused
    assert await world.balance(world.alice) == START_CHIPS - 200


async def test_a_bet_past_the_loss_limit_is_refused_in_its_transaction(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add(DOUBLE_AND_LOSE)
    await world.say(world.alice, "limits set", daily_loss=150)
    await world.start(world.alice)
    refused = await world.bet(world.alice, "200")
    assert says(refused, world.alice, PAST_LIMIT, "when", limit=150, lost=0)
    assert await world.ledger(world.alice) == [("grant", START_CHIPS)]


async def test_a_player_on_a_break_cannot_bet_join_or_claim(
    bot: BlackjackBot, world: World
) -> None:
    table = await world.start(world.bob)
    before = await world.chips()
    shown = await world.say(world.alice, "limits break", period="7d")
    assert "On a break: until <t:" in shown
    break_text = said(world.alice, excluded_text(world.fake.clock.now() + 7 * DAY))
    assert await world.bet(world.alice, "100") == break_text
    assert await world.say(world.alice, "blackjack join") == break_text
    assert await world.refused(world.alice, table, "Join") == break_text
    assert await world.say(world.alice, "daily") == break_text
    assert "Alice" not in embed_text(table)
    assert await world.chips() == before
    # Ending it early waits a day; the admin cannot shorten it.
    ends = await world.say(world.alice, "limits end-break")
    assert ends == f"Your break now ends <t:{int(world.fake.clock.now()) + DAY}:f> " + (
        f"(<t:{int(world.fake.clock.now()) + DAY}:R>)."
    )
    lifted = await world.say(world.admin, "blackjack-admin lift", member=world.alice, reason="x")
    no_break = _(
        "{member} has no break that waits for an admin of this server. Nothing changed.",
        member=world.alice.mention,
    )
    assert lifted == said(world.admin, no_break)
    await world.tick(DAY)
    assert claimed(await world.say(world.alice, "daily"), world.alice, START_CHIPS + 250)


async def test_a_player_who_takes_a_break_cannot_bet_again_with_the_button(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    table = await won_a_round(world, shoes)
    await world.say(world.alice, "limits break", period="7d")
    refused = await world.refused(world.alice, table, "Bet again")
    assert refused == said(world.alice, excluded_text(world.fake.clock.now() + 7 * DAY))
    assert await world.ledger(world.alice) == [
        ("grant", START_CHIPS),
        ("bet", -100),
        ("payout", 200),
    ]


async def test_a_break_until_an_admin_lifts_it_is_lifted_by_an_admin_only(
    bot: BlackjackBot, world: World
) -> None:
    await world.say(world.alice, "limits break", period="admin")
    refused = await world.say(world.alice, "daily")
    assert refused == said(world.alice, EXCLUDED_BY_ADMIN)
    ends = await world.say(world.alice, "limits end-break")
    assert ends == said(world.alice, ADMIN_ONLY_BREAK)
    await world.tick(400 * DAY)
    assert await world.say(world.alice, "daily") == refused
    player = await world.slash(world.admin, "blackjack-admin player", member=world.alice)
    assert player.original is not None
    assert player.original.embed is not None
    assert "On a break: until a server admin lifts it" in player.original.embed["description"]
    lifted = await world.say(
        world.admin, "blackjack-admin lift", member=world.alice, reason="talked it over"
    )
    assert lifted == said(world.admin, LIFTED.filled(member=world.alice.mention))
    assert claimed(await world.say(world.alice, "daily"), world.alice, START_CHIPS + 250)


async def test_a_raised_limit_waits_24_hours_and_a_lowered_one_applies_at_once(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    await world.say(world.alice, "limits set", daily_loss=100)
    raised = await world.say(world.alice, "limits set", daily_loss=1000)
    assert "Daily loss limit: 100 chips (becomes 1,000 chips <t:" in raised
    await world.start(world.alice)
    past = await world.bet(world.alice, "200")
    assert says(past, world.alice, PAST_LIMIT, "when", limit=100, lost=0)
    await world.say(world.alice, "blackjack stop")
    await world.tick(DAY - 60)
    await world.start(world.alice)
    past = await world.bet(world.alice, "200")
    assert says(past, world.alice, PAST_LIMIT, "when", limit=100, lost=0)
    await world.say(world.alice, "blackjack stop")
    await world.tick(60)
    shoes.add(STAND_AND_WIN)
    table = await world.start(world.alice)
    assert await world.bet(world.alice, "200") == said(world.alice, receipt(200, 800))
    await world.click(world.alice, table, "Stand")
    lowered = await world.say(world.alice, "limits set", daily_loss=50)
    assert "Daily loss limit: 50 chips\n" in lowered


async def test_the_reality_check_must_be_confirmed_before_the_next_bet(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    await world.say(world.alice, "limits set", session_minutes=20)
    await won_a_round(world, shoes)
    await world.tick(21 * 60)  # the table closes when idle; the session goes on
    await world.start(world.alice)
    check = await world.slash(world.alice, "bet", amount="100")
    message = check.original
    assert message is not None
    assert message.ephemeral
    assert message.content == said(world.alice, reality_check_text(21 * 60, 100))
    assert await world.ledger(world.alice) == [
        ("grant", START_CHIPS),
        ("bet", -100),
        ("payout", 200),
    ]
    await world.click(world.alice, message, "Continue")
    assert message.content == CONFIRMED
    assert await world.bet(world.alice, "100") == said(world.alice, receipt(100, 1_000))


async def test_the_stop_switch_refunds_a_live_round_and_stops_all_play(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add(STAND_AND_WIN)
    table = await world.start(world.alice)
    await world.bet(world.alice, "100")
    assert "Stand" in embed_text(table)  # the round is in play
    stopped = await world.say(world.admin, "blackjack-admin config", stop_all=True)
    assert "All play stopped: tables closed now: 1; their rounds were refunded." in stopped
    assert await world.ledger(world.alice) == [
        ("grant", START_CHIPS),
        ("bet", -100),
        ("refund", 100),
    ]
    assert world.running.tables.table_in(world.channel.id) is None
    assert await world.say(world.bob, "blackjack start") == STOPPED
    assert await world.say(world.bob, "daily") == STOPPED
    assert await world.say(world.alice, "bet", amount="10") == STOPPED
    await world.say(world.admin, "blackjack-admin config", stop_all=False)
    await world.start(world.bob)


async def test_tables_open_only_in_the_listed_channels_for_the_role(
    bot: BlackjackBot, world: World
) -> None:
    await world.say(
        world.admin, "blackjack-admin config", table_channels=f"<#{world.other_channel.id}>"
    )
    refused = await world.say(world.alice, "blackjack start")
    assert (
        refused
        == f"Tables can't open in this channel. Tables open in: <#{world.other_channel.id}>."
    )
    await world.start(world.alice, world.other_channel)
    role = world.fake.add_role(world.guild, "players", [])
    await world.say(world.admin, "blackjack-admin config", play_role=role)
    assert (await world.say(world.bob, "daily")) == (
        f"Playing here needs the <@&{role.id}> role. Nothing was changed."
    )
    world.alice.roles.append(role)  # sent with her next interaction's member
    assert (await world.say(world.alice, "daily")).startswith("You claimed")
    assert (await world.bet(world.alice, "10", channel=world.other_channel)).startswith("Bet 10.")
    refused = await world.bet(world.bob, "10", channel=world.other_channel)
    assert refused == f"Playing here needs the <@&{role.id}> role. Nothing was changed."


async def test_the_no_value_notice_comes_once_at_the_first_bet_and_in_the_rules(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add(STAND_AND_WIN)
    table = await world.start(world.alice)
    first = await world.slash(world.alice, "bet", amount="100")
    (receipt,) = first.all_messages()  # the notice rides in the bet's answer
    assert receipt.ephemeral
    assert receipt.embed is not None
    assert receipt.embed["description"] == FIRST_BET_NOTICE
    await world.click(world.alice, table, "Stand")
    again = await world.slash(world.alice, "bet", amount="100")
    assert again.followups == []
    assert again.original is not None
    assert again.original.embeds == []
    rules = await world.slash(world.alice, "blackjack rules")
    assert rules.original is not None
    shown = "\n".join(m.content for m in rules.all_messages())
    assert NO_VALUE_NOTICE in shown


#: Words a command that moved chips between players, or sold or bought them, would use.
_TRANSFER_WORDS = ("give", "pay", "transfer", "send", "sell", "buy", "redeem", "trade", "tip")


def _commands(data: dict[str, Any], prefix: str = "") -> list[tuple[str, dict[str, Any]]]:
    """Every leaf command of the synced tree, by its full name."""
    name = f"{prefix}{data['name']}"
    subs = [o for o in data.get("options", []) if o["type"] in (1, 2)]
    if not subs:
        return [(name, data)]
    return [leaf for sub in subs for leaf in _commands(sub, f"{name} ")]


async def test_no_command_moves_chips_between_players(bot: BlackjackBot, world: World) -> None:
    leaves = [leaf for c in world.fake.commands[None] for leaf in _commands(c.data)]
    for name, _data in leaves:
        assert not any(word in name.split() for word in _TRANSFER_WORDS), name
    # A member option names whose chips or limits a command reads, or the one account an
    # admin grants to or takes from (the bank's chips, never another player's).
    with_members = {
        name: sum(1 for o in data.get("options", []) if o["type"] in (6, 9))
        for name, data in leaves
    }
    assert {name for name, count in with_members.items() if count} == {
        "balance",
        "stats",
        "blackjack-admin grant",
        "blackjack-admin take",
        "blackjack-admin ledger",
        "blackjack-admin link",
        "blackjack-admin unlink",
        "blackjack-admin lift",
        "blackjack-admin player",
    }
    assert {name for name, count in with_members.items() if count > 1} == {"blackjack-admin link"}
    # The store: no operation takes two players but linking, and linking moves no chip.
    for owner in (db.Store, PlayLimitsStore, ReportStore, ShoeStore):
        for name, method in inspect.getmembers(owner, inspect.iscoroutinefunction):
            players = [p for p in inspect.signature(method).parameters if p in _PLAYER_PARAMS]
            assert len(players) <= 1 or name == "link", (owner.__name__, name)
    before = await world.chips()
    await world.say(
        world.admin, "blackjack-admin link", member=world.alice, other=world.bob, reason="alt"
    )
    assert await world.chips() == before


_PLAYER_PARAMS = ("user_id", "other_id", "to_user_id", "from_user_id", "member")


def test_the_readme_states_the_notice_and_tells_server_owners_not_to_sell_chips() -> None:
    readme = " ".join((Path(__file__).parents[2] / "README.md").read_text("utf-8").split())
    assert NO_VALUE_NOTICE in readme
    assert "linking these chips to anything sold or of value" in readme
