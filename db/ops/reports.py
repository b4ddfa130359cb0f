"""Read-only reports: leaderboard, player statistics, round history, ledger."""

from __future__ import annotations

from db.models import (
    LeaderboardEntry,
    LeaderboardPage,
    LedgerEntry,
    LedgerPage,
    PlayerStats,
    RoundRecord,
    from_micros,
)
from db.statements import Op, Query, Row

#: The user ids who staked chips in a round in which the given player (twice: the guild id
#: and the user id) staked chips too, that player included.
_TABLE_MATES = (
    "SELECT theirs.user_id FROM ledger AS mine JOIN ledger AS theirs"
    " ON theirs.round_id = mine.round_id AND theirs.kind = 'bet'"
    " WHERE mine.guild_id = ? AND mine.user_id = ? AND mine.kind = 'bet'"
)


def leaderboard(
    guild_id: int, page: int, per_page: int, caller_id: int | None, among: int | None = None
) -> Op[LeaderboardPage]:
    """One page of the guild's balances, richest first, ties by user id; ``among``: only
    that player and the people who played a round with them."""
    params: tuple[int, ...]
    if among is None:
        board, params = "(SELECT user_id, balance FROM accounts WHERE guild_id = ?)", (guild_id,)
    else:
        board = (
            "(SELECT user_id, balance FROM accounts WHERE guild_id = ?"
            f" AND (user_id = ? OR user_id IN ({_TABLE_MATES})))"
        )
        params = (guild_id, among, guild_id, among)
    rows = yield Query(f"SELECT COUNT(*) FROM {board} AS b", params)
    total = int(rows[0][0])
    total_pages = max(1, -(-total // per_page))
    page = min(page, total_pages)
    rows = yield Query(
        f"SELECT RANK() OVER (ORDER BY balance DESC), user_id, balance FROM {board} AS b"
        " ORDER BY balance DESC, user_id LIMIT ? OFFSET ?",
        (*params, per_page, (page - 1) * per_page),
    )
    entries = [LeaderboardEntry(int(rank), int(uid), int(bal)) for rank, uid, bal in rows]
    caller = None
    if caller_id is not None:
        rows = yield Query(
            f"SELECT 1 + (SELECT COUNT(*) FROM {board} AS richer"
            "  WHERE richer.balance > mine.balance),"
            f" mine.balance FROM {board} AS mine WHERE mine.user_id = ?",
            (*params, *params, caller_id),
        )
        if rows:
            caller = LeaderboardEntry(int(rows[0][0]), caller_id, int(rows[0][1]))
    return LeaderboardPage(guild_id, page, per_page, total_pages, total, entries, caller)


def stats(guild_id: int, user_id: int) -> Op[PlayerStats]:
    """The player's totals over every settled hand in the guild."""
    rows = yield Query(
        "SELECT COUNT(*),"
        " SUM(CASE WHEN outcome IN ('win', 'blackjack') THEN 1 ELSE 0 END),"
        " SUM(CASE WHEN outcome IN ('loss', 'surrender') THEN 1 ELSE 0 END),"
        " SUM(CASE WHEN outcome = 'push' THEN 1 ELSE 0 END),"
        " SUM(CASE WHEN outcome = 'blackjack' THEN 1 ELSE 0 END),"
        " SUM(CASE WHEN outcome = 'surrender' THEN 1 ELSE 0 END),"
        " SUM(wagered), SUM(payout - wagered), MAX(payout - wagered)"
        " FROM hand_results WHERE guild_id = ? AND user_id = ?",
        (guild_id, user_id),
    )
    hands, wins, losses, pushes, blackjacks, surrenders, wagered, net, best = rows[0]
    side = yield Query(
        "SELECT COUNT(*), SUM(CASE WHEN payout > 0 THEN 1 ELSE 0 END), SUM(wagered),"
        " SUM(payout - wagered) FROM side_bet_results WHERE guild_id = ? AND user_id = ?",
        (guild_id, user_id),
    )
    side_bets, side_wins, side_wagered, side_net = side[0]
    side_stats = {
        "side_bets": int(side_bets),
        "side_bet_wins": int(side_wins or 0),
        "side_bet_wagered": int(side_wagered or 0),
        "side_bet_net": int(side_net or 0),
    }
    if not hands:
        return PlayerStats(**side_stats)
    return PlayerStats(
        hands=int(hands),
        wins=int(wins),
        losses=int(losses),
        pushes=int(pushes),
        blackjacks=int(blackjacks),
        surrenders=int(surrenders),
        total_wagered=int(wagered),
        net=int(net),
        biggest_win=max(0, int(best)),
        **side_stats,
    )


_ROUND_COLUMNS = (
    "r.id, r.guild_id, r.channel_id, r.message_id, r.status, r.rules_json, s.commitment,"
    " s.seed_hex, r.state_json, r.staked, r.paid, r.opened_at, r.closed_at, r.void_reason"
)


def _round(row: Row) -> RoundRecord:
    (rid, gid, cid, mid, status, rules, commitment, seed, state, staked, paid, opened, closed,
     reason) = row  # fmt: skip
    return RoundRecord(
        int(rid),
        int(gid),
        int(cid),
        None if mid is None else int(mid),
        status,
        rules,
        commitment,
        seed,
        state,
        int(staked),
        int(paid),
        from_micros(opened),
        None if closed is None else from_micros(closed),
        reason,
    )


def get_round(round_id: int) -> Op[RoundRecord | None]:
    """The round, or None."""
    rows = yield Query(
        f"SELECT {_ROUND_COLUMNS} FROM rounds AS r JOIN shoes AS s ON s.id = r.shoe_id"
        " WHERE r.id = ?",
        (round_id,),
    )
    return _round(rows[0]) if rows else None


def round_history(
    guild_id: int,
    channel_id: int | None,
    user_id: int | None,
    limit: int,
    before_id: int | None,
) -> Op[list[RoundRecord]]:
    """The guild's rounds, newest first, optionally of one channel or with one player's stakes."""
    where = ["r.guild_id = ?"]
    params: list[int] = [guild_id]
    if channel_id is not None:
        where.append("r.channel_id = ?")
        params.append(channel_id)
    if user_id is not None:
        where.append("EXISTS (SELECT 1 FROM ledger AS l WHERE l.round_id = r.id AND l.user_id = ?)")
        params.append(user_id)
    if before_id is not None:
        where.append("r.id < ?")
        params.append(before_id)
    rows = yield Query(
        f"SELECT {_ROUND_COLUMNS} FROM rounds AS r JOIN shoes AS s ON s.id = r.shoe_id"
        f" WHERE {' AND '.join(where)} ORDER BY r.id DESC LIMIT ?",
        (*params, limit),
    )
    return [_round(row) for row in rows]


_LEDGER_COLUMNS = (
    "id, guild_id, user_id, delta, balance_after, kind, round_id, actor_id, reason, created_at"
)


def _ledger_entry(row: Row) -> LedgerEntry:
    eid, gid, uid, delta, after, kind, rid, actor, reason, at = row
    return LedgerEntry(
        entry_id=int(eid),
        guild_id=int(gid),
        user_id=int(uid),
        delta=int(delta),
        balance_after=int(after),
        kind=kind,
        round_id=None if rid is None else int(rid),
        actor_id=None if actor is None else int(actor),
        reason=reason,
        created_at=from_micros(at),
    )


def ledger_entries(guild_id: int, user_id: int, limit: int) -> Op[list[LedgerEntry]]:
    """The account's latest ledger rows, newest first."""
    rows = yield Query(
        f"SELECT {_LEDGER_COLUMNS} FROM ledger WHERE guild_id = ? AND user_id = ?"
        " ORDER BY id DESC LIMIT ?",
        (guild_id, user_id, limit),
    )
    return [_ledger_entry(row) for row in rows]


def ledger_page(
    guild_id: int, user_id: int, per_page: int, before_id: int | None, after_id: int | None
) -> Op[LedgerPage]:
    """``per_page`` rows older than ``before_id``, or newer than ``after_id`` (the newest page
    when neither, or when fewer than a page are newer), newest first."""
    account = "FROM ledger WHERE guild_id = ? AND user_id = ?"
    rows: list[Row] = []
    if after_id is not None:
        rows = yield Query(
            f"SELECT {_LEDGER_COLUMNS} {account} AND id > ? ORDER BY id LIMIT ?",
            (guild_id, user_id, after_id, per_page),
        )
        rows.reverse()
    if len(rows) < per_page:
        if before_id is None or after_id is not None:
            before_id = 2**63 - 1  # the newest page
        rows = yield Query(
            f"SELECT {_LEDGER_COLUMNS} {account} AND id < ? ORDER BY id DESC LIMIT ?",
            (guild_id, user_id, before_id, per_page),
        )
    if not rows:
        return LedgerPage([], has_older=False, has_newer=False)
    newest, oldest = int(rows[0][0]), int(rows[-1][0])
    found = yield Query(
        f"SELECT EXISTS (SELECT 1 {account} AND id < ?), EXISTS (SELECT 1 {account} AND id > ?)",
        (guild_id, user_id, oldest, guild_id, user_id, newest),
    )
    return LedgerPage([_ledger_entry(row) for row in rows], bool(found[0][0]), bool(found[0][1]))
