"""The cash table's game mode: chips from the server's economy, a shoe dealt to its cut
card, bets in the open, a late player's hands stood, and betting again after each round."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

import db
from bot.clock import Clock
from bot.coach_grading import TIMEOUT
from bot.engine import Shoe
from bot.i18n import _
from bot.tables import chip_limit
from bot.tables.achievements import HeldAwards, announcements, round_awards
from bot.tables.errors import BetRefused
from bot.tables.journal import apply_decision, decision, side_stakes
from bot.tables.journal import names as seat_names
from bot.tables.modes import Purse
from bot.tables.players import Player
from bot.tables.practice import QUIZ_ASKED, quiz_of
from bot.tables.purses import EconomyPurse
from bot.tables.registry import TableRegistry
from bot.tables.results import hand_results, payouts_of, result_account, shuffle_notice
from bot.tables.round_summary import balance_change, summary_lines
from bot.tables.side_bets import (
    SETTLED_AT_DEAL,
    outcome_lines,
    side_bet_outcomes,
    side_bet_results,
)
from bot.tables.table import SeatState, Table

if TYPE_CHECKING:
    from bot.tables.flow import RoundFlow, ShoeFactory

log = logging.getLogger(__name__)


def duration_text(seconds: float) -> str:
    """A configured time as people say it: ``30 s``, ``1 min``, ``2 min 30 s``, ``1 h 5 min``."""
    whole = max(1, round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [f"{hours} h" if hours else "", f"{minutes} min" if minutes else ""]
    parts.append(f"{secs} s" if secs else "")
    return " ".join(part for part in parts if part)


def _nothing() -> None:
    return None


class CashMode:
    """The cash table's policy (see bot.tables.modes)."""

    key: ClassVar[str] = "cash"
    sealed: ClassVar[bool] = False
    rebets: ClassVar[bool] = True

    def __init__(self, store: db.Store, clock: Clock, registry: TableRegistry) -> None:
        self._store = store
        self._clock = clock
        self._registry = registry
        self.purse: Purse = EconomyPurse(store)
        #: The achievements players are known to hold: not checked nor awarded again.
        self.held = HeldAwards()

    def load_state(self, data: Any) -> None:
        return None

    def dump_state(self, state: Any) -> None:
        return None

    def round_shoe(self, table: Table, factory: ShoeFactory) -> Shoe | None:
        return None  # one shoe until its cut card (next_round shuffles)

    def check_seating(self, table: Table, player: Player, *, betting: bool) -> None:
        return None

    def bet_limits(self, table: Table, seat: SeatState | None) -> tuple[int, int]:
        return table.rules.min_bet, table.rules.max_bet

    def note_secret(self, table: Table, user_id: int, secret: bool) -> Callable[[], None]:
        if secret:
            raise BetRefused(_("Secret bets are a tournament's: this table shows every bet."))
        return _nothing

    def hidden_bets(self, table: Table) -> frozenset[int]:
        return frozenset()

    def panel(self, table: Table) -> None:
        return None

    # ----------------------------------------------------------- timers

    async def bets_closed(self, flow: RoundFlow, table: Table) -> None:
        """Deal for those who bet, or void an empty round (and close an idle table)."""
        if any(seat.spots for seat in table.seats):
            await flow.deal(table)
            return
        if table.round_id is not None:
            write = flow.write(table, between_rounds=True)
            await self._store.void_round(table.round_id, "nobody bet", table=write)
            table.round_id = None
        idle = self._clock.now() - table.idle_since
        if idle >= table.timers.idle_close_s:
            idle_for = duration_text(table.timers.idle_close_s)
            await flow.close(table, _("Closed after {time} without bets.", time=idle_for))
            return
        await flow.open_betting(table)

    async def decisions_due(self, flow: RoundFlow, table: Table, late: list[str]) -> None:
        """Insurance declined, or every hand stood."""
        now = self._clock.now()
        rows = [decision(table, pid, TIMEOUT, now) for pid in late]
        await self._store.tables.append_actions(rows)
        for row in rows:
            apply_decision(table, row)

    # ----------------------------------------------------------- settlement

    async def settle(self, flow: RoundFlow, table: Table) -> None:
        """Pay the finished round in one transaction with the table's new document, then
        shuffle if due and bet again."""
        round_ = table.round
        assert round_ is not None
        assert table.round_id is not None
        settlement = round_.settlement()
        bets = {seat.pid: seat.bet for seat in table.seats if seat.spots}
        side = side_bet_outcomes(round_, table.side_bets, side_stakes(table), settled=True)
        # The bets the deal settles were paid with it: only the others are paid now.
        settled_now = [outcome for outcome in side if outcome.bet not in SETTLED_AT_DEAL]
        spots = {seat.pid: seat.spots for seat in table.seats}
        flow.round_over(table, settlement)

        def settled(unpaid: dict[str, int]) -> db.TableWrite:
            names = seat_names(table)
            side_lines = outcome_lines(side, names, spots)
            account = result_account(settlement, names, unpaid, side_lines)
            table.last_owners = tuple(owner for owner, _ in account)
            table.last_results = tuple(line for _, line in account)
            table.last_summary = summary_lines(settlement, names, side, unpaid)
            for seat in table.seats:
                if seat.spots:  # the seat's net: the round's change of the balance
                    seat.last_net = balance_change(settlement, side, seat.pid, unpaid)
            return flow.write(table, between_rounds=True)

        awards = round_awards(table.guild_id, round_, self.held)
        result = await self._pay(
            table.round_id,
            payouts_of(settlement),
            hand_results(settlement, bets),
            round_.to_json(),
            settled,
            awards,
            side_bet_results(settled_now),
        )
        awarded = result.awarded
        if not result.already_settled:
            self.held.settled(awards, awarded)
        flow.settled(table, table.round_id)
        table.round_id = None
        # Shown in the Latest line while the next round is bet (saved with its document).
        table.events = announcements(awarded, seat_names(table))
        await self.next_round(flow, table)

    async def next_round(self, flow: RoundFlow, table: Table) -> None:
        """A new shoe when the cut card came out, then betting; or the close a stop asked
        for while the round was played."""
        if table.closing:
            await flow.close(table, table.closing)
            return
        if table.shoe.cut_card_reached:
            await self._new_shoe(flow, table)
        await flow.open_betting(table)

    async def _pay(
        self,
        round_id: int,
        payouts: dict[int, int],
        hands: list[db.HandResult],
        state_json: str,
        settled: Callable[[dict[str, int]], db.TableWrite],
        awards: db.RoundAwards,
        side_bets: list[db.SideBetResult],
    ) -> db.SettleResult:
        """Settle the round; a player the ceiling stops is paid up to it, nobody else changes.

        ``settled(unpaid)``: the table's document afterwards, committed with the payouts
        and the round's ``awards``; it is told the chips that did not fit, per player id
        (none unless chips reached a player from elsewhere during the round: bets are
        checked against the ceiling). Returns the store's result (``awarded``: the
        achievements new to each player).
        """
        unpaid: dict[str, int] = {}
        while True:
            try:
                write = settled(unpaid)
                result = await self._store.settle_round(
                    round_id,
                    payouts,
                    hands,
                    state_json,
                    table=write,
                    awards=awards,
                    side_bets=side_bets,
                )
                return result
            except db.BalanceLimitExceeded as error:
                who, over = error.user_id, chip_limit.over_the_limit(error)
                if who is None or over <= 0:
                    raise
                unpaid[str(who)] = unpaid.get(str(who), 0) + over
                log.warning("round %s: %s chips over the limit not paid to %s", round_id, over, who)
                payouts, hands, side_bets = chip_limit.capped(payouts, hands, side_bets, who, over)

    async def _new_shoe(self, flow: RoundFlow, table: Table) -> None:
        """Retire the shoe (reveal its seed), start a new one, announce action and standing."""
        old = table.shoe
        if old.seed:
            # A stacked test shoe has no seed to reveal.
            table.previous_shoe = await self._store.shoes.reveal_seed(
                old.commitment, old.seed.hex()
            )
            table.previous_decks = old.decks
            self._registry.retired_decks[old.commitment] = old.decks
        table.shoe = flow.new_shoe_for(table.rules)
        await self._store.shoes.open_shoe(table.guild_id, table.channel_id, table.shoe.commitment)
        staying = [seat for seat in table.seats if not seat.leaving]
        table.shuffle_notice = shuffle_notice(staying, table.shoe.commitment)
        if table.practice:  # the counting trainer asks for the finished shoe's count
            table.quiz = quiz_of(old)
            table.shuffle_notice = (*table.shuffle_notice, QUIZ_ASKED)
