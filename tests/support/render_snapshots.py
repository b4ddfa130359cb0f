"""Table snapshots built by hand for the rendering tests (plain data, no service)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from bot.engine.actions import Action
from bot.tables.snapshot import CardView, DealerView, HandView, SeatView, TablePhase, TableSnapshot

NOW = 1_800_000_000.0


def cards(text: str) -> tuple[CardView, ...]:
    """``"A♠ 10♥"`` as card views."""
    return tuple(CardView(part, part[-1] in "♥♦") for part in text.split())


def hand(text: str, total: int, stake: int = 100, **fields: Any) -> HandView:
    """A hand of these cards."""
    fields.setdefault("soft", False)
    fields.setdefault("status", "playing")
    return HandView(cards=cards(text), total=total, stake=stake, **fields)


def seat(user_id: int, name: str, *hands: HandView, **fields: Any) -> SeatView:
    """A seated player."""
    if hands and "bet" not in fields:
        fields["bet"] = hands[0].stake
        fields["spots"] = len(hands)
    return SeatView(user_id=user_id, name=name, hands=hands, **fields)


def table(phase: TablePhase = TablePhase.PLAYING, *seats: SeatView, **fields: Any) -> TableSnapshot:
    """A table at ``phase`` with these seats."""
    base = TableSnapshot(
        table_id="a1b2c3d4",
        guild_id=10,
        channel_id=20,
        host_id=1,
        preset="vegas-shoe",
        round_no=3,
        phase=phase,
        version=7,
        min_bet=10,
        max_bet=10_000,
        max_spots=7,
        seats=seats,
        dealer=DealerView(cards=cards("9♠"), hole_hidden=True, total=9, soft=False),
        deadline=None,
        commitment="ab" * 32,
    )
    return replace(base, **fields)


def seven_split_seats(
    hand_cards: str,
    name_of: Callable[[int], str],
    hand_fields: Callable[[int], dict[str, Any]],
    *,
    first_id: int,
    **seat_fields: Any,
) -> tuple[SeatView, ...]:
    """Seven seats (the most a table has), each holding four split hands of ``hand_cards``."""
    return tuple(
        seat(
            first_id + number,
            name_of(number),
            *(hand(hand_cards, 21, **hand_fields(index)) for index in range(4)),
            **seat_fields,
        )
        for number in range(7)
    )


def worst_case() -> TableSnapshot:
    """Seven players with long names, each holding four split hands of many cards, with
    every side bet live."""
    seats = seven_split_seats(
        "2♠ 2♥ A♦ A♣ 2♦ 3♣ 2♣ 3♠ 3♥",
        lambda number: f"**{'W' * 28}{number}**",
        lambda index: {
            "stake": 999_999_999_999,
            "status": "doubled",
            "outcome": "blackjack",
            "payout": 2_499_999_999_997,
            "rounded_down": True,
            "is_current": index == 3,
        },
        first_id=1000,
        insurance=499_999_999_999,
        legal=frozenset(Action),
        deadline=NOW + 30,
        leaving=True,
        action=10**14,
        standing=-(10**14),
        net=-(10**13),
        side_bets=tuple(
            (bet, 999_999_999_999) for bet in ("21+3", "Perfect Pairs", "Buster Blackjack")
        ),
    )
    long_line = "x" * 300
    return table(
        TablePhase.PLAYING,
        *seats,
        dealer=DealerView(
            cards=cards("2♠ 2♥ 2♦ 2♣ A♠ A♥ A♦ 3♠ 3♥"),
            hole_hidden=False,
            total=19,
            soft=False,
            status="standing",
        ),
        deadline=NOW + 30,
        events=tuple(long_line for _ in range(20)),
        last_results=tuple(long_line for _ in range(20)),
        shuffle_notice=tuple(long_line for _ in range(20)),
        closed_reason="",
        preset="single-deck",
        round_no=10**12,
        table_id="ffffffff",
    )


def picture_faces() -> dict[str, str]:
    """A faces map as the bot builds it: every shipped card's emoji name, 19-digit ids."""
    from cogs.table.card_art import markup, wanted_names

    return {
        code: markup(name, 1_310_000_000_000_000_000 + number)
        for number, (name, code) in enumerate(sorted(wanted_names().items()))
    }


#: Three cards of a split hand, as a busy table deals them.
SPLIT_HAND = "8♠ 3♥ 10♣"


def busiest_table(hand_cards: str = SPLIT_HAND) -> TableSnapshot:
    """Seven players, each with four split hands of ``hand_cards``, and every line of news."""
    seats = seven_split_seats(
        hand_cards,
        lambda number: f"Player number {number} with a long name",
        lambda index: {
            "stake": 10_000,
            "status": "doubled" if index else "playing",
            "is_current": index == 0,
        },
        first_id=2000,
        legal=frozenset({Action.HIT, Action.STAND}),
        deadline=NOW + 30,
    )
    return table(
        TablePhase.PLAYING,
        *seats,
        dealer=DealerView(cards=cards("10♦ 6♣ 5♥"), hole_hidden=False, total=21, soft=False),
        deadline=NOW + 30,
        events=tuple(f"Player number {n % 7} hits: 3♥ → 21" for n in range(12)),
    )
