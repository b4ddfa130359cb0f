"""Snapshots of a live table: pure functions from the table's state to plain data."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Final

from bot.engine import DECK, Action, Card, Hand, Round, RoundPhase
from bot.shown_names import shown_name
from bot.tables.results import without_stakes
from bot.tables.side_bets import SETTLED_AT_DEAL, SHOWN
from bot.tables.snapshot import (
    CardView,
    DealerView,
    HandView,
    SeatView,
    TablePhase,
    TableSnapshot,
    TournamentPanel,
)
from bot.tables.table import SeatState, Table

#: How many of the round's latest event lines a snapshot carries.
RECENT_EVENTS: Final = 12
_INSURANCE_CHOICES: Final = frozenset({Action.INSURANCE, Action.NO_INSURANCE})


def _make_card_view(card: Card) -> CardView:
    return CardView(str(card), card.suit in (1, 2))


#: Every card's view, made once: a snapshot shows every card on the table after each change.
_CARD_VIEWS: Final[dict[Card, CardView]] = {card: _make_card_view(card) for card in DECK}


def card_view(card: Card) -> CardView:
    """A card as shown: "10♥", red for hearts and diamonds."""
    view = _CARD_VIEWS.get(card)
    return view if view is not None else _make_card_view(card)


def hand_status(hand: Hand) -> str:
    """One word for where a hand stands."""
    if hand.surrendered:
        return "surrendered"
    if hand.total > 21:
        return "bust"
    if hand.natural:
        return "blackjack"
    if hand.doubled:
        return "doubled"
    if not hand.is_finished:
        return "playing"
    return "standing"


def hand_view(hand: Hand, *, current: bool) -> HandView:
    """One hand of one player."""
    return HandView(
        cards=tuple(card_view(card) for card in hand.cards),
        total=hand.total,
        soft=hand.is_soft and hand.total < 21,
        stake=hand.stake,
        status=hand_status(hand),
        is_current=current,
        outcome=str(hand.outcome),
        payout=hand.payout,
        rounded_down=hand.rounded_down,
    )


def dealer_view(round_: Round) -> DealerView:
    """The dealer's hand; the hole card stays hidden until the dealer plays."""
    shown = round_.dealer_cards_shown
    hidden = round_.phase is not RoundPhase.SETTLED
    visible = Hand.of(list(shown))
    status = ""
    if not hidden:
        dealer = round_.dealer
        status = "blackjack" if dealer.natural else "bust" if dealer.total > 21 else "standing"
    return DealerView(
        cards=tuple(card_view(card) for card in shown),
        hole_hidden=hidden,
        total=visible.total,
        soft=visible.is_soft and visible.total < 21,
        status=status,
    )


def _hand_key(hand: Hand) -> tuple[object, ...]:
    """What a hand's view is made from, but its cards (only ever added to)."""
    return (
        len(hand.cards),
        hand.is_finished,
        hand.stake,
        hand.doubled,
        hand.surrendered,
        hand.outcome,
        hand.payout,
        hand.rounded_down,
    )


def seat_view(table: Table, seat: SeatState) -> SeatView:
    """A seated player, with their hands if they play in this round.

    The seat's last view is given again while nothing it shows has changed: a click
    changes one seat, and the table shows every seat after each change. What a view
    shows is read from the seat, the table's phase, what the player may do and the
    player's hands (how many cards, finished, stake, doubled, surrendered, outcome): a
    card never changes in place (a split changes the number of hands).
    """
    round_ = table.round
    pid = seat.pid
    hands_key: tuple[object, ...] = ()
    if round_ is not None and round_.has_player(pid):
        hands_key = (
            round_.phase,
            round_.legal_actions(pid),
            round_.insurance_stake(pid),
            *map(_hand_key, round_.hands(pid)),
        )
    standing = seat.standing
    key = (
        table.phase,
        table.insurance_offered,
        seat.player,
        seat.bet,
        seat.spots,
        seat.leaving,
        seat.deadline,
        seat.last_net,
        tuple(seat.side.items()),
        standing.action(pid),
        standing.standing(pid),
        hands_key,
    )
    cached = seat.view_cache
    if cached is not None and cached[0] is round_ and cached[1] == key:
        view: SeatView = cached[2]
        return view
    view = fresh_seat_view(table, seat)
    seat.view_cache = (round_, key, view)
    return view


def fresh_seat_view(table: Table, seat: SeatState) -> SeatView:
    """:func:`seat_view`, made afresh."""
    round_ = table.round
    pid = seat.pid
    hands: tuple[HandView, ...] = ()
    legal: frozenset[Action] = frozenset()
    insurance: int | None = None
    if round_ is not None and round_.has_player(pid):
        current = round_.current_hand_index(pid)
        hands = tuple(
            hand_view(hand, current=index == current)
            for index, hand in enumerate(round_.hands(pid))
        )
        legal = round_.legal_actions(pid)
        if table.insurance_offered and not legal & _INSURANCE_CHOICES:
            insurance = round_.insurance_stake(pid)
    return SeatView(
        user_id=seat.player.user_id,
        name=seat.player.name,
        hands=hands,
        bet=seat.bet,
        spots=seat.spots,
        insurance=insurance,
        legal=legal,
        deadline=seat.deadline if legal else None,
        leaving=seat.leaving,
        action=seat.standing.action(pid),
        standing=seat.standing.standing(pid),
        net=seat.last_net if table.phase is TablePhase.BETTING else None,
        # Live bets only: 21+3 and Perfect Pairs are settled by the deal.
        side_bets=tuple(
            (SHOWN[bet], stake)
            for bet, stake in seat.side.items()
            if round_ is None or bet not in SETTLED_AT_DEAL
        ),
    )


def hidden(view: SeatView) -> SeatView:
    """A seat whose stakes the table does not show (a sealed or secret bet)."""
    hands = tuple(dataclasses.replace(hand, stake=0, payout=0) for hand in view.hands)
    return dataclasses.replace(view, bet=0, hands=hands, hidden=True, action=0, standing=0)


def build_snapshot(
    table: Table,
    version: int,
    *,
    panel: TournamentPanel | None = None,
    hidden_bets: frozenset[int] = frozenset(),
    rebets: bool = True,
    bet_limits: tuple[int, int] | None = None,
) -> TableSnapshot:
    """Everything the table message shows now; ``panel``, ``hidden_bets``, ``rebets`` and
    ``bet_limits`` (else the rules') from the table's game mode (bot.tables.modes). A
    hidden stake is left out of the event lines too."""
    round_ = table.round
    playing = round_ is not None and table.phase in (TablePhase.INSURANCE, TablePhase.PLAYING)
    low, high = bet_limits or (table.rules.min_bet, table.rules.max_bet)
    return TableSnapshot(
        table_id=table.table_id,
        guild_id=table.guild_id,
        channel_id=table.channel_id,
        host_id=table.host_id,
        preset=table.preset,
        round_no=table.round_no,
        phase=table.phase,
        version=version,
        min_bet=low,
        max_bet=high,
        max_spots=table.rules.max_spots,
        seats=tuple(
            hidden(seat_view(table, seat))
            if seat.player.user_id in hidden_bets
            else seat_view(table, seat)
            for seat in table.seats
        ),
        dealer=dealer_view(round_) if playing and round_ is not None else None,
        deadline=None if table.closed else _deadline(table),
        events=_events(table, hidden_bets),
        last_results=table.last_results,
        last_summary=table.last_summary,
        last_owners=table.last_owners,
        shuffle_notice=table.shuffle_notice,
        commitment=table.shoe.commitment,
        closed_reason=table.closed_reason,
        insurance_offered=table.insurance_offered and playing,
        side_bets_settled=round_ is not None
        and any(seat.spots and SETTLED_AT_DEAL & seat.side.keys() for seat in table.seats),
        rebets=_rebets(table) if rebets else (False, False),
        mode=table.mode,
        panel=panel,
        practice=table.practice,
        quiz_open=table.quiz is not None,
    )


def _deadline(table: Table) -> float | None:
    """When the phase ends: the play phase when the slowest player's timer does."""
    if table.phase is not TablePhase.PLAYING:
        return table.deadline
    times = [seat.deadline for seat in table.seats if seat.deadline is not None]
    return max(times) if times else None


def _events(table: Table, hidden_bets: frozenset[int]) -> tuple[str, ...]:
    """The latest event lines, a hidden stake left out of them."""
    events: Sequence[str] = table.events[-RECENT_EVENTS:]
    if hidden_bets:
        hidden_names = {
            shown_name(s.player.name) for s in table.seats if s.player.user_id in hidden_bets
        }
        events = without_stakes(events, hidden_names)
    return tuple(events)


def _rebets(table: Table) -> tuple[bool, bool]:
    """Whether Bet again, and Bet 2× (within the table's maximum), could repeat a bet."""
    twice = any(2 * stake <= table.rules.max_bet for stake, _ in table.last_bets.values())
    return bool(table.last_bets), twice
