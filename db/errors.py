"""The errors a store raises. Each says what went wrong in words a user or operator can act on."""

from __future__ import annotations

from datetime import datetime


class StoreError(Exception):
    """Base class of every error raised by ``db``."""


class StoreConfigError(StoreError):
    """The database URL is malformed or the server cannot be reached: fix DATABASE_URL."""


class StoreVersionError(StoreError):
    """The database was migrated by newer code than this (or its history does not match)."""


class InsufficientChips(StoreError):
    """A debit larger than the balance. Nothing was written."""

    def __init__(self, balance: int, amount: int) -> None:
        super().__init__(f"not enough chips: the balance is {balance}, that needs {amount}")
        self.balance = balance
        self.amount = amount


class BalanceLimitExceeded(StoreError):
    """A credit (or a stake's best win) that would take a balance over ``db.MAX_BALANCE``.

    Nothing was written. ``user_id`` names the account, when one is known.
    """

    def __init__(self, balance: int, amount: int, limit: int, user_id: int | None = None) -> None:
        super().__init__(
            f"a balance of {balance} plus {amount} would pass the limit of {limit} chips"
        )
        self.balance = balance
        self.amount = amount
        self.limit = limit
        self.user_id = user_id


class UnknownRound(StoreError):
    """No round has that id."""

    def __init__(self, round_id: int) -> None:
        super().__init__(f"there is no round {round_id}")
        self.round_id = round_id


class RoundClosed(StoreError):
    """A stake on a round that is already settled or void. Nothing was written."""

    def __init__(self, round_id: int, status: str) -> None:
        super().__init__(f"round {round_id} is {status}; it takes no more stakes")
        self.round_id = round_id
        self.status = status


class UnknownShoe(StoreError):
    """No shoe has that commitment."""

    def __init__(self, commitment: str) -> None:
        super().__init__(f"there is no shoe with commitment {commitment}")
        self.commitment = commitment


class StoreUnavailable(StoreError):
    """The database cannot take the transaction now: its server is down or unreachable, its
    disk is full, or its file is read-only. Retry later; nothing is lost by waiting.

    ``maybe_committed``: the connection was lost while a write was in flight, so whether it
    committed is unknown (read the database again before trusting memory). Otherwise the
    transaction was not written.
    """

    def __init__(self, message: str, *, maybe_committed: bool = False) -> None:
        super().__init__(message)
        self.maybe_committed = maybe_committed


class SettingsCrossed(StoreError, ValueError):
    """A settings change that would put a smallest amount above its largest: ``setting``
    is 'bet' (min_bet, max_bet) or 'side_bet' (side_min_bet, side_max_bet). Nothing was
    written."""

    def __init__(self, setting: str, low: int, high: int) -> None:
        prefix = "" if setting == "bet" else "side_"
        super().__init__(f"{prefix}min_bet ({low}) must not be above {prefix}max_bet ({high})")
        self.setting, self.low, self.high = setting, low, high


class PlayRefused(StoreError):
    """A bet a player's own limits refuse (db.ops.play_limits). Nothing was written.

    ``reason`` is 'excluded' (``until``: when it ends, None until an admin lifts it),
    'loss_limit' (``limit``, ``lost`` today, ``until``: when the day resets) or
    'reality_check' (``played_s`` this session and its ``net``; the player confirms first).
    """

    def __init__(
        self,
        reason: str,
        *,
        until: datetime | None = None,
        limit: int = 0,
        lost: int = 0,
        played_s: int = 0,
        net: int = 0,
    ) -> None:
        super().__init__(f"the player's limits refuse this bet ({reason})")
        self.reason = reason
        self.until = until
        self.limit = limit
        self.lost = lost
        self.played_s = played_s
        self.net = net


class BridgedEconomy(StoreError):
    """The server's chips come from UnbelievaBoat: chips are not made here (no /daily, no
    grant) nor taken except by a cash-out, so that both books keep adding up."""
