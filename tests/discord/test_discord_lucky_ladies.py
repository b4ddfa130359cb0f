"""Lucky Ladies through Discord: turned on by /blackjack-admin side-bets, staked with
``/bet lucky_ladies:``, settled with the round, and replayed by a bot started again in
the middle of a round.

The bet is read from the side-bet registry by every part of the bot; these tests are
its proof that a bet added there is offered, paid and journaled like the others.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from bot.app import BlackjackBot, build_bot
from bot.config import Config
from bot.tables.resume import BACK
from db import sqlite_path
from fakediscord.harness import running_bot
from tests.db.invariants import check_invariants
from tests.support.discord_world import World, embed_text
from tests.support.shoes import SPARE, START_CHIPS, ShoeQueue

# Alice Q♥ Q♥ (20); the dealer shows 6♠, holds 10♠ and draws 2♣: 18.
QUEENS = "Qh 6s Qh Ts " + SPARE
# Alice Q♥ Q♥; the dealer shows A♠ and holds K♦: a blackjack.
QUEENS_AND_BLACKJACK = "Qh As Qh Kd " + SPARE


async def lucky_ladies_on(world: World) -> str:
    return await world.say(
        world.admin, "blackjack-admin side-bets", bet="lucky-ladies", pay_table="1000/125/19/9/4"
    )


def recorded(url: str) -> list[tuple[str, str, str | None, int, int]]:
    with closing(sqlite3.connect(sqlite_path(url))) as conn:
        rows = conn.execute(
            "SELECT bet, pay_table, category, wagered, payout FROM side_bet_results ORDER BY id"
        )
        return [(str(b), str(p), c, int(w), int(o)) for b, p, c, w, o in rows]


async def test_queens_of_hearts_with_a_dealer_blackjack_pay_1000_to_1(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    changed = await lucky_ladies_on(world)
    assert "Lucky Ladies: pays 1000/125/19/9/4 (house edge at vegas-shoe: 24.71%)" in changed
    shoes.add(QUEENS_AND_BLACKJACK)
    table = await world.start(world.alice)
    rules = await world.say(world.alice, "blackjack rules")
    assert "• Lucky Ladies pays 1000/125/19/9/4 to 1 (house edge 24.71%)" in rules

    placed = await world.say(world.alice, "bet", amount="100", lucky_ladies=10)
    assert placed.startswith("Bet 100. Side bets: 10.")
    # The dealer's blackjack is not known yet: the bet is live until the settlement.
    assert "Lucky Ladies: 10 a hand" in embed_text(table)
    await world.click(world.alice, table, "No insurance")
    text = embed_text(table)
    assert "Alice: Lucky Ladies: queens of hearts with a dealer blackjack, wins 10,000" in text
    assert await world.ledger(world.alice) == [
        ("grant", START_CHIPS),
        ("bet", -100),
        ("side_bet", -10),
        ("side_payout", 10_010),
    ]


async def test_a_bet_of_a_lucky_ladies_table_that_is_off_is_refused(
    bot: BlackjackBot, world: World
) -> None:
    await world.start(world.alice)
    refused = await world.say(world.alice, "bet", amount="100", lucky_ladies=10)
    assert refused == "Lucky Ladies is not offered at this table."
    assert await world.ledger(world.alice) == [("grant", START_CHIPS)]


async def test_a_lucky_ladies_bet_is_replayed_and_paid_once_after_a_restart(
    world: World, tmp_path: Path
) -> None:
    config = Config(
        card_pictures=False,
        token=world.fake.token,
        database_url=f"sqlite:///{tmp_path / 'chips.sqlite3'}",
    )
    shoes = ShoeQueue()
    shoes.add(QUEENS)
    async with running_bot(
        world.fake, build_bot(config, clock=world.fake.clock, shoe_factory=shoes)
    ) as bot:
        world.bot = bot
        await lucky_ladies_on(world)
        table = await world.start(world.alice)
        await world.say(world.alice, "bet", amount="100", lucky_ladies=10)
        assert "Lucky Ladies: 10 a hand" in embed_text(table)
        await world.settle()
    # Stopped mid-round: the bet is staked and nothing is settled yet.
    assert recorded(config.database_url) == []

    async with running_bot(world.fake, build_bot(config, clock=world.fake.clock)) as bot:
        world.bot = bot
        await world.settle()
        assert BACK in embed_text(table)
        await world.click(world.alice, table, "Stand")
        text = embed_text(table)
        assert "Alice: Lucky Ladies: queens of hearts, wins 1,250" in text
        assert await world.ledger(world.alice) == [
            ("grant", START_CHIPS),
            ("bet", -100),
            ("side_bet", -10),
            ("payout", 200),
            ("side_payout", 1_260),
        ]
    assert recorded(config.database_url) == [
        ("lucky-ladies", "1000/125/19/9/4", "queens of hearts", 10, 1_260)
    ]
    await check_invariants(config.database_url)
