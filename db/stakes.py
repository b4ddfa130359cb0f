"""A stake's operation, its arguments checked first (``Store.stake`` and ``Store.stake_bet``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from db import checks
from db.models import STAKE_KINDS, TableAction, TableWrite
from db.ops import rounds
from db.ops.play_limits import with_notice
from db.ops.table_state import along_with, named_like
from db.statements import Op
from db.table_store import checked_write

#: (guild id, user id, amount, kind, round id).
Stake = tuple[int, int, int, str, int]


def stake_op(
    stake: Stake,
    table: TableWrite | None,
    actions: Sequence[TableAction],
    extra: tuple[int, int, bool],
    now: int,
) -> Callable[[], Op[tuple[int, bool]]]:
    """The stake's operation (``extra``: headroom, side bets' amount, mark the no-value
    notice): the balance, and whether the notice was marked the first time. ValueError
    before anything is touched."""
    guild_id, user_id, amount, kind, round_id = stake
    headroom, side_amount, notice = extra
    g, u = checks.snowflake("guild_id", guild_id), checks.snowflake("user_id", user_id)
    n, r = checks.amount("amount", amount), checks.whole("round_id", round_id)
    if kind not in STAKE_KINDS:
        raise ValueError(f"kind must be one of {', '.join(STAKE_KINDS)}, not {kind!r}")
    room, write = checks.whole("headroom", headroom), checked_write(table)
    side = checks.whole("side_amount", side_amount)
    if kind == "side_bet" or side < 0:
        raise ValueError("side bets are staked with a bet, as side_amount (0 or more)")

    def op() -> Op[tuple[int, bool]]:
        taken = rounds.stake(g, u, n, kind, r, now, room, side)
        # Named as the stake: the store's metrics name a transaction by its operation.
        noted = named_like(taken, with_notice(taken, u, now, notice))
        return along_with(noted, write, actions, now)

    return op
