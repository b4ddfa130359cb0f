"""The play gate: may this member open a table, sit, bet, claim /daily or enter a tournament
here, and if not, why and until when.

Every feature that lets a member play asks :meth:`PlayGate.check` (or :meth:`require`)
first. It reads the server's gates (stop switch, table channels, play role, minimum
account age) and, for anything but a bet, the member's break (a cooling-off or
self-exclusion): its reading lets a refusal come before any table changes, and says
"until when".

A bet's own limits (exclusion, reality check, loss limit) are checked once only, where
they hold across tables and shards: inside the transaction that stakes it
(db.ops.play_limits.check_bet), whose refusal (db.PlayRefused) the table service answers
in the same words, the reality check with its Continue (bot.tables.staking). A bet thus
costs no transaction of its own here.

The server's settings come from the process's one cache of them (bot.server_settings),
which the admin's change writes through.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass
from enum import Enum
from typing import Final

import db
from bot.clock import Clock
from bot.server_settings import ServerSettings
from bot.tables.errors import PAUSED, PlayBlocked
from bot.tables.play_words import (
    STOPPED,
    excluded_text,
    needs_role_text,
    too_new_text,
    wrong_channel_text,
)

#: Discord's epoch (2015-01-01), in milliseconds: a snowflake's timestamp counts from it.
DISCORD_EPOCH_MS: Final = 1_420_070_400_000
_DAY_S: Final = 86_400


class Activity(Enum):
    """What a member asks to do."""

    OPEN = "open a table"
    JOIN = "sit at a table"
    BET = "bet"
    DAILY = "claim /daily"
    #: Buy chips with UnbelievaBoat cash (cashing out is never gated).
    CASH_IN = "buy chips"
    TOURNAMENT = "enter a tournament"
    #: Create or start a tournament: only the stop switch applies (a host need not play).
    HOST = "run a tournament"


#: The actions whose first step writes to the store and, for a bet, checks the limits
#: again in its transaction: with the store unreachable, that step refuses them itself.
_CHECKED_AGAIN: Final = frozenset({Activity.OPEN, Activity.BET})
#: The actions whose own limits only the stake's transaction checks: a host need not play,
#: and a bet's limits are checked where they hold across shards (see the module).
_STAKE_CHECKED: Final = frozenset({Activity.HOST, Activity.BET})
#: The actions only the table channels may host.
_CHANNEL_GATED: Final = frozenset({Activity.OPEN})


@dataclass(frozen=True, slots=True)
class Asker:
    """Who asks: their user id and, in a server, their role ids (None: not known), asked
    one role at a time (``role in role_ids``)."""

    user_id: int
    role_ids: Container[int] | None = None


def account_created(user_id: int) -> float:
    """When a Discord account was made (epoch seconds), from its id's snowflake timestamp."""
    return ((user_id >> 22) + DISCORD_EPOCH_MS) / 1000


class PlayGate:
    """The one check before play. ``check`` returns the refusal, ``require`` raises it."""

    def __init__(self, store: db.Store, clock: Clock, settings: ServerSettings) -> None:
        self._store = store
        self._clock = clock
        self._settings = settings

    async def require(
        self, guild_id: int, asker: Asker, action: Activity, channel_id: int | None = None
    ) -> None:
        """Raise the refusal (PlayBlocked, a TableError) if there is one."""
        refusal = await self.check(guild_id, asker, action, channel_id)
        if refusal is not None:
            raise refusal

    async def check(
        self, guild_id: int, asker: Asker, action: Activity, channel_id: int | None = None
    ) -> PlayBlocked | None:
        """The refusal of ``action`` by ``asker`` in ``guild_id`` (and ``channel_id``), or None.

        ``PlayBlocked.until`` (epoch seconds) says when the answer may change, if known. A
        bet's own limits (the reality check among them) are left to its stake's transaction
        (see the module).
        """
        try:
            settings = await self._settings.of(guild_id)
            refusal = self._server_gates(settings, guild_id, asker, action, channel_id)
            if refusal is not None or action in _STAKE_CHECKED:
                return refusal
            return await self._own_limits(guild_id, asker.user_id)
        except db.StoreUnavailable:
            if action in _CHECKED_AGAIN:
                return None  # refused by the store itself, in the table's own words
            return PlayBlocked(PAUSED)

    async def on_break(self, guild_id: int, user_id: int) -> PlayBlocked | None:
        """The member's break (a cooling-off or self-exclusion) running now in ``guild_id``,
        or None.

        A tournament entered before the break began asks this at each bet and decision:
        the fee is already paid and tournament chips are not the economy's, so the seat
        stays and plays by the timers' rules (the minimum bet, basic strategy), and the
        member's own bets and decisions are refused until the break ends.
        """
        try:
            return await self._own_limits(guild_id, user_id)
        except db.StoreUnavailable:
            return None  # the tournament's own write is refused by the store in that case

    def _server_gates(
        self,
        settings: db.GuildSettings,
        guild_id: int,
        asker: Asker,
        action: Activity,
        channel_id: int | None,
    ) -> PlayBlocked | None:
        if settings.play_stopped:
            return PlayBlocked(STOPPED)
        if action is Activity.HOST:
            return None
        if action in _CHANNEL_GATED and settings.table_channels:  # read only where it gates
            channels = [int(c) for c in settings.table_channels.split(",") if c]
            if channels and channel_id not in channels:
                listed = ", ".join(f"<#{c}>" for c in channels)
                return PlayBlocked(wrong_channel_text(listed))
        role = settings.play_role_id
        # The @everyone role's id is the server's: that role is everyone's.
        if role and role != guild_id and asker.role_ids is not None and role not in asker.role_ids:
            return PlayBlocked(needs_role_text(f"<@&{role}>"))
        days = settings.min_account_age_days
        if days:  # every action claims /daily or takes a seat (a bet, a table, a tournament)
            allowed_from = account_created(asker.user_id) + days * _DAY_S
            if self._clock.now() < allowed_from:
                return PlayBlocked(too_new_text(days, allowed_from), until=allowed_from)
        return None

    async def _own_limits(self, guild_id: int, user_id: int) -> PlayBlocked | None:
        """The member's break (cooling-off or self-exclusion) in ``guild_id`` (where its admin
        may have lifted it), the one own limit that refuses more than a bet."""
        mine = await self._store.play.limits(user_id, tally=False, guild_id=guild_id)
        limits, now = mine.limits, _micros(self._clock.now())
        if limits.excluded(now):
            until = None if limits.until_admin else (limits.excluded_until or now) / 1e6
            return PlayBlocked(excluded_text(until), until=until)
        return None


def _micros(seconds: float) -> int:
    return round(seconds * 1_000_000)
