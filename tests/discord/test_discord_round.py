"""A whole round at one table through Discord: every click answered by editing the table."""

from __future__ import annotations

from bot.app import BlackjackBot
from tests.support.discord_world import World, embed_text, labels_enabled
from tests.support.shoes import SPARE, START_CHIPS, THREE_PLAYER_ROUND, ShoeQueue


async def test_three_players_play_a_full_round_by_buttons(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add(THREE_PLAYER_ROUND)
    fake, alice, bob, carol = world.fake, world.alice, world.bob, world.carol
    table = await world.start(alice)
    assert "Place your bets" in embed_text(table)
    assert labels_enabled(table) == {"Join", "Leave"}  # nothing to bet again yet

    joined = await world.click(bob, table, "Join")
    assert joined.response_type == 7
    assert joined.original is table
    assert await world.say(carol, "blackjack join") == "You sat down. Bet with /bet amount [hands]."
    assert "## Carol" in embed_text(table)

    assert await world.bet(alice, "100") == f"Bet 100. Balance: {START_CHIPS - 100:,}."
    assert await world.bet(bob, "100") == f"Bet 100. Balance: {START_CHIPS - 100:,}."
    assert "Bet 100" in embed_text(table)
    await world.bet(carol, "25")

    # Everyone bet: the cards are out and the dealer's ace asks for insurance.
    text = embed_text(table)
    assert "**Insurance?** The dealer shows an ace" in text
    assert "**Dealer** A♦ ?? · shows 11" in text
    assert labels_enabled(table) == {"Insurance", "No insurance", "Join", "Leave"}
    for member in (alice, bob, carol):
        answer = await world.click(member, table, "No insurance")
        assert answer.response_type == 7, (member.user.username, answer.content)
    text = embed_text(table)
    assert "**Your move**" in text
    assert "Dealer checks the hole card: no blackjack" in text
    assert "▶ 8♠ 8♥ · **16** · 100" in text
    assert "• A♣ K♣ · **BJ** · 25" in text
    assert {"Hit", "Stand", "Double", "Split", "Surrender", "Hint"} <= labels_enabled(table)

    hint = await fake.click(alice, table, label="Hint")
    assert hint.ephemeral
    assert "split" in (hint.content or "").lower()

    await world.click(alice, table, "Split")
    assert "▶ 8♠ 3♠ · **11** · 100" in embed_text(table)
    await world.click(alice, table, "Double")
    await world.click(bob, table, "Surrender")
    await world.click(alice, table, "Stand")

    # The last decision brought in the dealer; the round is paid and betting is open again.
    text = embed_text(table)
    assert "Place your bets" in text
    assert "Dealer: A♦ 5♦ 2♣ (18)" in text
    assert "Alice (hand 1): 8♠ 3♠ K♥ — 21 beats 18: wins 200, 400 back" in text
    assert "Bob: 10♥ 6♥ — surrendered: 50 back" in text
    assert "Carol: A♣ K♣ — blackjack: wins 37, 62 back" in text
    assert "Net **+200**" in text
    assert await world.balance(alice) == START_CHIPS + 200
    assert await world.balance(bob) == START_CHIPS - 50
    assert await world.balance(carol) == START_CHIPS + 37
    assert await world.ledger(alice) == [
        ("grant", START_CHIPS),
        ("bet", -100),
        ("split", -100),
        ("double", -100),
        ("payout", 500),
    ]
    # One message for the whole table, edited in place.
    assert fake.messages_in(world.channel) == [table]


async def test_insurance_taken_against_a_dealer_blackjack_pays_two_to_one(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add("Ts Ad 9c Kd " + SPARE)  # Alice 10 9; the dealer A K
    table = await world.start(world.alice)
    await world.bet(world.alice, "100")
    taken = await world.click(world.alice, table, "Insurance")
    assert taken.response_type == 7
    text = embed_text(table)
    assert "Place your bets" in text
    assert "Dealer has blackjack: A♦ K♦" in text
    assert "Alice: insurance of 50 wins 100" in text
    assert await world.balance(world.alice) == START_CHIPS
    assert await world.ledger(world.alice) == [
        ("grant", START_CHIPS),
        ("bet", -100),
        ("insurance", -50),
        ("payout", 150),
    ]


async def test_hit_draws_a_card_and_a_bust_loses_the_stake(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add("Ts 9h 6c 8d 9s " + SPARE)  # Alice 10 6 draws a 9
    table = await world.start(world.alice)
    await world.bet(world.alice, "100")
    hit = await world.click(world.alice, table, "Hit")
    assert hit.response_type == 7
    text = embed_text(table)
    assert "Alice: 10♠ 6♣ 9♠ — " in text
    assert "Alice: net -100" in text
    assert await world.balance(world.alice) == START_CHIPS - 100


async def test_a_new_shoe_is_announced_with_action_and_standing_and_its_seed_revealed(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add("As 9h Kc 8d")  # exactly one round: Alice's blackjack empties the shoe
    table = await world.start(world.alice)
    first_commitment = world.table().commitment
    await world.bet(world.alice, "100")
    text = embed_text(table)
    assert "## Shuffled\nShuffle: a new shoe (commitment " in text
    assert "Alice: action 100, standing +150" in text
    fairness = await world.say(world.bob, "blackjack fairness")
    assert f"Previous shoe: commitment `{first_commitment}`" in fairness
    assert "Check it: `python -m bot verify --seed " in fairness


async def test_every_amount_has_thousands_separators(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add("Ts Tc 7c 9d " + SPARE)  # Alice 10 7 against the dealer's 10 9
    table = await world.start(world.alice)
    await world.bet(world.alice, "1000")
    assert "Alice is dealt 10♠ 7♣ (17), stake 1,000" in embed_text(table)
    assert "▶ 10♠ 7♣ · **17** · 1,000" in embed_text(table)
    await world.click(world.alice, table, "Stand")
    text = embed_text(table)
    assert "Alice: 10♠ 7♣ — 17 loses to 19: loses 1,000" in text
    assert "Net **-1,000**" in text
