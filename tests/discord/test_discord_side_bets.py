"""Side bets through Discord: turned on by /blackjack-admin side-bets, placed with /bet on
several hands, shown on the table, settled, and listed by /blackjack rules and /stats."""

from __future__ import annotations

from bot.app import BlackjackBot
from cogs.table.render import ROUND_REFUNDED_BUT_SIDE_BETS
from tests.support.discord_world import World, embed_text
from tests.support.shoes import SPARE, START_CHIPS, ShoeQueue

# Alice's two hands: 10♠ J♠ and 5♥ 5♥; Bob 9♣ 8♣. The dealer shows Q♠ (a straight flush
# with Alice's first hand), holds 6♦ and busts on 10♣ with three cards.
THREE_HANDS = "Ts 5h 9c Qs Js 5h 8c 6d Tc " + SPARE
# Alice 10♠ 6♥ hits K♦ and busts; the dealer, 10♦ 2♣, plays out for Buster: 3♠ 9♠, bust.
ALL_BUST = "Ts Td 6h 2c Kd 3s 9s " + SPARE
# Alice 10♠ J♠ and the dealer's Q♠: a 21+3 straight flush, no pair; the dealer holds 6♦.
STRAIGHT_FLUSH = "Ts Qs Js 6d " + SPARE
ALL_ON = {"21+3": "9", "perfect-pairs": "25/12/6", "buster": "2/2/4/12/50/250"}


async def side_bets_on(world: World, bets: dict[str, str]) -> str:
    """Each bet's pay table set with /blackjack-admin side-bets; the last answer."""
    said = ""
    for bet, pays in bets.items():
        said = await world.say(world.admin, "blackjack-admin side-bets", bet=bet, pay_table=pays)
    return said


async def test_three_side_bets_on_several_hands(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    changed = await side_bets_on(world, ALL_ON)
    assert "21+3: pays 9" in changed
    assert "Buster Blackjack: pays 2/2/4/12/50/250" in changed
    shoes.add(THREE_HANDS)
    alice, bob = world.alice, world.bob
    table = await world.start(alice)
    await world.click(bob, table, "Join")

    rules = await world.say(alice, "blackjack rules")
    assert "• 21+3 pays 9 to 1 (house edge 3.24%)" in rules
    assert "• Perfect Pairs pays 25/12/6 to 1 (house edge 6.11%)" in rules
    assert "• Buster Blackjack pays 2/2/4/12/50/250 to 1 (house edge 8.25%)" in rules

    placed = await world.say(
        alice, "bet", amount="100", hands=2, perfect_pairs=10, buster=10, **{"21plus3": 10}
    )
    assert placed == f"Bet 100 a hand on 2 hands, 200 in all. Side bets: 60. Balance: {740:,}."
    assert "21+3: 10 a hand" in embed_text(table)  # live on the table until settled
    await world.say(bob, "bet", amount="50", buster=5)

    text = embed_text(table)
    # Latest shows the last few lines: the side bets decided by the deal, then the peek.
    assert "Alice (hand 2): Perfect Pairs: perfect pair, wins 250" in text
    assert "Dealer checks the hole card: no blackjack" in text
    assert "Buster Blackjack: 5 a hand" in text
    # 21+3 (90) and Perfect Pairs (250) are paid with the deal, before anyone acts.
    assert await world.balance(alice) == 740 + 100 + 260
    for member in (alice, alice, bob):
        await world.click(member, table, "Stand")

    text = embed_text(table)
    assert "Dealer busts: Q♠ 6♦ 10♣ (26)" in text
    assert "Alice (hand 1): 21+3: straight flush, wins 90" in text
    assert "Bob: Buster Blackjack: dealer busts with 3 cards, wins 10" in text
    assert "21+3: 10 a hand" not in text
    assert await world.ledger(alice) == [
        ("grant", START_CHIPS),
        ("bet", -200),
        ("side_bet", -60),
        ("side_payout", 360),
        ("payout", 400),
        ("side_payout", 60),
    ]
    assert await world.ledger(bob) == [
        ("grant", START_CHIPS),
        ("bet", -50),
        ("side_bet", -5),
        ("payout", 100),
        ("side_payout", 15),
    ]
    stats = await world.slash(alice, "stats")
    assert stats.original is not None
    shown = embed_text(stats.original)
    assert "Side bets net" in shown
    assert "+360" in shown


async def test_a_table_stopped_after_the_deal_keeps_its_side_bets_and_refunds_the_rest(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    await side_bets_on(world, ALL_ON)
    shoes.add(STRAIGHT_FLUSH)
    table = await world.start(world.alice)
    await world.say(
        world.alice, "bet", amount="100", perfect_pairs=10, buster=10, **{"21plus3": 10}
    )
    assert "Alice: 21+3: straight flush, wins 90" in embed_text(table)
    assert "Alice: Perfect Pairs: no pair, loses 10" in embed_text(table)
    assert await world.balance(world.alice) == START_CHIPS - 130 + 100
    # Only Buster is still live on the seat.
    assert "Buster Blackjack: 10 a hand" in embed_text(table)
    assert "21+3: 10 a hand" not in embed_text(table)

    # An admin's stop of all play voids the round in play (a host's waits for its end).
    stopped = await world.say(world.admin, "blackjack-admin config", stop_all=True)
    assert "All play stopped: tables closed now: 1" in stopped
    assert ROUND_REFUNDED_BUT_SIDE_BETS in embed_text(table)
    # The main bet and the live Buster bet come back; 21+3 and Perfect Pairs were settled.
    assert await world.ledger(world.alice) == [
        ("grant", START_CHIPS),
        ("bet", -100),
        ("side_bet", -30),
        ("side_payout", 100),
        ("refund", 110),
    ]
    assert await world.balance(world.alice) == START_CHIPS + 90 - 10


async def test_a_buster_bet_makes_the_dealer_play_out_an_all_bust_round(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    await side_bets_on(world, {"buster": "2/2/4/12/50/250"})
    shoes.add(ALL_BUST)
    table = await world.start(world.alice)
    await world.say(world.alice, "bet", amount="50", buster=10)
    await world.click(world.alice, table, "Hit")
    text = embed_text(table)
    assert "Dealer busts: 10♦ 2♣ 3♠ 9♠ (24)" in text
    assert "Alice: Buster Blackjack: dealer busts with 4 cards, wins 20" in text
    assert await world.balance(world.alice) == START_CHIPS - 50 + 20


async def test_a_player_favourable_pay_table_is_refused_with_the_figure(
    bot: BlackjackBot, world: World
) -> None:
    refused = await side_bets_on(world, {"perfect-pairs": "25/15/12"})
    assert refused == (
        "Nothing changed: Perfect Pairs paying 25/15/12 gives the player an edge of 22.83% "
        "at 6 decks, so it cannot be offered."
    )
    shown = await world.say(world.admin, "blackjack-admin config")
    assert "Perfect Pairs: off" in shown


async def test_a_side_bet_that_is_off_is_refused_and_stakes_nothing(
    bot: BlackjackBot, world: World
) -> None:
    await world.start(world.alice)
    refused = await world.say(world.alice, "bet", amount="100", buster=10)
    assert refused == "Buster Blackjack is not offered at this table."
    assert await world.ledger(world.alice) == [("grant", START_CHIPS)]


async def test_a_huge_or_infinite_payout_is_refused_and_changes_nothing(
    bot: BlackjackBot, world: World
) -> None:
    # 1e999999999 as an exact fraction would hold the event loop for hours: the answer
    # coming back at all shows it is refused before it is built.
    for pays in ("1e999999999", "1e-999999999", "inf", "-Infinity", "nan"):
        refused = await side_bets_on(world, {"21+3": pays})
        assert refused.startswith(f"Nothing changed: 21+3: {pays!r} is not a pay table of it")
    shown = await world.say(world.admin, "blackjack-admin config")
    assert "21+3: off" in shown


async def test_a_side_bet_above_the_servers_maximum_edge_is_left_off_and_said_so(
    bot: BlackjackBot, world: World
) -> None:
    changed = await side_bets_on(world, ALL_ON)
    # The admin sees each bet's edge at the server's default rules (vegas-shoe: 6 decks).
    assert "Perfect Pairs: pays 25/12/6 (house edge at vegas-shoe: 6.11%)" in changed
    assert "the largest house edge a table offers: 25%" in changed
    await world.start(world.alice, preset="single-deck")

    rules = await world.say(world.alice, "blackjack rules")
    assert "• 21+3 pays 9 to 1 (house edge 13.30%)" in rules
    assert (
        "• Perfect Pairs paying 25/12/6 is not offered at this table: its house edge here "
        "(47.06%) is above this server's maximum (25%)."
    ) in rules
    assert "Perfect Pairs pays" not in rules
    refused = await world.say(world.alice, "bet", amount="100", perfect_pairs=10)
    assert refused == "Perfect Pairs is not offered at this table."
    assert await world.ledger(world.alice) == [("grant", START_CHIPS)]

    # At single-deck default rules the admin is told the bet is left off there.
    await world.say(world.admin, "blackjack-admin config", default_preset="single-deck")
    changed = await world.say(world.admin, "blackjack-admin side-bets", max_edge=50)
    assert (
        "Perfect Pairs: pays 25/12/6 (house edge at single-deck: 47.06%)" in changed
    )  # under the new maximum of 50%
    shown = await world.say(world.admin, "blackjack-admin side-bets", max_edge=40)
    assert (
        "Perfect Pairs: pays 25/12/6 (house edge at single-deck: 47.06%, above the maximum: "
        "tables of these rules leave it off)"
    ) in shown

    # A table opened under a higher maximum offers it.
    await world.say(world.admin, "blackjack-admin side-bets", max_edge=50)
    await world.start(world.bob, world.other_channel, preset="single-deck")
    rules = await world.say(world.bob, "blackjack rules", world.other_channel)
    assert "• Perfect Pairs pays 25/12/6 to 1 (house edge 47.06%)" in rules


async def test_bet_all_leaves_room_for_the_side_bets(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    await side_bets_on(world, ALL_ON)
    await world.say(world.admin, "blackjack-admin take", member=world.alice, amount=315)
    await world.start(world.alice)
    answer = await world.say(world.alice, "bet", amount="all", perfect_pairs=100)
    assert answer.startswith("Bet 585. Side bets: 100. Balance: 0.")
    assert await world.balance(world.alice) == 0


async def test_side_bets_lists_them_and_sets_a_pay_table_only_with_its_bet(
    bot: BlackjackBot, world: World
) -> None:
    shown = await world.say(world.admin, "blackjack-admin side-bets")
    assert shown.startswith("Side bets of this server:\n21+3: off\nPerfect Pairs: off")
    assert "Lucky Ladies: off" in shown
    for half in ({"bet": "buster"}, {"pay_table": "2/2/4/12/50/250"}):
        refused = await world.say(world.admin, "blackjack-admin side-bets", **half)
        assert refused == (
            "Nothing changed: a pay table is set with both options, bet and pay_table."
        )
    assert (await world.store.get_guild_settings(world.guild.id)).side_bets == ()
    on = await side_bets_on(world, {"buster": "2/2/4/12/50/250"})
    assert "Buster Blackjack: pays 2/2/4/12/50/250" in on
    off = await side_bets_on(world, {"buster": "off"})
    assert "Buster Blackjack: off" in off
    assert (await world.store.get_guild_settings(world.guild.id)).side_bets == ()
