"""Accounts and the chips in them: every change is a conditional update plus a ledger row."""

from __future__ import annotations

from db.errors import BalanceLimitExceeded, BridgedEconomy, InsufficientChips
from db.models import MAX_BALANCE, STAKE_KINDS, Account, DailyResult, GuildSettings, from_micros
from db.ops.play_limits import claim_group
from db.ops.settings import read_settings
from db.statements import Op, Query

LEDGER_INSERT = (
    "INSERT INTO ledger (guild_id, user_id, delta, balance_after, kind, round_id, actor_id,"
    " reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_DEBIT = (
    "UPDATE accounts SET balance = balance - ?"
    " WHERE guild_id = ? AND user_id = ? AND balance >= ? AND balance <= ? RETURNING balance"
)
_CREDIT = (
    "UPDATE accounts SET balance = balance + ?"
    " WHERE guild_id = ? AND user_id = ? AND balance <= ? RETURNING balance"
)
_BALANCE = "SELECT balance FROM accounts WHERE guild_id = ? AND user_id = ?"
#: What a player has staked in the guild's open rounds: chips a refund could bring back.
_AT_STAKE = (
    "SELECT COALESCE(-SUM(ledger.delta), 0) FROM ledger JOIN rounds ON rounds.id = ledger.round_id"
    " WHERE rounds.status = 'open' AND ledger.guild_id = ? AND ledger.user_id = ?"
    f" AND ledger.kind IN ({', '.join(repr(kind) for kind in STAKE_KINDS)})"
)


def refuse_if_bridged(guild_id: int) -> Op[None]:
    """BridgedEconomy if the server's chips come from UnbelievaBoat."""
    rows = yield Query("SELECT 1 FROM economy_bridges WHERE guild_id = ?", (guild_id,))
    if rows:
        raise BridgedEconomy(f"guild {guild_id} is bridged to UnbelievaBoat")


def ensure_account(guild_id: int, user_id: int, now: int) -> Op[Account]:
    """The account, created with the guild's starting chips (a 'grant' ledger row) if new;
    on a server bridged to UnbelievaBoat a new account starts empty (chips come from cash)."""
    default = GuildSettings().starting_chips
    rows = yield Query(
        "INSERT INTO accounts (guild_id, user_id, balance, created_at) VALUES (?, ?,"
        " CASE WHEN EXISTS (SELECT 1 FROM economy_bridges WHERE guild_id = ?) THEN 0 ELSE"
        " COALESCE((SELECT starting_chips FROM guild_settings WHERE guild_id = ?), ?) END, ?)"
        " ON CONFLICT (guild_id, user_id) DO NOTHING RETURNING balance",
        (guild_id, user_id, guild_id, guild_id, default, now),
    )
    if rows:
        balance = int(rows[0][0])
        if balance:
            yield Query(
                LEDGER_INSERT,
                (guild_id, user_id, balance, balance, "grant", None, None, None, now),
            )
        return Account(guild_id, user_id, balance, created=True)
    rows = yield Query(_BALANCE, (guild_id, user_id))
    return Account(guild_id, user_id, int(rows[0][0]))


def debit(guild_id: int, user_id: int, amount: int, now: int, headroom: int = 0) -> Op[int]:
    """Take ``amount`` if the balance covers it (creating a new player's account first).

    ``headroom``: what the debit could bring back on top of the balance before it (a
    bet's best win); if that would pass ``MAX_BALANCE``, BalanceLimitExceeded instead.
    """
    top = max(-1, MAX_BALANCE - headroom)
    rows = yield Query(_DEBIT, (amount, guild_id, user_id, amount, top))
    if rows:
        return int(rows[0][0])
    account = yield from ensure_account(guild_id, user_id, now)
    if account.created:
        rows = yield Query(_DEBIT, (amount, guild_id, user_id, amount, top))
        if rows:
            return int(rows[0][0])
    if account.balance < amount:
        raise InsufficientChips(account.balance, amount)
    raise BalanceLimitExceeded(account.balance, headroom, MAX_BALANCE, user_id)


def credit(guild_id: int, user_id: int, amount: int, now: int) -> Op[int]:
    """Add ``amount`` unless that would pass ``MAX_BALANCE`` (creating the account if new)."""
    rows = yield Query(_CREDIT, (amount, guild_id, user_id, MAX_BALANCE - amount))
    if rows:
        return int(rows[0][0])
    account = yield from ensure_account(guild_id, user_id, now)
    if account.created:
        rows = yield Query(_CREDIT, (amount, guild_id, user_id, MAX_BALANCE - amount))
        if rows:
            return int(rows[0][0])
    raise BalanceLimitExceeded(account.balance, amount, MAX_BALANCE, user_id)


def credit_up_to(guild_id: int, user_id: int, amount: int, now: int) -> Op[tuple[int, int]]:
    """Add ``amount``, or as much of it as fits under ``MAX_BALANCE``: (balance, credited).

    For what must be paid whatever the balance (a refund): the part that does not fit is
    the caller's to record, never a reason to leave a round open."""
    try:
        return (yield from credit(guild_id, user_id, amount, now)), amount
    except BalanceLimitExceeded as error:
        fits = max(0, error.limit - error.balance)
    if fits == 0:
        return (yield from balance(guild_id, user_id, now)), 0
    return (yield from credit(guild_id, user_id, fits, now)), fits


def balance(guild_id: int, user_id: int, now: int) -> Op[int]:
    """The balance, creating the account with its starting chips if new."""
    rows = yield Query(_BALANCE, (guild_id, user_id))
    if rows:
        return int(rows[0][0])
    account = yield from ensure_account(guild_id, user_id, now)
    return account.balance


def read_balance(guild_id: int, user_id: int) -> Op[int]:
    """The balance, or the starting chips an account here would open with: nothing is
    written (``balance`` opens the account)."""
    rows = yield Query(_BALANCE, (guild_id, user_id))
    if rows:
        return int(rows[0][0])
    bridged = yield Query("SELECT 1 FROM economy_bridges WHERE guild_id = ?", (guild_id,))
    if bridged:
        return 0
    settings = yield from read_settings(guild_id)
    return settings.starting_chips


def adjust(
    guild_id: int, user_id: int, amount: int, actor_id: int, reason: str, now: int
) -> Op[int]:
    """An admin grant (amount > 0) or take (amount < 0); the new balance.

    A grant counts the chips the player has at stake in open rounds, so that a refund of
    them always fits under the ceiling: BalanceLimitExceeded if it would not. Refused
    (BridgedEconomy) on a server bridged to UnbelievaBoat."""
    yield from refuse_if_bridged(guild_id)
    if amount > 0:
        rows = yield Query(_AT_STAKE, (guild_id, user_id))
        at_stake = int(rows[0][0]) if rows else 0
        if at_stake:
            account = yield from ensure_account(guild_id, user_id, now)
            if account.balance + amount + at_stake > MAX_BALANCE:
                raise BalanceLimitExceeded(account.balance, amount + at_stake, MAX_BALANCE, user_id)
        new_balance = yield from credit(guild_id, user_id, amount, now)
    else:
        new_balance = yield from debit(guild_id, user_id, -amount, now)
    yield Query(
        LEDGER_INSERT,
        (guild_id, user_id, amount, new_balance, "admin", None, actor_id, reason, now),
    )
    return new_balance


def claim_daily(guild_id: int, user_id: int, now: int) -> Op[DailyResult]:
    """Credit the daily amount if the last claim is at least one period old (BridgedEconomy
    on a server bridged to UnbelievaBoat)."""
    yield from refuse_if_bridged(guild_id)
    settings = yield from read_settings(guild_id)
    period = settings.daily_period_s * 1_000_000
    account = yield from ensure_account(guild_id, user_id, now)
    # Linked accounts share one claim: the latest of theirs counts (their group is locked).
    group = yield from claim_group(user_id, now, guild_id)
    if len(group) > 1:
        marks = ", ".join("?" for _ in group)
        rows = yield Query(
            "SELECT MAX(last_claim_at) FROM daily_claims"
            f" WHERE guild_id = ? AND user_id IN ({marks})",
            (guild_id, *group),
        )
        last = rows[0][0]
        if last is not None and int(last) > now - period:
            return DailyResult(False, 0, account.balance, from_micros(int(last) + period))
    # The conditional upsert is the whole decision: under concurrency only one
    # claim per period can move last_claim_at forward.
    rows = yield Query(
        "INSERT INTO daily_claims (guild_id, user_id, last_claim_at) VALUES (?, ?, ?)"
        " ON CONFLICT (guild_id, user_id) DO UPDATE SET last_claim_at = excluded.last_claim_at"
        " WHERE daily_claims.last_claim_at <= ? RETURNING last_claim_at",
        (guild_id, user_id, now, now - period),
    )
    if not rows:
        rows = yield Query(
            "SELECT last_claim_at FROM daily_claims WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
        next_at = from_micros(int(rows[0][0]) + period)
        return DailyResult(False, 0, account.balance, next_at)
    amount = settings.daily_amount
    new_balance = yield from credit(guild_id, user_id, amount, now)
    yield Query(
        LEDGER_INSERT, (guild_id, user_id, amount, new_balance, "daily", None, None, None, now)
    )
    return DailyResult(True, amount, new_balance, from_micros(now + period))
