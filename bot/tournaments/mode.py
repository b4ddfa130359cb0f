"""A tournament table's game mode (bot.tables.modes): hand n is dealt from
``continuation_seed(seed, n)`` (so a duplicate tournament's tables deal the same cards), bets
are sealed or secret and taken from the player's stack; the timers bet the minimum and play
basic strategy."""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import asdict, astuple, dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar, Final

import db
from bot.clock import Clock
from bot.engine import Rules, Shoe, commitment, continuation_seed, preset
from bot.i18n import _, signed
from bot.tables import achievements
from bot.tables.autoplay import play_by_chart
from bot.tables.errors import BetRefused, TableError
from bot.tables.journal import names as seat_names
from bot.tables.modes import Purse
from bot.tables.players import Player
from bot.tables.purses import DocumentPurse
from bot.tables.results import result_lines
from bot.tables.snapshot import StackView, TournamentPanel
from bot.tables.table import SeatState, Table, Timers
from bot.tournaments import elimination as R
from bot.tournaments.state import Status, Tournament
from db.tournament_store import EliminationRow

if TYPE_CHECKING:
    from bot.tables.flow import RoundFlow, ShoeFactory
    from bot.tournaments.service import Tournaments

KEY: Final = "tournament"
#: Every hand is dealt by a six-deck shoe without insurance or surrender, so each hand is
#: the same few decisions for everyone.
BASE_PRESET: Final = "vegas-shoe"


@dataclass(slots=True)
class Stack:
    """One player's tournament chips, and their secret bet (used; this hand's)."""

    chips: int
    chips_before: int
    out_after: int | None = None
    secret_used: bool = False
    secret: bool = False

    @property
    def playing(self) -> bool:
        """Still in the tournament, with chips to bet."""
        return self.out_after is None and self.chips > 0


@dataclass(slots=True)
class TableStacks:
    """A tournament table's state (``Table.mode_state``): its tournament, its index there,
    every player's stack, and what the timers did this hand (shown with its results)."""

    tournament_id: int
    index: int
    stacks: dict[int, Stack]
    notices: list[str] = field(default_factory=list)

    def entries(self, seats: Sequence[int]) -> list[R.Entry]:
        """The results so far of the players ``seats`` (ids in seat order)."""
        return [
            R.Entry(user, seat, s.chips, s.chips_before, s.out_after, self.index)
            for seat, user in enumerate(seats)
            if (s := self.stacks.get(user)) is not None
        ]


def stacks_of(table: Table) -> TableStacks:
    state = table.mode_state
    assert isinstance(state, TableStacks)
    return state


def entries_table(t: Tournament, channel_id: int, now: float) -> Table:
    """A new table of ``t`` in this channel, taking entries (no seat yet, no hand dealt)."""
    changes = {"insurance": False, "surrender": "none", "min_bet": 1, "max_bet": t.fmt.max_bet}
    rules = Rules.from_dict(preset(BASE_PRESET).to_dict() | changes | {"max_spots": 1})
    return Table(
        table_id="",
        guild_id=t.guild_id,
        channel_id=channel_id,
        host_id=t.host_id,
        preset=BASE_PRESET,
        rules=rules,
        timers=Timers(*t.timers),
        shoe=Shoe(rules.decks, rules.penetration, continuation_seed(t.seed, 0)),
        previous_shoe=None,
        previous_decks=None,
        idle_since=now,
        mode=KEY,
        mode_state=TableStacks(t.tournament_id, len(t.channels), {}),
        deadline=now + t.timers[2],  # entries end after this long without a start
    )


def _chips(table: Table, user_id: int) -> int | None:
    stack = stacks_of(table).stacks.get(user_id)
    return None if stack is None else stack.chips


class TournamentMode:
    """The tournament table's policy (see the module's text and bot.tables.modes)."""

    key: ClassVar[str] = KEY
    sealed: ClassVar[bool] = True
    rebets: ClassVar[bool] = False

    def __init__(self, store: db.Store, clock: Clock, tournaments: Tournaments) -> None:
        self._store, self._clock, self._tournaments = store, clock, tournaments
        self.purse: Purse = DocumentPurse(store, _chips)
        #: Makes hand n's shoe from its seed (tests deal stacked cards through it).
        self.hand_shoe: Callable[[Table, bytes], Shoe] = lambda table, seed: Shoe(
            table.rules.decks, table.rules.penetration, seed
        )

    def load_state(self, data: Any) -> TableStacks:
        stacks = {int(row[0]): Stack(*row[1:]) for row in data[2]}
        return TableStacks(int(data[0]), int(data[1]), stacks)

    def dump_state(self, state: Any) -> Any:
        assert isinstance(state, TableStacks)
        rows = [[user, *astuple(stack)] for user, stack in state.stacks.items()]
        return [state.tournament_id, state.index, rows]

    def round_shoe(self, table: Table, factory: ShoeFactory) -> Shoe | None:
        seed = self._tournaments.of(table).seed
        return self.hand_shoe(table, continuation_seed(seed, table.round_no))

    def check_seating(self, table: Table, player: Player, *, betting: bool) -> None:
        stack = stacks_of(table).stacks.get(player.user_id)
        if not betting:
            raise TableError(_("Seats at a tournament table are taken with /tournament join."))
        if stack is None:
            raise TableError(_("You are not playing at this table."))
        if table.round_no == 0:
            raise TableError(_("This tournament has not started yet."))
        if not stack.playing:
            raise TableError(_("You are out of this tournament."))

    def bet_limits(self, table: Table, seat: SeatState | None) -> tuple[int, int]:
        t = self._tournaments.find(table)
        if t is None:  # it ended before a restart: the table only closes now
            return table.rules.min_bet, table.rules.max_bet
        if seat is None:  # the format's (the rules' minimum is 1: a short stack bets all)
            return t.fmt.min_bet, t.fmt.max_bet
        chips = stacks_of(table).stacks[seat.player.user_id].chips
        return min(t.fmt.min_bet, chips), min(t.fmt.max_bet, chips)

    def note_secret(self, table: Table, user_id: int, secret: bool) -> Callable[[], None]:
        stacks = stacks_of(table).stacks
        stack = stacks[user_id]
        if secret and stack.secret_used:
            raise BetRefused(_("You have already used your one secret bet."))
        stacks[user_id] = replace(stack, secret=secret, secret_used=stack.secret_used or secret)
        return partial(operator.setitem, stacks, user_id, stack)

    def hidden_bets(self, table: Table) -> frozenset[int]:
        if table.round is None:  # sealed until the deal
            return frozenset(seat.player.user_id for seat in table.seats)
        return frozenset(u for u, stack in stacks_of(table).stacks.items() if stack.secret)

    def panel(self, table: Table) -> TournamentPanel:
        state, t = stacks_of(table), self._tournaments.find(table)
        if t is None:  # it ended before a restart: the table only closes now
            return TournamentPanel(state.tournament_id)
        at = t.at(state.index)
        stacks = (state.stacks[e.user_id] for e in at)
        return TournamentPanel(
            t.tournament_id,
            table=state.index + 1 if t.duplicate else 0,
            tables=len(t.channels) if t.duplicate else 0,
            registering=t.status is Status.REGISTERING,
            hand=table.round_no,
            commitment=commitment(t.seed),
            stacks=tuple(
                StackView(e.name, s.chips, s.out_after) for e, s in zip(at, stacks, strict=True)
            ),
            pool=t.pool,
            **asdict(t.fmt),  # the format's terms, by the names of its fields
        )

    async def bets_closed(self, flow: RoundFlow, table: Table) -> None:
        """Entries ran out of time (before the first hand); else whoever did not bet bets
        the minimum, and the hand is dealt."""
        if table.round_no == 0:
            await self._tournaments.idle_end(table)
            return
        state, low = stacks_of(table), self._tournaments.of(table).fmt.min_bet
        state.notices.clear()
        for seat in (seat for seat in table.seats if not seat.spots):
            seat.bet, seat.spots = min(low, state.stacks[seat.player.user_id].chips), 1
            notice = _(
                "{player} did not bet in time and bets the minimum, {amount} chips.",
                player=seat_names(table)[seat.pid],
                amount=seat.bet,
            )
            state.notices.append(notice)
        await flow.save(table)
        await flow.deal(table)
        if table.round is not None:  # (a hand the deal finished shows them with its results)
            table.events.extend(state.notices)

    async def decisions_due(self, flow: RoundFlow, table: Table, late: list[str]) -> None:
        """Basic strategy plays each late player's hand, each decision journaled."""
        free = {pid: await self.purse.balance(table, int(pid)) for pid in late}
        rows, notices = play_by_chart(table, late, free, self._clock.now())
        stacks_of(table).notices.extend(notices)
        await self._store.tables.append_actions(rows)

    async def settle(self, flow: RoundFlow, table: Table) -> None:
        """Pay the hand in tournament chips, reveal secret bets, eliminate: one transaction
        with the table's document; then the coordinator's next step."""
        round_, round_id, state = table.round, table.round_id, stacks_of(table)
        assert round_ is not None
        assert round_id is not None
        t, settlement, names = self._tournaments.of(table), round_.settlement(), seat_names(table)
        lines = [*state.notices, *result_lines(settlement, names)]
        for seat in (seat for seat in table.seats if round_.has_player(seat.pid)):
            stack, net = state.stacks[seat.player.user_id], settlement.player(seat.pid).net
            stack.chips += net
            who = {"player": names[seat.pid], "net": signed(net), "chips": stack.chips}
            if stack.secret:
                text = _(
                    "{player}'s secret bet was {amount} chips: {net} chips, {chips} now.",
                    amount=seat.bet,
                    **who,
                )
            else:
                text = _("{player}: {net} chips, {chips} now.", **who)
            lines.append(text)
            stack.secret = False
        earned = achievements.earned(round_, achievements.TOURNAMENT_HAND_CHECKS)
        flow.round_over(table, settlement)
        rows = _eliminate(t.fmt, table, lines, names)
        state.notices.clear()
        table.last_results = table.last_summary = tuple(lines)
        done = self._tournaments.table_done(table)
        awarded = await self._store.tournaments.settle_hand(
            round_id,
            round_.to_json(),
            flow.write(table, between_rounds=True),
            t.tournament_id,
            t.guild_id,
            rows,
            survivor_key=achievements.TOURNAMENT_SURVIVOR.key,
            earned=earned,
            state_json=t.document() if done else None,
        )
        flow.settled(table, round_id)
        table.round_id = None
        table.events = achievements.announcements(awarded, names)
        # With the results too: a table that has played its last hand shows them there.
        table.last_results = table.last_summary = (*lines, *table.events)
        await self.next_round(flow, table)

    async def next_round(self, flow: RoundFlow, table: Table) -> None:
        await self._tournaments.after_hand(table)


def _eliminate(
    fmt: R.Format, table: Table, lines: list[str], names: dict[str, str]
) -> list[EliminationRow]:
    """After an elimination hand the fewest chips go out: the line, and the rows to record."""
    hand = table.round_no
    if hand not in fmt.eliminations:
        return []
    state, order = stacks_of(table), [seat.player.user_id for seat in table.seats]
    still = [entry for entry in state.entries(order) if entry.out_after is None]
    out = R.eliminated(still, hand, len(order))
    if out is not None:
        state.stacks[out.user_id].out_after = hand
        player = names.get(str(out.user_id), str(out.user_id))
        lines.append(
            _(
                "{player} has the fewest chips after hand {hand} and is out.",
                player=player,
                hand=hand,
            )
        )
    return [
        EliminationRow(table.channel_id, hand, s.user_id, s.chips_before, s.chips, s is out)
        for s in still
    ]
