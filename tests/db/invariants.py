"""The economy's invariants, checked straight in the database (not through the Store's code)."""

from __future__ import annotations

import sqlite3
from typing import Any

import asyncpg

from db import sqlite_path

STAKES = "('bet', 'double', 'split', 'insurance', 'side_bet')"
PAYOUTS = "('payout', 'side_payout')"

# Each query returns the rows that break one rule; every query must return none.
VIOLATIONS: dict[str, str] = {
    "a balance differs from the sum of its ledger": """
        SELECT a.guild_id, a.user_id, a.balance, COALESCE(SUM(l.delta), 0) AS ledger_sum
        FROM accounts AS a LEFT JOIN ledger AS l
          ON l.guild_id = a.guild_id AND l.user_id = a.user_id
        GROUP BY a.guild_id, a.user_id, a.balance
        HAVING a.balance <> COALESCE(SUM(l.delta), 0)""",
    "a balance is negative": "SELECT guild_id, user_id, balance FROM accounts WHERE balance < 0",
    "a ledger row's balance_after is not the running sum": """
        SELECT id, balance_after, running FROM (
            SELECT id, balance_after,
                   SUM(delta) OVER (PARTITION BY guild_id, user_id ORDER BY id) AS running
            FROM ledger) AS t
        WHERE balance_after <> running""",
    "a round's stake total differs from its stake rows": f"""
        SELECT r.id, r.staked, COALESCE(-SUM(l.delta), 0)
        FROM rounds AS r LEFT JOIN ledger AS l ON l.round_id = r.id AND l.kind IN {STAKES}
        GROUP BY r.id, r.staked HAVING r.staked <> COALESCE(-SUM(l.delta), 0)""",
    "a round's payouts differ from what it recorded as paid": f"""
        SELECT r.id, r.paid, COALESCE(SUM(l.delta), 0)
        FROM rounds AS r LEFT JOIN ledger AS l ON l.round_id = r.id AND l.kind IN {PAYOUTS}
        GROUP BY r.id, r.paid HAVING r.paid <> COALESCE(SUM(l.delta), 0)""",
    # 21+3 and Perfect Pairs are settled at the deal (their results recorded then): a void
    # refunds every stake but theirs.
    "a void round's refunds differ from its stakes less those of side bets settled"
    " and those the chip ceiling kept": """
        SELECT r.id, r.staked, COALESCE(SUM(l.delta), 0)
        FROM rounds AS r LEFT JOIN ledger AS l ON l.round_id = r.id AND l.kind = 'refund'
        WHERE r.status = 'void'
        GROUP BY r.id, r.staked
        HAVING r.staked - r.unrefunded
               - (SELECT COALESCE(SUM(s.wagered), 0) FROM side_bet_results AS s
                  WHERE s.round_id = r.id) <> COALESCE(SUM(l.delta), 0)""",
    "a round that is not void has refunds": """
        SELECT l.id FROM ledger AS l JOIN rounds AS r ON r.id = l.round_id
        WHERE l.kind = 'refund' AND r.status <> 'void'""",
    "a round that is not settled has payouts, hand results or a Buster result": """
        SELECT r.id FROM rounds AS r WHERE r.status <> 'settled' AND (
            EXISTS (SELECT 1 FROM ledger AS l WHERE l.round_id = r.id AND l.kind = 'payout')
            OR EXISTS (SELECT 1 FROM hand_results AS h WHERE h.round_id = r.id)
            OR EXISTS (SELECT 1 FROM side_bet_results AS s
                       WHERE s.round_id = r.id AND s.bet = 'buster'))""",
    "a player's side payouts in a round differ from their side-bet results": """
        SELECT p.round_id, p.user_id, p.paid, p.won FROM (
            SELECT round_id, user_id, SUM(paid) AS paid, SUM(won) AS won FROM (
                SELECT round_id, user_id, delta AS paid, 0 AS won FROM ledger
                WHERE kind = 'side_payout'
                UNION ALL SELECT round_id, user_id, 0, payout FROM side_bet_results) AS both_kinds
            GROUP BY round_id, user_id) AS p
        WHERE p.paid <> p.won""",
    "a side bet has two results": """
        SELECT round_id, user_id, spot, bet, COUNT(*) FROM side_bet_results
        GROUP BY round_id, user_id, spot, bet HAVING COUNT(*) > 1""",
    # Side bets pay at most twice a round: at the deal (21+3, Perfect Pairs), then Buster.
    "a player was paid or refunded twice for one round": """
        SELECT round_id, user_id, kind, COUNT(*) FROM ledger
        WHERE kind IN ('payout', 'side_payout', 'refund')
        GROUP BY round_id, user_id, kind
        HAVING COUNT(*) > CASE WHEN kind = 'side_payout' THEN 2 ELSE 1 END""",
    "a settled round's hand and side-bet results differ from its stakes and payouts": """
        SELECT r.id, r.staked, r.paid, x.wagered, x.payout
        FROM rounds AS r JOIN (
            SELECT round_id, SUM(wagered) AS wagered, SUM(payout) AS payout FROM (
                SELECT round_id, wagered, payout FROM hand_results
                UNION ALL SELECT round_id, wagered, payout FROM side_bet_results) AS both_kinds
            GROUP BY round_id) AS x ON x.round_id = r.id
        WHERE r.status = 'settled'
        AND (r.staked <> x.wagered OR r.paid <> x.payout)""",
    # A prize the chip ceiling kept is the pool round's ``unrefunded``, as a refund's is.
    "a finished tournament's pool round did not pay out its whole pool"
    " less what the chip ceiling kept": """
        SELECT t.id, r.status, r.staked, r.paid, r.unrefunded
        FROM tournaments AS t JOIN rounds AS r ON r.id = t.pool_round_id
        WHERE t.status = 'finished'
        AND (r.status <> 'settled' OR r.staked <> r.paid + r.unrefunded)""",
    "a channel has two open tables": """
        SELECT channel_id, COUNT(*) FROM live_tables WHERE status = 'open'
        GROUP BY channel_id HAVING COUNT(*) > 1""",
}

#: An open table in the store is live, or paused, or resumes at the next start: a round
#: no open table owns has nobody to settle or refund it. An open tournament's prize pool
#: is a round its tournament owns.
OWNED = (
    "(EXISTS (SELECT 1 FROM live_tables AS t WHERE t.status = 'open' AND t.round_id = r.id)"
    " OR EXISTS (SELECT 1 FROM tournaments AS tt"
    " WHERE tt.status = 'open' AND tt.pool_round_id = r.id))"
)
#: The rules of a database the table service wrote (the store's own tests stake on
#: rounds without tables, and leave this out).
TABLE_VIOLATIONS: dict[str, str] = {
    "a stake is held by a round whose table is not open": f"""
        SELECT r.id, r.staked FROM rounds AS r
        WHERE r.status = 'open' AND r.staked > 0 AND NOT {OWNED}""",
}

# Chips in (grants, daily, admin, and cash-ins less cash-outs through the bridge to
# UnbelievaBoat) = chips held (balances) + chips the house won in closed
# rounds + chips staked and not yet paid back in open rounds of open tables (the side bets
# settled at the deal already paid theirs): every chip staked is in a round a table will
# settle or refund, or back in a balance.
CHIPS_IN_OUT = f"""
    SELECT
      (SELECT COALESCE(SUM(delta), 0) FROM ledger
         WHERE kind IN ('grant', 'daily', 'admin', 'cash_in', 'cash_out', 'cash_return')),
      (SELECT COALESCE(SUM(balance), 0) FROM accounts),
      (SELECT COALESCE(-SUM(l.delta), 0) FROM ledger AS l JOIN rounds AS r ON r.id = l.round_id
         WHERE r.status <> 'open' AND l.kind IN {STAKES[:-1]}, 'payout', 'side_payout', 'refund')),
      (SELECT COALESCE(SUM(r.staked - r.paid), 0) FROM rounds AS r
         WHERE r.status = 'open' AND {{owned}})"""


def _check(results: dict[str, list[Any]], chips: tuple[Any, ...]) -> None:
    broken = {rule: rows for rule, rows in results.items() if rows}
    assert not broken, f"invariants broken: {broken}"
    chips_in, held, house_net, staked = (int(value) for value in chips)
    assert chips_in == held + house_net + staked, (
        f"chips in ({chips_in}) != chips held ({held}) + house net of closed rounds"
        f" ({house_net}) + staked at open tables ({staked})"
    )


async def check_invariants(url: str, *, tables: bool = True) -> None:
    """Assert every invariant on the database at ``url``.

    ``tables``: the database was written by the table service, so every open round with
    stakes belongs to an open table (False for the store's own tests: all open rounds count).
    """
    rules = VIOLATIONS | TABLE_VIOLATIONS if tables else VIOLATIONS
    chips_sql = CHIPS_IN_OUT.format(owned=OWNED if tables else "TRUE")
    if url.startswith("sqlite:///"):
        conn = sqlite3.connect(sqlite_path(url))
        try:
            results = {rule: conn.execute(sql).fetchall() for rule, sql in rules.items()}
            chips = conn.execute(chips_sql).fetchone()
        finally:
            conn.close()
    else:
        pg = await asyncpg.connect(url)
        try:
            results = {rule: list(await pg.fetch(sql)) for rule, sql in rules.items()}
            chips = tuple(await pg.fetchrow(chips_sql))
        finally:
            await pg.close()
    _check(results, chips)
