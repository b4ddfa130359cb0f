"""The values a store hands back, and the ones it takes in (``HandResult``).

Times are timezone-aware UTC datetimes; in the database they are whole
microseconds since the Unix epoch (BIGINT), the one time format both backends
store and compare the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Final, Literal

#: Highest balance an account may hold (and the largest single amount). Far
#: below 2**63 so that a sum of a few large amounts can never overflow BIGINT.
MAX_BALANCE: Final = 10**15

StakeKind = Literal["bet", "double", "split", "insurance", "side_bet"]
STAKE_KINDS: Final[tuple[str, ...]] = ("bet", "double", "split", "insurance", "side_bet")
#: Every ledger kind. Stakes are debits; grant, daily, payout, side_payout and refund are
#: credits; admin is either.
LEDGER_KINDS: Final[tuple[str, ...]] = (
    *STAKE_KINDS,
    "grant",
    "daily",
    "payout",
    "side_payout",
    "refund",
    "admin",
)
Outcome = Literal["win", "blackjack", "push", "loss", "surrender"]
OUTCOMES: Final[tuple[str, ...]] = ("win", "blackjack", "push", "loss", "surrender")
RoundStatus = Literal["open", "settled", "void"]
#: How a server's tables show cards: the bot's card emojis, or text ("A♠ 10♥").
CARD_STYLES: Final[tuple[str, ...]] = ("pictures", "text")
#: How a server's table messages are laid out: one embed (the default), or a Components V2
#: message (a container with a text display per seat).
LAYOUTS: Final[tuple[str, ...]] = ("embed", "components")

_EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)


def to_micros(moment: datetime) -> int:
    """A timezone-aware datetime as whole microseconds since the epoch."""
    if moment.tzinfo is None:
        raise ValueError("the store's clock must return timezone-aware datetimes")
    return (moment - _EPOCH) // timedelta(microseconds=1)


def from_micros(micros: int) -> datetime:
    """The inverse of ``to_micros``, in UTC."""
    return _EPOCH + timedelta(microseconds=micros)


@dataclass(frozen=True, slots=True)
class Account:
    """One player's chips in one guild."""

    guild_id: int
    user_id: int
    balance: int
    #: True when this call created the account (and granted the starting chips).
    created: bool = False


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A guild's economy and table settings; a guild that never set one gets these defaults."""

    default_preset: str = "vegas-shoe"
    min_bet: int = 10
    max_bet: int = 10_000
    starting_chips: int = 1000
    daily_amount: int = 250
    daily_period_s: int = 86_400
    bet_timer_s: int = 30
    action_timer_s: int = 30
    idle_close_s: int = 300
    #: How tables show cards: "pictures" (the bot's card emojis) or "text" ("A♠ 10♥").
    card_style: str = "pictures"
    #: How long a season lasts: "week", "month", "quarter" or "year" (calendar spans, UTC).
    #: A change applies from the next season.
    season_length: str = "month"
    #: The side bets new tables offer: (bet, pay table) pairs ("21+3", "9"), one row each
    #: in ``guild_side_bets``; a bet left out is off.
    side_bets: tuple[tuple[str, str], ...] = ()
    #: Smallest and largest side bet a hand.
    side_min_bet: int = 1
    side_max_bet: int = 1_000
    #: The largest house edge, in percent, of a side bet a table offers: a bet whose edge
    #: at the table's rules is above it is left off there.
    side_max_edge_pct: int = 25
    #: Days an account must have existed to claim /daily or sit at a table (0: no gate).
    min_account_age_days: int = 7
    #: Channel ids where tables may open, comma-separated ("": any channel).
    table_channels: str = ""
    #: The role that may play (0: everyone).
    play_role_id: int = 0
    #: 1 while an admin has stopped all play in the server.
    play_stopped: int = 0
    #: The language of the server's table messages: "server" (the server's preferred
    #: locale) or a Discord locale code the bot speaks (``bot.i18n.LANGUAGES``, checked by
    #: the admin command: the store sits below ``bot`` and keeps the code as text).
    language: str = "server"
    #: How table messages are laid out (LAYOUTS); a change shows from the next round.
    layout: str = "embed"
    #: 1: every table opened in the server is a practice table (a counting trainer).
    practice_tables: int = 0
    #: On a server connected to UnbelievaBoat (0: off): a player who sits down with fewer
    #: chips than this buys the difference with their cash, in the background.
    bridge_buy_in: int = 0
    #: 1: a player's chips go back as UnbelievaBoat cash when they leave a table.
    bridge_cash_out_on_leave: int = 0
    #: Minutes without a bet, a payout or a transfer after which a player's chips go back
    #: as UnbelievaBoat cash (0: never).
    bridge_idle_cash_out_min: int = 0

    def side_pay_table(self, bet: str) -> str | None:
        """The pay table of ``bet`` new tables offer, or None: the bet is off."""
        return dict(self.side_bets).get(bet)


@dataclass(frozen=True, slots=True)
class HandResult:
    """How one hand ended, recorded at settlement for statistics.

    ``wagered`` is every chip the player staked on this hand (bet, double, its
    share of a split, insurance taken for it); ``payout`` is every chip credited
    for it, the returned stake included (a lost hand pays 0, a push pays back
    ``wagered``). Net for the hand is ``payout - wagered``.
    """

    user_id: int
    outcome: Outcome
    wagered: int
    payout: int
    #: Position of the hand in the round (spot and split order), for display.
    hand_index: int = 0


@dataclass(frozen=True, slots=True)
class SideBetResult:
    """How one side bet ended, recorded at settlement apart from the hands.

    ``payout`` is every chip credited for it, the stake included (0 when it lost).
    """

    user_id: int
    spot: int
    bet: str
    pay_table: str
    #: The winning category ("straight"), or None for a lost bet.
    category: str | None
    wagered: int
    payout: int


@dataclass(frozen=True, slots=True)
class SettleResult:
    """What ``settle_round`` did."""

    round_id: int
    #: True when the round was already closed, so this call changed nothing.
    already_settled: bool
    #: The round's status after the call: 'settled', or 'void' if it had been voided.
    status: RoundStatus
    #: Chips credited by this call, per player (nonzero payouts only).
    payouts: dict[int, int] = field(default_factory=dict)
    #: Balances after the credit, for the players paid.
    balances: dict[int, int] = field(default_factory=dict)
    #: Achievements this settlement awarded, per player (keys new to the player).
    awarded: dict[int, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class VoidResult:
    """What ``void_round`` (or ``recover``) did, with what the bot needs to edit its message."""

    round_id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    #: The last state saved with ``save_round_state`` (opaque JSON text), if any.
    state_json: str | None
    reason: str
    #: True when the round was already settled or void, so this call changed nothing.
    already_closed: bool
    status: RoundStatus
    #: Chips refunded by this call, per player.
    refunds: dict[int, int] = field(default_factory=dict)
    #: Balances after the refund, for the players refunded.
    balances: dict[int, int] = field(default_factory=dict)
    #: Chips not refunded because they would have passed the chip ceiling, per player.
    unpaid: dict[int, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class DailyResult:
    """What ``claim_daily`` did."""

    claimed: bool
    #: Chips credited by this claim (0 when not claimed).
    amount: int
    balance: int
    #: When the next claim opens.
    next_claim_at: datetime


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    """A place on the leaderboard. Equal balances share a rank (1, 2, 2, 4)."""

    rank: int
    user_id: int
    balance: int


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    """One page of a guild's leaderboard."""

    guild_id: int
    #: The page shown, 1-based; a page past the end shows the last page.
    page: int
    per_page: int
    total_pages: int
    total_players: int
    entries: list[LeaderboardEntry]
    #: The caller's own place, when a caller was given and has an account.
    caller: LeaderboardEntry | None


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's record in one guild, from the hands settled there."""

    hands: int = 0
    #: Hands won, blackjacks included.
    wins: int = 0
    #: Hands lost, surrenders included.
    losses: int = 0
    pushes: int = 0
    blackjacks: int = 0
    surrenders: int = 0
    total_wagered: int = 0
    net: int = 0
    #: The largest net gain on a single hand (0 if none won).
    biggest_win: int = 0
    #: Side bets settled, won, their stakes and their net, apart from the hands above.
    side_bets: int = 0
    side_bet_wins: int = 0
    side_bet_wagered: int = 0
    side_bet_net: int = 0


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """A round as stored."""

    round_id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    status: RoundStatus
    rules_json: str
    commitment: str
    #: The shoe's seed once it has been revealed (the shoe was retired), else None.
    seed_hex: str | None
    state_json: str | None
    #: Chips staked in the round, and chips paid out at settlement.
    staked: int
    paid: int
    opened_at: datetime
    closed_at: datetime | None
    void_reason: str | None


@dataclass(frozen=True, slots=True)
class ShoeRecord:
    """A shoe: its commitment from the start, its seed once retired."""

    shoe_id: int
    guild_id: int
    channel_id: int
    commitment: str
    seed_hex: str | None
    created_at: datetime
    retired_at: datetime | None


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One row of the append-only ledger."""

    entry_id: int
    guild_id: int
    user_id: int
    delta: int
    balance_after: int
    kind: str
    round_id: int | None
    actor_id: int | None
    reason: str | None
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Staked:
    """A bet's stake taken (``Store.stake_bet``): the balance left, and whether the same
    transaction marked the player's no-value notice seen, their first bet (the notice is then
    shown with the bet's answer)."""

    balance: int
    first_notice: bool = False


@dataclass(frozen=True, slots=True)
class TableWrite:
    """A table's stored document, written with the change that produced it.

    The store does not read ``state_json``: it is the table service's (opaque JSON text).
    """

    table_id: str
    guild_id: int
    channel_id: int
    message_id: int | None
    #: The round being bet on or played, or None between rounds.
    round_id: int | None
    #: SHARD_COUNT of the writing process (1 unsharded).
    shard_count: int
    state_json: str
    #: False once the table has closed: it is never resumed.
    is_open: bool = True


@dataclass(frozen=True, slots=True)
class TableAction:
    """One decision of a round, appended to the table's journal ('deal' comes first)."""

    table_id: str
    round_id: int
    player: str
    action: str
    #: Opaque JSON text (the deal's shoe and bets), or None.
    detail: str | None
    #: Unix time of the decision, in seconds.
    at: float


@dataclass(frozen=True, slots=True)
class StoredTable(TableWrite):
    """An open table as stored, with the journal of its current round (oldest first)."""

    actions: tuple[TableAction, ...] = ()
    #: The channel's most recently retired shoe (for /blackjack fairness), or None.
    previous_shoe: ShoeRecord | None = None


@dataclass(frozen=True, slots=True)
class LedgerPage:
    """A page of one account's ledger, newest first, and whether there is more either way."""

    entries: list[LedgerEntry]
    has_older: bool
    has_newer: bool
