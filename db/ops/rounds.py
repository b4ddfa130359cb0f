"""Rounds: opening, stakes, settlement, voiding. A round's row is locked before its accounts."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence

from db.errors import RoundClosed, UnknownRound
from db.models import STAKE_KINDS, HandResult, SettleResult, SideBetResult, VoidResult
from db.ops.chips import LEDGER_INSERT, credit, credit_up_to, debit
from db.ops.play_limits import check_bet
from db.ops.shoes import open_shoe
from db.statements import Many, Op, Query

#: Each player's stakes in a round, less the side bets its deal settled (21+3, Perfect
#: Pairs: won or lost already); one statement.
_STAKES_LEFT = (
    "SELECT user_id, SUM(amount) FROM (SELECT user_id, -delta AS amount FROM ledger"
    f" WHERE round_id = ? AND kind IN ({', '.join(repr(kind) for kind in STAKE_KINDS)})"
    " UNION ALL SELECT user_id, -wagered FROM side_bet_results WHERE round_id = ?) stakes"
    " GROUP BY user_id"
)


def round_status(round_id: int) -> Op[str]:
    """The round's status; UnknownRound if there is none."""
    rows = yield Query("SELECT status FROM rounds WHERE id = ?", (round_id,))
    if not rows:
        raise UnknownRound(round_id)
    return str(rows[0][0])


def require_open_round(round_id: int, guild_id: int, add_staked: int = 0) -> Op[None]:
    """Lock an open round of ``guild_id`` (adding to its stake total), else raise."""
    rows = yield Query(
        "UPDATE rounds SET staked = staked + ? WHERE id = ? AND status = 'open' RETURNING guild_id",
        (add_staked, round_id),
    )
    if not rows:
        status = yield from round_status(round_id)
        raise RoundClosed(round_id, status)
    if int(rows[0][0]) != guild_id:
        raise ValueError(f"round {round_id} belongs to another guild")


def open_round(
    guild_id: int,
    channel_id: int,
    rules_json: str,
    commitment: str,
    now: int,
    message_id: int | None = None,
) -> Op[int]:
    """A new open round dealt from the shoe with ``commitment`` (shown in the message
    ``message_id``, if given); its id."""
    shoe = yield from open_shoe(guild_id, channel_id, commitment, now)
    if shoe.seed_hex is not None:
        raise ValueError("that shoe's seed has been revealed; deal from a new shoe")
    rows = yield Query(
        "INSERT INTO rounds (guild_id, channel_id, shoe_id, rules_json, opened_at, message_id)"
        " VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
        (guild_id, channel_id, shoe.shoe_id, rules_json, now, message_id),
    )
    return int(rows[0][0])


def save_round_state(round_id: int, state_json: str) -> Op[None]:
    """Replace the open round's saved state."""
    rows = yield Query(
        "UPDATE rounds SET state_json = ? WHERE id = ? AND status = 'open' RETURNING id",
        (state_json, round_id),
    )
    if not rows:
        status = yield from round_status(round_id)
        raise RoundClosed(round_id, status)


def set_round_message(round_id: int, message_id: int) -> Op[None]:
    """Remember the round's table message."""
    rows = yield Query(
        "UPDATE rounds SET message_id = ? WHERE id = ? RETURNING id", (message_id, round_id)
    )
    if not rows:
        raise UnknownRound(round_id)


def stake(
    guild_id: int,
    user_id: int,
    amount: int,
    kind: str,
    round_id: int,
    now: int,
    headroom: int = 0,
    side_amount: int = 0,
) -> Op[int]:
    """Debit a stake on an open round of the same guild; the new balance (see ``debit``).

    ``side_amount``: side bets staked with it, a second ledger row of kind 'side_bet'."""
    # The round row is locked first (as settle and void do) so that a stake can
    # never land on a round that is being closed at the same moment.
    yield from require_open_round(round_id, guild_id, add_staked=amount + side_amount)
    if kind == "bet":  # the player's own limits, in this transaction (a round once bet plays out)
        yield from check_bet(user_id, amount + side_amount, now, guild_id)
    new_balance = yield from debit(guild_id, user_id, amount, now, headroom)
    yield Query(
        LEDGER_INSERT,
        (guild_id, user_id, -amount, new_balance, kind, round_id, None, None, now),
    )
    if side_amount:
        new_balance = yield from debit(guild_id, user_id, side_amount, now, 0)
        yield Query(
            LEDGER_INSERT,
            (guild_id, user_id, -side_amount, new_balance, "side_bet", round_id, None, None, now),
        )
    return new_balance


def _check_settlement(
    staked: Mapping[int, int],
    payouts: Mapping[int, int],
    hands: Sequence[HandResult],
    side: Sequence[SideBetResult] = (),
) -> None:
    """Every staked chip must be accounted for by the hand and side-bet results, and every
    payout of a hand too."""
    wagered: dict[int, int] = defaultdict(int)
    paid: dict[int, int] = defaultdict(int)
    for hand in hands:
        wagered[hand.user_id] += hand.wagered
        paid[hand.user_id] += hand.payout
    for bet in side:
        wagered[bet.user_id] += bet.wagered
    for user_id in sorted({*staked, *wagered, *payouts, *paid}):
        if user_id not in staked:
            raise ValueError(f"player {user_id} has no stake in this round")
        if wagered[user_id] != staked.get(user_id, 0):
            raise ValueError(
                f"player {user_id} staked {staked.get(user_id, 0)} chips in this round"
                f" but the hand results wager {wagered[user_id]}"
            )
        if paid[user_id] != payouts.get(user_id, 0):
            raise ValueError(
                f"player {user_id} is paid {payouts.get(user_id, 0)} chips"
                f" but the hand results pay {paid[user_id]}"
            )


def settle_round(
    round_id: int,
    payouts: Mapping[int, int],
    hands: Sequence[HandResult],
    state_json: str,
    now: int,
    side: Sequence[SideBetResult] = (),
) -> Op[SettleResult]:
    """Credit the payouts (and the side bets' as 'side_payout' rows), record the hands and
    side bets, and mark the round settled, once.

    Side bets settled at the deal (``settle_side_bets``) are already recorded: their stakes
    count as accounted for, and ``side`` holds only the bets settled now."""
    rows = yield Query(
        "UPDATE rounds SET status = 'settled', state_json = ?, paid = paid + ?, closed_at = ?"
        " WHERE id = ? AND status = 'open' RETURNING guild_id",
        (state_json, sum(payouts.values()) + sum(b.payout for b in side), now, round_id),
    )
    if not rows:
        status = yield from round_status(round_id)
        return SettleResult(round_id, already_settled=True, status=status)  # type: ignore[arg-type]
    guild_id = int(rows[0][0])
    stake_rows = yield Query(_STAKES_LEFT, (round_id, round_id))
    staked = {int(u): int(s) for u, s in stake_rows}
    _check_settlement(staked, payouts, hands, side)
    credited: dict[int, int] = {}
    balances: dict[int, int] = {}
    # Accounts in id order, so concurrent settlements lock them in one order.
    for user_id in sorted(payouts):
        amount = payouts[user_id]
        if amount == 0:
            continue
        balances[user_id] = yield from credit(guild_id, user_id, amount, now)
        credited[user_id] = amount
    # The ledger rows in one batch: one trip to the database, not one per player.
    yield from _ledger_rows(guild_id, credited, balances, "payout", round_id, None, now)
    side_credited, side_balances = yield from _pay_side_bets(guild_id, round_id, side, now)
    balances.update(side_balances)
    for user_id, amount in side_credited.items():
        credited[user_id] = credited.get(user_id, 0) + amount
    if hands:
        yield Many(
            "INSERT INTO hand_results (round_id, guild_id, user_id, hand_index, outcome, wagered,"
            " payout) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (round_id, guild_id, h.user_id, h.hand_index, h.outcome, h.wagered, h.payout)
                for h in hands
            ],
        )
    return SettleResult(round_id, False, "settled", credited, balances)


def _settled_side_stakes(round_id: int) -> Op[dict[int, int]]:
    """Per player, the stakes of the round's side bets already settled (at the deal)."""
    rows = yield Query(
        "SELECT user_id, SUM(wagered) FROM side_bet_results WHERE round_id = ? GROUP BY user_id",
        (round_id,),
    )
    return {int(user_id): int(wagered) for user_id, wagered in rows}


def _pay_side_bets(
    guild_id: int, round_id: int, side: Sequence[SideBetResult], now: int
) -> Op[tuple[dict[int, int], dict[int, int]]]:
    """Credit the side bets' payouts ('side_payout' rows) and record their results; the
    chips credited and the balances after, per player paid."""
    side_paid: dict[int, int] = defaultdict(int)
    for bet in side:
        if bet.payout:
            side_paid[bet.user_id] += bet.payout
    balances: dict[int, int] = {}
    for user_id in sorted(side_paid):
        balances[user_id] = yield from credit(guild_id, user_id, side_paid[user_id], now)
    yield from _ledger_rows(guild_id, side_paid, balances, "side_payout", round_id, None, now)
    if side:
        yield Many(
            "INSERT INTO side_bet_results (round_id, guild_id, user_id, spot, bet, pay_table,"
            " category, wagered, payout) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (round_id, guild_id, b.user_id, b.spot, b.bet, b.pay_table, b.category,
                 b.wagered, b.payout)
                for b in side
            ],
        )  # fmt: skip
    return dict(side_paid), balances


def settle_side_bets(round_id: int, side: Sequence[SideBetResult], now: int) -> Op[SettleResult]:
    """Pay the side bets the deal decides (21+3, Perfect Pairs) while the round stays open.

    Once per round: RoundClosed when the round is not open, ValueError when its deal's side
    bets are already settled or a player's results wager more than their side-bet stakes.
    """
    rows = yield Query(
        "UPDATE rounds SET paid = paid + ? WHERE id = ? AND status = 'open' RETURNING guild_id",
        (sum(b.payout for b in side), round_id),
    )
    if not rows:
        status = yield from round_status(round_id)
        raise RoundClosed(round_id, status)
    guild_id = int(rows[0][0])
    earlier = yield from _settled_side_stakes(round_id)
    if earlier:
        raise ValueError(f"round {round_id}: the deal's side bets are already settled")
    staked = yield Query(
        "SELECT user_id, -SUM(delta) FROM ledger WHERE round_id = ? AND kind = 'side_bet'"
        " GROUP BY user_id",
        (round_id,),
    )
    side_staked = {int(u): int(s) for u, s in staked}
    wagered: dict[int, int] = defaultdict(int)
    for bet in side:
        wagered[bet.user_id] += bet.wagered
    for user_id, amount in wagered.items():
        if amount > side_staked.get(user_id, 0):
            raise ValueError(
                f"player {user_id} staked {side_staked.get(user_id, 0)} chips on side bets"
                f" in round {round_id} but the results wager {amount}"
            )
    credited, balances = yield from _pay_side_bets(guild_id, round_id, side, now)
    return SettleResult(round_id, False, "open", credited, balances)


def _ledger_rows(
    guild_id: int,
    amounts: Mapping[int, int],
    balances: Mapping[int, int],
    kind: str,
    round_id: int,
    reason: str | None,
    now: int,
) -> Op[None]:
    """A ledger row per player credited ``amounts[player]``, in one batch."""
    if amounts:
        yield Many(
            LEDGER_INSERT,
            [
                (guild_id, user, amount, balances[user], kind, round_id, None, reason, now)
                for user, amount in amounts.items()
            ],
        )


def void_round(round_id: int, reason: str, now: int) -> Op[VoidResult]:
    """Refund the stakes of an open round and mark it void, once.

    Every stake comes back but those of the side bets settled at the deal."""
    rows = yield Query(
        "UPDATE rounds SET status = 'void', void_reason = ?, closed_at = ?"
        " WHERE id = ? AND status = 'open'"
        " RETURNING guild_id, channel_id, message_id, state_json",
        (reason, now, round_id),
    )
    if not rows:
        return (yield from _closed_already(round_id))
    guild_id, channel_id, message_id, state_json = rows[0]
    refunds, balances, unpaid = yield from _refund_stakes(round_id, guild_id, now)
    if unpaid:
        yield Query(
            "UPDATE rounds SET unrefunded = ? WHERE id = ?", (sum(unpaid.values()), round_id)
        )
    yield from _ledger_rows(guild_id, refunds, balances, "refund", round_id, reason, now)
    return VoidResult(
        round_id,
        int(guild_id),
        int(channel_id),
        message_id,
        state_json,
        reason,
        already_closed=False,
        status="void",
        refunds=refunds,
        balances={user: balances[user] for user in refunds},
        unpaid=unpaid,
    )


def _closed_already(round_id: int) -> Op[VoidResult]:
    """What a void of a round that is not open finds: the round as it was closed."""
    rows = yield Query(
        "SELECT guild_id, channel_id, message_id, state_json, status, void_reason"
        " FROM rounds WHERE id = ?",
        (round_id,),
    )
    if not rows:
        raise UnknownRound(round_id)
    guild_id, channel_id, message_id, state_json, status, old_reason = rows[0]
    return VoidResult(
        round_id,
        int(guild_id),
        int(channel_id),
        message_id,
        state_json,
        old_reason or "",
        already_closed=True,
        status=status,
    )


def _refund_stakes(
    round_id: int, guild_id: int, now: int
) -> Op[tuple[dict[int, int], dict[int, int], dict[int, int]]]:
    """Credit each player's stakes in the round, up to the chip ceiling: the refunds (none
    of 0), the balances after them, and what the ceiling left unpaid, by player."""
    # Side bets the deal settled (21+3, Perfect Pairs) were won or lost already: not refunded.
    stake_rows = yield Query(_STAKES_LEFT, (round_id, round_id))
    refunds: dict[int, int] = {}
    balances: dict[int, int] = {}
    unpaid: dict[int, int] = {}
    for user_id, amount in sorted((int(u), int(s)) for u, s in stake_rows):
        if amount <= 0:
            continue
        # A refund is paid up to the chip ceiling, as a settlement is: the round closes.
        balances[user_id], refunds[user_id] = yield from credit_up_to(
            guild_id, user_id, amount, now
        )
        if refunds[user_id] < amount:
            unpaid[user_id] = amount - refunds[user_id]
    refunds = {user: amount for user, amount in refunds.items() if amount}
    return refunds, balances, unpaid


def open_round_ids(guild_ids: Sequence[int] | None) -> Op[list[int]]:
    """Ids of every open round (of the given guilds, if any are given), oldest first."""
    rows = yield Query("SELECT id, guild_id FROM rounds WHERE status = 'open' ORDER BY id")
    wanted = None if guild_ids is None else set(guild_ids)
    return [int(rid) for rid, gid in rows if wanted is None or gid in wanted]
