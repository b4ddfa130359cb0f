"""A tournament table's game mode: the policy the round flow asks (bot.tables.modes) and the
purse of tournament stacks.

Each channel of a tournament is an ordinary live table played by the round flow. What
differs is here: each hand's shoe is ``continuation_seed(seed, hand)`` of the tournament's
committed seed (every table of a duplicate tournament deals the same cards to the same
seats); bets are sealed until the deal, one of them may be secret until it is paid, and a
bet is of the player's tournament stack, between the format's limits; a player who lets the
bet timer run out bets the minimum, one who lets the decision timer run out has basic
strategy play their hand; after each hand the stacks change by its result, the fewest chips
may go out, and the table goes on to its next hand or ends. Tournament chips never leave
the table's document: economy chips move only through the prize pool (the coordinator).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Final

import db
from bot.clock import Clock
from bot.engine import Shoe, continuation_seed
from bot.engine.analysis import infinite_lookup
from bot.i18n import _, signed
from bot.shown_names import shown_name
from bot.tables import achievements
from bot.tables.errors import BetRefused, TableError
from bot.tables.journal import apply_decision, decision
from bot.tables.journal import names as seat_names
from bot.tables.modes import Purse
from bot.tables.players import Player
from bot.tables.results import result_lines, without_stakes
from bot.tables.table import SeatState, Table
from bot.tournaments import rules as R
from db.tournament_store import EliminationRow

if TYPE_CHECKING:
    from bot.tables.flow import RoundFlow, ShoeFactory
    from bot.tournaments.service import Tournaments

KEY: Final = "tournament"


@dataclass(slots=True)
class Stack:
    """One player's tournament chips at this table."""

    chips: int
    chips_before: int
    out_after: int | None = None
    secret_used: bool = False
    #: This hand's bet is the player's one secret bet.
    secret: bool = False

    @property
    def playing(self) -> bool:
        """Still in the tournament, with chips to bet."""
        return self.out_after is None and self.chips > 0


@dataclass(slots=True)
class TableStacks:
    """A tournament table's own state (``Table.mode_state``): which tournament, which of
    its tables, and every player's stack."""

    tournament_id: int
    index: int
    stacks: dict[int, Stack]
    #: What the timers did this hand (a minimum bet, a hand played by basic strategy): shown
    #: with the hand, and with its results.
    notices: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "tournament": self.tournament_id,
            "index": self.index,
            "stacks": [
                [user, s.chips, s.chips_before, s.out_after, s.secret_used, s.secret]
                for user, s in self.stacks.items()
            ],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableStacks:
        stacks = {
            int(user): Stack(int(chips), int(before), out, bool(used), bool(secret))
            for user, chips, before, out, used, secret in data["stacks"]
        }
        return cls(int(data["tournament"]), int(data["index"]), stacks)

    def entries(self, seats: Sequence[int]) -> list[R.Entry]:
        """The players' results so far, in seat order (``seats``: the players' ids)."""
        return [
            R.Entry(user, seat, s.chips, s.chips_before, s.out_after, self.index)
            for seat, user in enumerate(seats)
            if (s := self.stacks.get(user)) is not None
        ]


def stacks_of(table: Table) -> TableStacks:
    state = table.mode_state
    assert isinstance(state, TableStacks)
    return state


class StackPurse:
    """Tournament stacks: a stake is of the chips not yet at stake this hand; nothing
    moves until the hand is paid (``TournamentMode.settle``)."""

    def __init__(self, store: db.Store) -> None:
        self._store = store

    async def balance(self, table: Table, user_id: int) -> int:
        stack = stacks_of(table).stacks.get(user_id)
        if stack is None:
            return 0
        round_ = table.round
        pid = str(user_id)
        staked = (
            sum(hand.stake for hand in round_.hands(pid))
            if round_ is not None and round_.has_player(pid)
            else 0
        )
        return stack.chips - staked

    async def stake(
        self,
        table: Table,
        user_id: int,
        amount: int,
        kind: str,
        *,
        write: db.TableWrite | None = None,
        actions: Sequence[db.TableAction] = (),
        headroom: int = 0,
        side_amount: int = 0,
    ) -> int:
        free = await self.balance(table, user_id)
        if amount + side_amount > free:
            raise db.InsufficientChips(free, amount + side_amount)
        if write is not None:
            await self._store.save_table(write, actions)
        else:
            await self._store.append_actions(actions)
        return free - amount - side_amount


class TournamentMode:
    """The tournament table's policy (see the module's text and bot.tables.modes)."""

    key: ClassVar[str] = KEY
    sealed: ClassVar[bool] = True
    rebets: ClassVar[bool] = False

    def __init__(self, store: db.Store, clock: Clock, tournaments: Tournaments) -> None:
        self._store = store
        self._clock = clock
        self._tournaments = tournaments
        self.purse: Purse = StackPurse(store)
        #: Makes a hand's shoe from its seed (tests deal stacked cards through it).
        self.hand_shoe: Callable[[Table, bytes], Shoe] = lambda table, seed: Shoe(
            table.rules.decks, table.rules.penetration, seed
        )

    def load_state(self, data: Any) -> TableStacks:
        return TableStacks.from_dict(data)

    def dump_state(self, state: Any) -> Any:
        assert isinstance(state, TableStacks)
        return state.to_dict()

    def round_shoe(self, table: Table, factory: ShoeFactory) -> Shoe | None:
        t = self._tournaments.of(table)
        return self.hand_shoe(table, continuation_seed(t.seed, table.round_no))

    def check_seating(self, table: Table, player: Player, *, betting: bool) -> None:
        if not betting:
            raise TableError(_("Seats at a tournament table are taken with /tournament join."))
        stack = stacks_of(table).stacks.get(player.user_id)
        if stack is None:
            raise TableError(_("You are not playing at this table."))
        if table.round_no == 0:
            raise TableError(_("This tournament has not started yet."))
        if not stack.playing:
            raise TableError(_("You are out of this tournament."))

    def bet_limits(self, table: Table, seat: SeatState | None) -> tuple[int, int]:
        fmt = self._tournaments.of(table).fmt
        if seat is None:  # the format's (the rules' minimum is 1: a short stack bets all)
            return fmt.min_bet, fmt.max_bet
        chips = stacks_of(table).stacks[seat.player.user_id].chips
        return min(fmt.min_bet, chips), min(fmt.max_bet, chips)

    def note_secret(self, table: Table, user_id: int, secret: bool) -> Callable[[], None]:
        stack = stacks_of(table).stacks[user_id]
        if secret and stack.secret_used:
            raise BetRefused(_("You have already used your one secret bet."))
        before = (stack.secret, stack.secret_used)

        def undo() -> None:
            stack.secret, stack.secret_used = before

        stack.secret, stack.secret_used = secret, stack.secret_used or secret
        return undo

    def hidden_bets(self, table: Table) -> frozenset[int]:
        stacks = stacks_of(table).stacks
        if table.round is None:
            return frozenset(seat.player.user_id for seat in table.seats)
        return frozenset(user for user, stack in stacks.items() if stack.secret)

    def shown_events(self, table: Table) -> Sequence[str]:
        secret = {
            shown_name(seat.player.name)
            for seat in table.seats
            if stacks_of(table).stacks[seat.player.user_id].secret
        }
        return without_stakes(table.events, secret) if secret else table.events

    def panel(self, table: Table) -> tuple[str, ...]:
        return self._tournaments.panel(table)

    # ----------------------------------------------------------- timers

    async def bets_closed(self, flow: RoundFlow, table: Table) -> None:
        """Before the first hand: entries ran out of time. Else whoever did not bet bets
        the minimum, and the hand is dealt."""
        if table.round_no == 0:
            await self._tournaments.idle_end(flow, table)
            return
        fmt = self._tournaments.of(table).fmt
        stacks = stacks_of(table).stacks
        notices = stacks_of(table).notices
        notices.clear()
        for seat in table.seats:
            if seat.spots:
                continue
            seat.bet, seat.spots = min(fmt.min_bet, stacks[seat.player.user_id].chips), 1
            notices.append(
                _(
                    "{player} did not bet in time and bets the minimum, {amount} chips.",
                    player=shown_name(seat.player.name),
                    amount=seat.bet,
                )
            )
        await flow.save(table)
        await flow.deal(table)
        if table.round is not None:  # (a hand the deal finished shows them with its results)
            table.events.extend(notices)

    async def decisions_due(self, flow: RoundFlow, table: Table, late: list[str]) -> None:
        """Basic strategy plays each late player's hands, each decision journaled."""
        round_ = table.round
        assert round_ is not None
        lookup = infinite_lookup(table.rules)
        now = self._clock.now()
        rows: list[db.TableAction] = []
        names = seat_names(table)
        for pid in late:
            free = await self.purse.balance(table, int(pid))
            while pid in round_.players_to_act():
                index = round_.current_hand_index(pid) or 0
                cards = round_.hands(pid)[index].cards
                legal = {a for a in round_.legal_actions(pid) if round_.judge(pid, a).cost <= free}
                action = lookup.advise(list(cards), round_.dealer_up_card, legal)
                free -= round_.judge(pid, action).cost
                row = decision(table, pid, action, now)
                apply_decision(table, row)
                rows.append(row)
            notice = _(
                "{player} did not act in time: basic strategy played their hand.",
                player=names.get(pid, pid),
            )
            table.events.append(notice)
            stacks_of(table).notices.append(notice)
            for seat in table.seats:
                if seat.pid == pid:
                    seat.deadline = None
        await self._store.append_actions(rows)

    # ----------------------------------------------------------- settlement

    async def settle(self, flow: RoundFlow, table: Table) -> None:
        """Pay the hand in tournament chips, reveal secret bets, eliminate; one
        transaction with the table's document, then the next hand or the end."""
        round_ = table.round
        assert round_ is not None
        assert table.round_id is not None
        t = self._tournaments.of(table)
        state = stacks_of(table)
        hand = table.round_no
        settlement = round_.settlement()
        names = seat_names(table)
        lines = [*state.notices, *result_lines(settlement, names)]
        state.notices.clear()
        for seat in table.seats:
            if not round_.has_player(seat.pid):
                continue
            stack = state.stacks[seat.player.user_id]
            net = settlement.player(seat.pid).net
            stack.chips += net
            who = {"player": names[seat.pid], "net": signed(net), "chips": stack.chips}
            if stack.secret:
                bet = seat.bet
                lines.append(
                    _(
                        "{player}'s secret bet was {amount} chips: {net} chips, {chips} now.",
                        amount=bet,
                        **who,
                    )
                )
            else:
                lines.append(_("{player}: {net} chips, {chips} now.", **who))
        earned = achievements.earned(round_, achievements.TOURNAMENT_HAND_CHECKS)
        flow.round_over(table, settlement)
        rows = self._eliminate(t.fmt, table, state, hand, lines, names)
        for stack in state.stacks.values():
            stack.secret = False
        table.last_results = table.last_summary = tuple(lines)
        done = self._tournaments.table_done(table)
        awarded = await self._store.tournaments.settle_hand(
            table.round_id,
            round_.to_json(),
            flow.write(table, between_rounds=True),
            t.tournament_id,
            t.guild_id,
            rows,
            survivor_key=achievements.TOURNAMENT_SURVIVOR.key,
            earned=earned,
            state_json=self._tournaments.document_if(t, done),
        )
        table.round_id = None
        table.events = achievements.announcements(awarded, names)
        # With the results too: a table that has played its last hand shows them there.
        table.last_results = table.last_summary = (*lines, *table.events)
        await self.next_round(flow, table)

    @staticmethod
    def _eliminate(
        fmt: R.Format,
        table: Table,
        state: TableStacks,
        hand: int,
        lines: list[str],
        names: dict[str, str],
    ) -> list[EliminationRow]:
        """After an elimination hand: the fewest chips go out; the rows to record."""
        if not fmt.is_elimination(hand):
            return []
        order = [seat.player.user_id for seat in table.seats]
        still = [
            R.Stack(user, seat, state.stacks[user].chips, state.stacks[user].chips_before)
            for seat, user in enumerate(order)
            if state.stacks[user].out_after is None
        ]
        out = R.eliminated(still, hand, len(order))
        rows = []
        for s in still:
            gone = out is not None and out.user_id == s.user_id
            if gone:
                state.stacks[s.user_id].out_after = hand
                lines.append(
                    _(
                        "{player} has the fewest chips after hand {hand} and is out.",
                        player=names.get(str(s.user_id), str(s.user_id)),
                        hand=hand,
                    )
                )
            rows.append(
                EliminationRow(table.channel_id, hand, s.user_id, s.chips_before, s.chips, gone)
            )
        return rows

    async def next_round(self, flow: RoundFlow, table: Table) -> None:
        """The next hand; or the end of this table (and of the tournament when it was the
        last table playing); or, after a long time with nobody playing, the tournament
        ends and every fee is refunded."""
        await self._tournaments.after_hand(flow, table)
