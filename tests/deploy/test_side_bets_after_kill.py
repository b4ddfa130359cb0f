"""Side bets outlive a SIGKILL between the deal and the settlement.

The bot runs as ``python -m bot`` with random shoes and every side bet on. Rounds are
played until one waits for a decision after the deal (21+3 and Perfect Pairs already
settled and paid in the deal's transaction, Buster live); the process is killed there
and started again, and the round is finished on the old buttons. Every side bet must be
paid exactly once, as the round's cards dictate (replayed from the journal), and every
balance must equal its ledger.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing

import pytest
from replay_rounds import check_settled_rounds
from table_players import PLAY_WEIGHTS, Casino, bot_process, read_economy

import db
from bot.tables.resume import BACK
from fakediscord import FakeDiscord
from fakediscord.records import FakeMessage
from tests.db.invariants import check_invariants
from tests.support.discord_world import embed_text, labels_enabled
from tests.support.table_buttons import round_no

SIDE_BETS = {"perfect_pairs": 5, "21plus3": 5, "buster": 5}


def side_bets_of(url: str, round_id: int) -> list[tuple[int, str, int]]:
    """The round's recorded side bets: (player, bet, payout), in the order recorded."""
    with closing(sqlite3.connect(db.sqlite_path(url))) as conn:
        rows = conn.execute(
            "SELECT user_id, bet, payout FROM side_bet_results WHERE round_id = ? ORDER BY id",
            (round_id,),
        )
        return [(int(user), str(bet), int(payout)) for user, bet, payout in rows]


def side_paid(url: str, round_id: int) -> int:
    """The chips the ledger credited for the round's side bets."""
    with closing(sqlite3.connect(db.sqlite_path(url))) as conn:
        (paid,) = conn.execute(
            "SELECT COALESCE(SUM(delta), 0) FROM ledger"
            " WHERE round_id = ? AND kind = 'side_payout'",
            (round_id,),
        ).fetchone()
        return int(paid)


def playable(message: FakeMessage) -> set[str]:
    return labels_enabled(message) & PLAY_WEIGHTS.keys()


async def finish_round(fake: FakeDiscord, casino: Casino, table: FakeMessage, before: int) -> None:
    """Stand (or decline insurance) until the round ``before`` is over."""
    for _ in range(20):
        if round_no(table) != before:
            return
        for player in casino.players:
            if "No insurance" in playable(table):
                await fake.click(player, table, label="No insurance")
            elif "Stand" in playable(table):
                await fake.click(player, table, label="Stand")
        await fake.wait_for(lambda: round_no(table) != before or bool(playable(table)))
    raise AssertionError("the round did not finish")


async def test_side_bets_are_paid_once_after_a_kill_between_deal_and_settlement(
    fake_discord: FakeDiscord, tmp_path: pytest.TempPathFactory
) -> None:
    url = f"sqlite:///{tmp_path}/chips.sqlite3"
    casino = Casino.build(fake_discord, "Casino", players=2)
    alice, bob = casino.players
    async with db.open_store(url) as store:
        await store.set_guild_settings(
            casino.guild.id,
            side_bets={
                "21+3": "100/40/30/10/5",
                "perfect-pairs": "25/12/6",
                "buster": "2/2/4/12/50/250",
            },
        )
    process = bot_process(fake_discord, url)
    await process.start()
    try:
        start = await fake_discord.slash(alice, "blackjack start", casino.channel)
        table = start.original
        assert table is not None
        await fake_discord.click(bob, table, label="Join")
        for _ in range(40):
            before = round_no(table)
            await fake_discord.slash(
                alice, "bet", casino.channel, amount="50", hands=2, **SIDE_BETS
            )
            await fake_discord.slash(bob, "bet", casino.channel, amount="50", buster=10)
            await fake_discord.wait_for(
                lambda before=before: bool(playable(table)) or round_no(table) != before  # type: ignore[misc]
            )
            if "Stand" in playable(table):
                break  # dealt, side bets decided or live, the settlement still to come
            await finish_round(fake_discord, casino, table, before)
        else:
            raise AssertionError("no round waited for a decision after its deal")
        async with db.open_store(url) as store:
            (in_play,) = await store.reports.round_history(casino.guild.id, limit=1)
        assert (in_play.status, in_play.staked) == ("open", 100 + 30 + 50 + 10)
        # 21+3 and Perfect Pairs were settled with the deal: results and payouts committed.
        at_the_deal = side_bets_of(url, in_play.round_id)
        assert sorted(bet for _, bet, _ in at_the_deal) == ["21+3"] * 2 + ["perfect-pairs"] * 2
        paid_at_the_deal = side_paid(url, in_play.round_id)
        assert paid_at_the_deal == sum(payout for _, _, payout in at_the_deal)

        await process.kill()
        await process.start()
        await fake_discord.wait_for(lambda: BACK in embed_text(table))
        await finish_round(fake_discord, casino, table, before)
    finally:
        await process.stop()
    assert process.process is not None
    assert process.process.returncode == 0

    async with db.open_store(url) as store:
        settled = await store.reports.get_round(in_play.round_id)
        assert settled is not None
        assert settled.status == "settled"
        for player, side_staked in ((alice, 30), (bob, 10)):
            rows = [
                row
                for row in await store.reports.ledger(casino.guild.id, player.id, 1000)
                if row.round_id == in_play.round_id
            ]
            kinds = [row.kind for row in rows]
            assert kinds.count("side_bet") == 1
            assert kinds.count("side_payout") <= (2 if player is alice else 1)
            assert -sum(r.delta for r in rows if r.kind == "side_bet") == side_staked
    # The resume paid Buster alone: the deal's side bets were neither recorded nor paid again.
    final = side_bets_of(url, in_play.round_id)
    assert [row for row in final if row[1] != "buster"] == at_the_deal
    buster_paid = sum(payout for _, bet, payout in final if bet == "buster")
    assert side_paid(url, in_play.round_id) == paid_at_the_deal + buster_paid
    assert await check_settled_rounds(url) >= 1  # hands and side bets as the cards dictate
    (await read_economy(url)).assert_consistent()
    await check_invariants(url)
