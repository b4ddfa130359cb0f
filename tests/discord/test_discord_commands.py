"""Every player command and table button, through the fake Discord."""

from __future__ import annotations

import re

from bot.app import BlackjackBot
from bot.i18n import _
from bot.tables import TablePhase
from cogs.table.render import ROUND_REFUNDED, STAKE_REFUNDED
from cogs.table.restart_text import jump_link
from tests.support.discord_world import World, embed_text, labels_enabled
from tests.support.shoes import SPARE, START_CHIPS, ShoeQueue
from tests.support.speech import CLAIMED_ALREADY, claimed, said, says

DAY = 86_400
LEFT = _("You left.")


async def test_a_second_start_points_at_the_open_table(bot: BlackjackBot, world: World) -> None:
    table = await world.start(world.alice)
    answer = await world.say(world.bob, "blackjack start")
    here = _(
        "{refusal} It's here: {link}",
        refusal=_("A table is already open in this channel."),
        link=jump_link(world.guild.id, world.channel.id, table.id),
    )
    assert answer == said(world.bob, here)
    assert answer.endswith(f"/{world.guild.id}/{world.channel.id}/{table.id}")
    assert world.fake.messages_in(world.channel) == [table]


async def test_start_takes_a_preset_and_bet_limits(bot: BlackjackBot, world: World) -> None:
    table = await world.start(world.alice, preset="single-deck", min_bet=50, max_bet=500)
    text = embed_text(table)
    assert text.startswith("# Blackjack · single-deck")
    assert "50–500 a hand" in text
    refused = await world.bet(world.alice, "20")
    minimum = _("The table minimum is {limit}; you bet {amount}.", limit=50, amount=20)
    assert refused == said(world.alice, minimum)


async def test_a_table_needs_a_table_to_join_leave_bet_or_stop(
    bot: BlackjackBot, world: World
) -> None:
    none_here = said(
        world.alice, _("There is no table in this channel. Start one with /blackjack start.")
    )
    assert await world.say(world.alice, "blackjack join") == none_here
    assert await world.say(world.alice, "blackjack leave") == none_here
    assert await world.say(world.alice, "blackjack stop") == none_here
    assert await world.say(world.alice, "blackjack fairness") == none_here
    assert await world.bet(world.alice, "100") == none_here


async def test_leave_by_command_and_by_button(bot: BlackjackBot, world: World) -> None:
    table = await world.start(world.alice)
    await world.click(world.bob, table, "Join")
    assert "## Bob" in embed_text(table)
    left = await world.click(world.bob, table, "Leave")
    assert left.response_type == 7
    assert await left.wait_for_followups(1)
    assert left.followups[0].content == said(world.bob, LEFT)
    assert left.followups[0].ephemeral
    assert "## Bob" not in embed_text(table)
    not_seated = _("You are not seated at this table.")
    assert await world.say(world.bob, "blackjack leave") == said(world.bob, not_seated)
    # The host leaving empties the table: it closes.
    assert await world.say(world.alice, "blackjack leave") == said(world.alice, LEFT)
    assert "**Table closed** · Everyone left the table." in embed_text(table)
    assert table.buttons() == []


async def test_leaving_during_a_round_takes_effect_when_it_ends(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add("Ts 9h 7c 8d " + SPARE)  # Alice 10 7, dealer 9 8
    table = await world.start(world.alice)
    await world.bet(world.alice, "100")
    answer = await world.say(world.alice, "blackjack leave")
    assert answer == said(world.alice, _("You'll leave when this round ends."))
    assert "Alice (leaving)" in embed_text(table)
    await world.click(world.alice, table, "Stand")
    assert "**Table closed** · Everyone left the table." in embed_text(table)
    assert await world.balance(world.alice) == START_CHIPS  # 17 pushes 17


async def test_bet_buttons_repeat_or_double_the_last_bet(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add("Ts 9h 7c 8d 2c Ts 9h 7c 8d " + SPARE)
    table = await world.start(world.alice)
    assert {"Bet again", "Bet 2×"}.isdisjoint(labels_enabled(table))  # no bet to repeat yet
    await world.bet(world.alice, "100", hands=2)
    await world.click(world.alice, table, "Stand")
    await world.click(world.alice, table, "Stand")
    assert world.table().phase is TablePhase.BETTING
    before = await world.balance(world.alice)
    doubled = await world.click(world.alice, table, "Bet 2×")
    assert doubled.response_type == 7  # the table, showing the bet, is the click's answer
    await world.settle()
    assert doubled.followups == []
    assert await world.balance(world.alice) == before - 400
    seat = world.table().seats[0]
    assert (seat.bet, seat.spots) == (200, 2)


async def test_a_table_that_takes_no_bet_twice_offers_no_bet_2x(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add("Ts 9h 7c 8d " + SPARE)
    table = await world.start(world.alice, preset="reno-1972")
    await world.bet(world.alice, "2")
    await world.click(world.alice, table, "Stand")
    assert world.table().phase is TablePhase.BETTING
    assert "Bet again" in labels_enabled(table)
    assert "Bet 2×" not in {button.get("label") for button in table.buttons()}


async def test_hint_gives_basic_strategy_privately(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add("Ts 9h 6c 8d " + SPARE)  # Alice 16 against a 9
    table = await world.start(world.alice)
    await world.bet(world.alice, "100")
    hint = await world.fake.click(world.alice, table, label="Hint")
    assert hint.response_type == 4
    assert hint.ephemeral
    assert "surrender" in (hint.content or "").lower()
    nobody = await world.fake.click(world.bob, table, label="Hint")
    assert nobody.ephemeral
    not_seated = _("You are not seated at this table. Join, then bet in the next round.")
    assert nobody.content == said(world.bob, not_seated)


async def test_rules_name_every_rule_and_the_house_edge(bot: BlackjackBot, world: World) -> None:
    await world.start(world.alice, preset="single-deck")
    rules = await world.say(world.bob, "blackjack rules")
    assert rules.startswith(
        "**Table rules: single-deck**\n"
        "This table deals a single-deck casino game where the dealer hits soft 17.\n"
    )
    assert "The dealer hits soft 17." in rules
    assert "Blackjack pays 3:2." in rules
    assert "No surrender." in rules
    assert re.search(r"House edge with perfect basic strategy: \*\*\d\.\d\d%\*\*", rules)


async def test_fairness_shows_the_commitment_and_how_to_verify(
    bot: BlackjackBot, world: World
) -> None:
    await world.start(world.alice)
    text = await world.say(world.bob, "blackjack fairness")
    commitment = world.table().commitment
    assert f"commitment `{commitment}`" in text
    assert "nothing revealed so far" in text


async def test_only_the_host_or_a_channel_manager_stops_a_table(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add("Ts 9h 7c 8d " + SPARE)
    table = await world.start(world.alice)
    await world.click(world.carol, table, "Join")  # Carol has not bet: no deal yet
    await world.bet(world.alice, "100")
    before = await world.chips()
    refused = await world.say(world.bob, "blackjack stop")
    not_yours = _("Only the host or someone with Manage Channels can stop this table.")
    assert refused == said(world.bob, not_yours)
    assert await world.chips() == before
    stopped = await world.say(world.mod, "blackjack stop")
    closed = _("Table closed. Any bets not yet dealt were refunded.")
    assert stopped == said(world.mod, closed)
    text = embed_text(table)
    assert "**Table closed** · Stopped by Moderator.\n" + ROUND_REFUNDED in text
    # Nothing looks live: no cards, totals, stakes or latest events; the seat says refunded.
    assert f"## Alice\n{STAKE_REFUNDED}\n" in text
    for live in ("· 100", "Latest", "Dealer"):
        assert live not in text
    assert table.buttons() == []
    assert await world.balance(world.alice) == START_CHIPS
    assert (await world.ledger(world.alice))[-1] == ("refund", 100)

    await world.start(world.bob)
    host_stops = await world.say(world.bob, "blackjack stop")
    assert host_stops == said(world.bob, closed)


async def test_a_table_stopped_mid_round_closes_after_paying_it_and_says_nothing_was_refunded(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add("Ts 9h 7c 8d " + SPARE)  # Alice 10 7 against the dealer's 9 8: a push
    table = await world.start(world.alice)
    await world.bet(world.alice, "100")
    stopped = await world.say(world.mod, "blackjack stop")
    played_out = _("The round in play is played out; the table closes when it ends.")
    assert stopped == said(world.mod, played_out)
    await world.click(world.alice, table, "Stand")
    text = embed_text(table)
    assert "**Table closed** · Stopped by Moderator.\n## Alice\nNothing at stake\n" in text
    assert "Alice: 10♠ 7♣ 17 push · balance change ±0" in text
    assert ROUND_REFUNDED not in text
    assert STAKE_REFUNDED not in text
    assert (await world.ledger(world.alice))[-2:] == [("bet", -100), ("payout", 100)]


async def test_balance_shows_yours_or_a_members(bot: BlackjackBot, world: World) -> None:
    mine = _("You have {amount} chips.", amount=START_CHIPS)
    assert await world.say(world.alice, "balance") == said(world.alice, mine)
    other = await world.say(world.alice, "balance", member=world.bob)
    bobs = _("{member} has {amount} chips.", member=world.bob.mention, amount=START_CHIPS)
    assert other == said(world.alice, bobs)


async def test_reading_a_members_balance_opens_no_account(bot: BlackjackBot, world: World) -> None:
    await world.say(world.admin, "blackjack-admin config", starting_chips=700)
    other = await world.say(world.alice, "balance", member=world.bob)
    bobs = _("{member} has {amount} chips.", member=world.bob.mention, amount=700)
    assert other == said(world.alice, bobs)  # what Bob would open with
    assert await world.ledger(world.bob) == []  # no account, no grant row
    board = await world.store.reports.leaderboard(world.guild.id, 1, 10, caller_id=world.bob.id)
    assert board.caller is None


async def test_daily_tops_up_once_a_day(bot: BlackjackBot, world: World) -> None:
    first = await world.say(world.alice, "daily")
    assert claimed(first, world.alice, START_CHIPS + 250)
    again = await world.say(world.alice, "daily")
    assert says(again, world.alice, CLAIMED_ALREADY, "when", balance=START_CHIPS + 250)
    assert await world.balance(world.alice) == START_CHIPS + 250
    world.fake.clock.advance(DAY)
    assert claimed(await world.say(world.alice, "daily"), world.alice, START_CHIPS + 500)
    assert await world.ledger(world.alice) == [
        ("grant", START_CHIPS),
        ("daily", 250),
        ("daily", 250),
    ]


async def test_stats_count_the_hands_played(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add("As 9h Kc 8d " + SPARE)  # Alice blackjack
    await world.start(world.alice)
    await world.bet(world.alice, "100")
    reply = await world.slash(world.bob, "stats", member=world.alice)
    assert reply.ephemeral
    embed = reply.embed
    assert embed is not None
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert embed["title"] == "Stats · Alice"
    assert fields["Hands"] == "1"
    assert fields["Blackjacks"] == "1"
    assert fields["Net"] == "+150"
    assert fields["Biggest win"] == "150"
    mine = await world.slash(world.bob, "stats")
    assert mine.embed is not None
    assert {f["name"]: f["value"] for f in mine.embed["fields"]}["Hands"] == "0"


async def test_leaderboard_pages_ten_at_a_time_with_your_own_rank(
    bot: BlackjackBot, world: World
) -> None:
    fake = world.fake
    players = [fake.add_member(world.guild, f"player{n:02}") for n in range(12)]
    await fake.sync()
    for rank, member in enumerate(players):
        await world.store.adjust(world.guild.id, member.id, 10_000 - rank, world.admin.id, "seed")
    newcomer = await world.slash(world.alice, "leaderboard")
    assert newcomer.embed is not None
    assert newcomer.embed["fields"][0]["value"].startswith("Not on the board yet")
    await world.say(world.alice, "balance")
    reply = await world.slash(world.alice, "leaderboard")
    assert reply.ephemeral
    board = reply.original
    assert board is not None
    assert board.embed is not None
    lines = board.embed["description"].splitlines()
    assert len(lines) == 10
    assert lines[0] == f"`#1` <@{players[0].id}> · {START_CHIPS + 10_000:,}"
    you = board.embed["fields"][0]
    assert you["name"] == "You"
    assert you["value"] == f"`#13` of 13 · {START_CHIPS:,}"
    assert board.embed["footer"]["text"] == "Page 1 of 2 · 13 players"
    assert labels_enabled(board) == {"Next ▶"}

    page_two = await fake.click(world.alice, board, label="Next ▶")
    assert page_two.response_type == 7
    assert board.embed["footer"]["text"] == "Page 2 of 2 · 13 players"
    assert board.embed["description"].splitlines() == [
        f"`#11` <@{players[10].id}> · {START_CHIPS + 10_000 - 10:,}",
        f"`#12` <@{players[11].id}> · {START_CHIPS + 10_000 - 11:,}",
        f"`#13` <@{world.alice.id}> · {START_CHIPS:,}",
    ]
    assert labels_enabled(board) == {"◀ Previous"}
    await fake.click(world.alice, board, label="◀ Previous")
    assert board.embed["footer"]["text"] == "Page 1 of 2 · 13 players"


async def test_commands_are_synced_globally_without_a_dev_guild(
    bot: BlackjackBot, world: World
) -> None:
    synced = {command.name: command.data for command in world.fake.commands[None]}
    assert sorted(synced) == [
        "balance",
        "bet",
        "blackjack",
        "blackjack-admin",
        "daily",
        "leaderboard",
        "limits",
        "stats",
        "tournament",
    ]
    assert sorted(o["name"] for o in synced["tournament"]["options"]) == [
        "bet",
        "cancel",
        "create",
        "join",
        "standings",
        "start",
    ]
    assert sorted(o["name"] for o in synced["blackjack"]["options"]) == [
        "cash-in",
        "cash-out",
        "coach",
        "fairness",
        "join",
        "leave",
        "rules",
        "start",
        "stop",
    ]
    # Hidden from members without Manage Server (1 << 5) unless the server says otherwise.
    assert int(synced["blackjack-admin"]["default_member_permissions"]) == 1 << 5
    assert world.guild.id not in world.fake.commands
