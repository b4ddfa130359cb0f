"""Argument checks run before any database work: bad input raises ValueError and touches nothing."""

from __future__ import annotations

from typing import Any, Final

from db.models import MAX_BALANCE, OUTCOMES, HandResult, SideBetResult

#: Discord snowflakes are 64-bit but stay below 2**63 (their top bit is a timestamp
#: bit that will not be set before the year 2084), so they fit a signed BIGINT.
MAX_ID: Final = 2**63 - 1
MAX_TEXT: Final = 200


def whole(name: str, value: Any) -> int:
    """``value`` if it is an int (not a bool), else ValueError."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number, not {value!r}")
    return value


def snowflake(name: str, value: Any) -> int:
    """A Discord id: a whole number from 0 to 2**63 - 1."""
    whole(name, value)
    if not 0 <= value <= MAX_ID:
        raise ValueError(f"{name} must be between 0 and {MAX_ID}, not {value}")
    return int(value)


def amount(name: str, value: Any) -> int:
    """A positive whole number of chips, at most ``MAX_BALANCE``."""
    whole(name, value)
    if not 1 <= value <= MAX_BALANCE:
        raise ValueError(f"{name} must be between 1 and {MAX_BALANCE} chips, not {value}")
    return int(value)


def payout(name: str, value: Any) -> int:
    """Zero or a positive whole number of chips, at most ``MAX_BALANCE``."""
    whole(name, value)
    if not 0 <= value <= MAX_BALANCE:
        raise ValueError(f"{name} must be between 0 and {MAX_BALANCE} chips, not {value}")
    return int(value)


def signed_amount(name: str, value: Any) -> int:
    """A nonzero whole number of chips whose size is at most ``MAX_BALANCE``."""
    whole(name, value)
    if value == 0 or abs(value) > MAX_BALANCE:
        raise ValueError(f"{name} must be a nonzero number of chips up to ±{MAX_BALANCE}")
    return int(value)


def text(name: str, value: Any, *, limit: int = MAX_TEXT, empty: bool = False) -> str:
    """A string of at most ``limit`` characters (nonempty unless ``empty``)."""
    if not isinstance(value, str):
        raise ValueError(f"{name} must be text, not {value!r}")
    if len(value) > limit or (not empty and not value):
        raise ValueError(f"{name} must be 1 to {limit} characters long")
    return value


def json_text(name: str, value: Any) -> str:
    """Opaque JSON text; the store never parses it, only stores it."""
    if not isinstance(value, str):
        raise ValueError(f"{name} must be JSON text (a str), not {type(value).__name__}")
    return value


def positive(name: str, value: Any, *, limit: int) -> int:
    """A whole number from 1 to ``limit``."""
    whole(name, value)
    if not 1 <= value <= limit:
        raise ValueError(f"{name} must be between 1 and {limit}, not {value}")
    return int(value)


def hand_result(hand: Any) -> HandResult:
    """A settled hand's result with its ids, outcome and amounts in range."""
    if not isinstance(hand, HandResult):
        raise ValueError(f"hand results must be HandResult values, not {type(hand).__name__}")
    snowflake("hand user_id", hand.user_id)
    if hand.outcome not in OUTCOMES:
        raise ValueError(f"outcome must be one of {', '.join(OUTCOMES)}, not {hand.outcome!r}")
    payout("wagered", hand.wagered)
    payout("payout", hand.payout)
    whole("hand_index", hand.hand_index)
    if not 0 <= hand.hand_index < 1000:
        raise ValueError(f"hand_index must be between 0 and 999, not {hand.hand_index}")
    return hand


def side_bet_result(bet: Any) -> SideBetResult:
    """A settled side bet's result with its ids, amounts and names in range."""
    if not isinstance(bet, SideBetResult):
        raise ValueError(f"side bets must be SideBetResult values, not {type(bet).__name__}")
    snowflake("side bet user_id", bet.user_id)
    amount("side bet wagered", bet.wagered)
    payout("side bet payout", bet.payout)
    whole("spot", bet.spot)
    text("bet", bet.bet, limit=32)
    text("pay_table", bet.pay_table, limit=64)
    if bet.category is not None:
        text("category", bet.category, limit=64)
    return bet
