"""A server's bridge to UnbelievaBoat and its transfers, in our books.

A cash-out takes its chips when it is written (pending): they cannot be staked while
UnbelievaBoat is called. A cash-in gives its chips only when it is done. A rolled-back
cash-out gives its chips back (``cash_return``). Every status change is conditional on
the transfer still being open, so two settlements of one transfer cannot both count.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal

from db.errors import StoreError
from db.ops.chips import LEDGER_INSERT, credit, debit
from db.statements import Op, Query

TransferKind = Literal["cash_in", "cash_out"]
TransferStatus = Literal["pending", "held", "done", "rolled_back"]
OPEN_STATUSES: Final = ("pending", "held")

_COLUMNS: Final = (
    "id, guild_id, user_id, kind, cash, chips, cash_before, status, cash_after, created_at,"
    " settled_at, settled_by"
)


class TransferClosed(StoreError):
    """The transfer is already done or rolled back (someone settled it first)."""


@dataclass(frozen=True, slots=True)
class BridgeRecord:
    """A server's bridge: its token (never in a repr) and its rate."""

    guild_id: int
    token: str = field(repr=False)
    rate_cash: int
    rate_chips: int
    connected_by: int
    connected_at: int


@dataclass(frozen=True, slots=True)
class TransferRecord:
    """One move between UnbelievaBoat's cash and our chips."""

    id: int
    guild_id: int
    user_id: int
    kind: TransferKind
    cash: int
    chips: int
    cash_before: int
    status: TransferStatus
    cash_after: int | None
    created_at: int
    settled_at: int | None
    settled_by: int | None

    @property
    def cash_delta(self) -> int:
        """What the transfer changes the member's UnbelievaBoat cash by."""
        return -self.cash if self.kind == "cash_in" else self.cash


def connect(
    guild_id: int, token: str, rate_cash: int, rate_chips: int, actor_id: int, now: int
) -> Op[None]:
    """Store (or replace) the server's bridge."""
    yield Query(
        "INSERT INTO economy_bridges (guild_id, token, rate_cash, rate_chips, connected_by,"
        " connected_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
        " token = excluded.token, rate_cash = excluded.rate_cash,"
        " rate_chips = excluded.rate_chips, connected_by = excluded.connected_by,"
        " connected_at = excluded.connected_at",
        (guild_id, token, rate_cash, rate_chips, actor_id, now),
    )


def disconnect(guild_id: int) -> Op[bool]:
    """Forget the server's bridge; False if it had none."""
    rows = yield Query(
        "DELETE FROM economy_bridges WHERE guild_id = ? RETURNING guild_id", (guild_id,)
    )
    return bool(rows)


def bridge(guild_id: int) -> Op[BridgeRecord | None]:
    """The server's bridge, if it has one."""
    rows = yield Query(
        "SELECT guild_id, token, rate_cash, rate_chips, connected_by, connected_at"
        " FROM economy_bridges WHERE guild_id = ?",
        (guild_id,),
    )
    return BridgeRecord(*(rows[0])) if rows else None


def begin(
    guild_id: int, user_id: int, kind: TransferKind, cash: int, chips: int, before: int, now: int
) -> Op[TransferRecord]:
    """Write the transfer as pending (a cash-out takes its chips now, with a ledger row)."""
    rows = yield Query(
        "INSERT INTO bridge_transfers (guild_id, user_id, kind, cash, chips, cash_before,"
        f" status, created_at) VALUES (?, ?, ?, ?, ?, ?, 'pending', ?) RETURNING {_COLUMNS}",
        (guild_id, user_id, kind, cash, chips, before, now),
    )
    transfer = TransferRecord(*rows[0])
    if kind == "cash_out":
        after = yield from debit(guild_id, user_id, chips, now)
        yield from _ledger(transfer, -chips, after, "cash_out", now)
    return transfer


def complete(transfer_id: int, cash_after: int | None, actor_id: int | None, now: int) -> Op[int]:
    """UnbelievaBoat applied the transfer: a cash-in gives its chips; the chips after."""
    transfer = yield from _close(transfer_id, "done", cash_after, actor_id, now)
    if transfer.kind == "cash_in":
        after = yield from credit(transfer.guild_id, transfer.user_id, transfer.chips, now)
        yield from _ledger(transfer, transfer.chips, after, "cash_in", now)
        return after
    rows = yield Query(
        "SELECT balance FROM accounts WHERE guild_id = ? AND user_id = ?",
        (transfer.guild_id, transfer.user_id),
    )
    return int(rows[0][0])


def roll_back(transfer_id: int, actor_id: int | None, now: int) -> Op[TransferRecord]:
    """UnbelievaBoat did not apply the transfer: a cash-out's chips come back."""
    transfer = yield from _close(transfer_id, "rolled_back", None, actor_id, now)
    if transfer.kind == "cash_out":
        after = yield from credit(transfer.guild_id, transfer.user_id, transfer.chips, now)
        yield from _ledger(transfer, transfer.chips, after, "cash_return", now)
    return transfer


def hold(transfer_id: int) -> Op[None]:
    """Leave a pending transfer to an admin: its outcome cannot be told from the cash."""
    yield Query(
        "UPDATE bridge_transfers SET status = 'held' WHERE id = ? AND status = 'pending'",
        (transfer_id,),
    )


def transfers(guild_id: int | None, statuses: tuple[str, ...]) -> Op[list[TransferRecord]]:
    """Transfers in ``statuses``, oldest first (of one server, or of all)."""
    marks = ", ".join("?" for _ in statuses)
    where, params = f"status IN ({marks})", list[object](statuses)
    if guild_id is not None:
        where, params = f"guild_id = ? AND {where}", [guild_id, *params]
    rows = yield Query(f"SELECT {_COLUMNS} FROM bridge_transfers WHERE {where} ORDER BY id", params)
    return [TransferRecord(*row) for row in rows]


def chips_held(guild_id: int) -> Op[int]:
    """The sum of the server's balances."""
    rows = yield Query(
        "SELECT COALESCE(SUM(balance), 0) FROM accounts WHERE guild_id = ?", (guild_id,)
    )
    return int(rows[0][0])


def cashed_in_since(members: tuple[int, ...], since: int) -> Op[int]:
    """The chips ``members`` (a player's linked accounts) bought since ``since``, anywhere."""
    marks = ", ".join("?" for _ in members)
    rows = yield Query(
        "SELECT COALESCE(SUM(delta), 0) FROM ledger"
        f" WHERE kind = 'cash_in' AND user_id IN ({marks}) AND created_at >= ?",
        (*members, since),
    )
    return int(rows[0][0])


def idle_cash_out_set() -> Op[bool]:
    """Whether any server has the bridge's idle cash-out on."""
    rows = yield Query("SELECT COUNT(*) FROM guild_settings WHERE bridge_idle_cash_out_min > 0", ())
    return bool(rows[0][0])


def idle_holders(guild_id: int, since: int) -> Op[list[tuple[int, int]]]:
    """(user id, chips) of the server's accounts holding chips that have not moved (no
    ledger row: a bet, a payout, a transfer) since ``since``."""
    rows = yield Query(
        "SELECT a.user_id, a.balance FROM accounts a WHERE a.guild_id = ? AND a.balance > 0"
        " AND NOT EXISTS (SELECT 1 FROM ledger l WHERE l.guild_id = a.guild_id"
        " AND l.user_id = a.user_id AND l.created_at >= ?) ORDER BY a.user_id",
        (guild_id, since),
    )
    return [(int(user_id), int(balance)) for user_id, balance in rows]


def transfer(transfer_id: int) -> Op[TransferRecord | None]:
    """One transfer."""
    rows = yield Query(f"SELECT {_COLUMNS} FROM bridge_transfers WHERE id = ?", (transfer_id,))
    return TransferRecord(*rows[0]) if rows else None


def _close(
    transfer_id: int, status: str, cash_after: int | None, actor_id: int | None, now: int
) -> Op[TransferRecord]:
    rows = yield Query(
        "UPDATE bridge_transfers SET status = ?, cash_after = ?, settled_at = ?, settled_by = ?"
        f" WHERE id = ? AND status IN ('pending', 'held') RETURNING {_COLUMNS}",
        (status, cash_after, now, actor_id, transfer_id),
    )
    if not rows:
        raise TransferClosed(f"transfer {transfer_id} is already settled")
    return TransferRecord(*rows[0])


def _ledger(transfer: TransferRecord, delta: int, after: int, kind: str, now: int) -> Op[None]:
    yield Query(
        LEDGER_INSERT,
        (
            transfer.guild_id,
            transfer.user_id,
            delta,
            after,
            kind,
            None,
            transfer.settled_by,
            f"bridge transfer {transfer.id}",
            now,
        ),
    )
