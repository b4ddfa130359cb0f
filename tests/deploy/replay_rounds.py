"""Every settled round, checked against the engine: replayed from its shoe and its journal.

A round's journal (``table_actions``) holds its deal (the shoe's seed and position,
and the bets) and every decision after it. Replaying them through the engine
must give the payouts the ledger credited, chip for chip: that is what proves a
round resumed after a kill was dealt and paid as its cards dictate. Side bets too:
the deal row records their stakes and pay tables, and the replayed cards decide them.
A round voided after its deal kept the side bets the deal settled (21+3, Perfect Pairs):
their payouts must equal the replayed deal's too.
"""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import asyncpg

import db
from bot.engine import Round, Rules, shoe_from_dict
from bot.tables.journal import DEAL, TIMEOUT, dealt_side_bets, time_out
from bot.tables.results import payouts_of
from bot.tables.side_bets import side_bet_outcomes
from db import sqlite_path
from db.statements import numbered

SETTLED = "SELECT id, rules_json FROM rounds WHERE status = 'settled' ORDER BY id"
VOIDED = "SELECT id, rules_json FROM rounds WHERE status = 'void' ORDER BY id"
PAID = (
    "SELECT user_id, kind, SUM(delta) FROM ledger WHERE round_id = ?"
    " AND kind IN ('payout', 'side_payout') GROUP BY user_id, kind"
)


def _dealt(rules_json: str, actions: list[db.TableAction]) -> tuple[Round, dict[str, Any]]:
    """The round as its deal row deals it, and the deal's record."""
    assert actions, "a dealt round has a journal"
    assert actions[0].action == DEAL, actions[0]
    assert actions[0].detail is not None
    deal = json.loads(actions[0].detail)
    bets = [(str(pid), [int(s) for s in stakes]) for pid, stakes in deal["bets"]]
    rules = Rules.from_dict(json.loads(rules_json))
    plays_out = bool(deal.get("dealer_plays_out", False))
    round_ = Round.deal(rules, shoe_from_dict(deal["shoe"]), bets, dealer_plays_out=plays_out)
    return round_, deal


def _side_paid(
    round_: Round, deal: dict[str, Any], paid: dict[tuple[int, str], int], *, settled: bool
) -> dict[tuple[int, str], int]:
    """``paid`` with the side bets' payouts added (only the deal's, unless ``settled``)."""
    offered, stakes = dealt_side_bets(deal)
    for outcome in side_bet_outcomes(round_, offered, stakes, settled=settled):
        if outcome.payout:
            key = (int(outcome.player_id), "side_payout")
            paid[key] = paid.get(key, 0) + outcome.payout
    return paid


def replay_round(rules_json: str, actions: list[db.TableAction]) -> dict[tuple[int, str], int]:
    """The chips the engine pays each player for the round these journal rows describe,
    by (player, ledger kind): 'payout' for the hands, 'side_payout' for the side bets."""
    round_, deal = _dealt(rules_json, actions)
    for row in actions[1:]:
        if row.action == TIMEOUT:
            time_out(round_, row.player)
        else:
            round_.act(row.player, row.action)
    assert round_.is_finished, f"round {actions[0].round_id}: the journal leaves it unfinished"
    paid = {
        (user, "payout"): amount
        for user, amount in payouts_of(round_.settlement()).items()
        if amount
    }
    return _side_paid(round_, deal, paid, settled=True)


def replay_deal(rules_json: str, actions: list[db.TableAction]) -> dict[tuple[int, str], int]:
    """The chips the deal alone pays (the side bets it settles), by (player, ledger kind)."""
    round_, deal = _dealt(rules_json, actions)
    return _side_paid(round_, deal, {}, settled=False)


async def _rows(url: str, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    if url.startswith("sqlite:///"):
        conn = sqlite3.connect(sqlite_path(url))
        try:
            return [tuple(row) for row in conn.execute(sql, tuple(params))]
        finally:
            conn.close()
    pg = await asyncpg.connect(url)
    try:
        return [tuple(row) for row in await pg.fetch(numbered(sql), *params)]
    finally:
        await pg.close()


async def _paid(url: str, round_id: int) -> dict[tuple[int, str], int]:
    """What the ledger credited for the round, by (player, ledger kind)."""
    paid: dict[tuple[int, str], int] = defaultdict(int)
    for user_id, kind, amount in await _rows(url, PAID, (round_id,)):
        paid[(int(user_id), str(kind))] += int(amount)
    return dict(paid)


async def check_settled_rounds(url: str) -> int:
    """Assert every settled round's payouts equal its replay's, and every round voided after
    its deal paid what its deal settles; the number of settled rounds checked.

    A round settled with nobody dealt (everyone left) has no journal and pays nothing.
    """
    checked = 0
    async with db.open_store(url) as store:
        for query, replay in ((SETTLED, replay_round), (VOIDED, replay_deal)):
            for round_id, rules_json in await _rows(url, query):
                actions = await store.tables.round_actions(int(round_id))
                if not actions:
                    continue  # not dealt: nothing was paid
                paid = await _paid(url, int(round_id))
                replayed = replay(str(rules_json), actions)
                assert replayed == paid, f"round {round_id}: paid {paid}, replay {replayed}"
                if replay is replay_round:
                    checked += 1
    return checked
