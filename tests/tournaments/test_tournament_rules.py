"""The tournament's pure rules: the format, eliminations and their tie-breaks, standings, prizes."""

from __future__ import annotations

import pytest

from bot.tournaments.elimination import (
    Entry,
    Format,
    FormatError,
    eliminated,
    first_bettor,
    parse_hands,
    parse_split,
    prizes,
    ranked,
    standings,
)


def test_the_default_format_is_the_issues() -> None:
    fmt = Format().check()
    assert (fmt.stack, fmt.hands, fmt.min_bet, fmt.max_bet) == (1000, 30, 10, 500)
    assert fmt.eliminations == (8, 16, 25)
    assert fmt.split == (60, 30, 10)
    assert [fmt.next_elimination(h) for h in (1, 8, 9, 25, 26)] == [8, 8, 16, 25, None]


@pytest.mark.parametrize(
    ("fmt", "words"),
    [
        (Format(hands=0), "1 to 100 hands"),
        (Format(min_bet=600), "minimum bet"),
        (Format(stack=5), "starting stack"),
        (Format(hands=8), "before the last hand"),
        (Format(eliminations=(3, 3)), "once"),
        (Format(split=(60, 30)), "add up to 100"),
        (Format(fee=-1), "negative"),
    ],
)
def test_a_format_that_cannot_be_played_says_why(fmt: Format, words: str) -> None:
    with pytest.raises(FormatError, match=words):
        fmt.check()


def test_hands_and_splits_parse_from_what_a_host_types() -> None:
    assert parse_hands("16, 8 25") == (8, 16, 25)
    assert parse_split("50/50") == (50, 50)
    with pytest.raises(FormatError):
        parse_hands("eight")
    with pytest.raises(FormatError):
        parse_split("half/half")


def test_the_fewest_chips_go_out() -> None:
    stacks = [Entry(1, 0, 900, 1000), Entry(2, 1, 400, 500), Entry(3, 2, 1200, 1000)]
    out = eliminated(stacks, 8, 3)
    assert out is not None
    assert out.user_id == 2


def test_a_tie_goes_to_the_larger_stack_at_the_start_of_the_hand() -> None:
    # Both end on 500: the one who started the hand with more stays.
    stacks = [Entry(1, 0, 500, 600), Entry(2, 1, 500, 800), Entry(3, 2, 900, 900)]
    out = eliminated(stacks, 8, 3)
    assert out is not None
    assert out.user_id == 1


def test_then_seat_order_from_the_hands_first_bettor() -> None:
    stacks = [Entry(1, 0, 500, 500), Entry(2, 1, 500, 500), Entry(3, 2, 500, 500)]
    # Hand 1: seat 0 bets first, so seat 2 is last in order and goes out.
    assert first_bettor(1, 3) == 0
    assert [s.user_id for s in ranked(stacks, 1, 3)] == [1, 2, 3]
    # Hand 8: seat (8 - 1) % 3 = 1 bets first: order 1, 2, 0, so seat 0 is out.
    assert first_bettor(8, 3) == 1
    out = eliminated(stacks, 8, 3)
    assert out is not None
    assert out.user_id == 1


def test_the_last_player_is_never_eliminated() -> None:
    assert eliminated([Entry(1, 0, 0, 10)], 8, 1) is None


def test_standings_rank_those_still_in_above_those_out() -> None:
    entries = [
        Entry(1, 0, 0, 50, out_after=8),
        Entry(2, 1, 300, 400, out_after=16),
        Entry(3, 2, 1500, 1000),
        Entry(4, 3, 1700, 1600),
    ]
    assert [e.user_id for e in standings(entries, 30, 4)] == [4, 3, 2, 1]


def test_prizes_split_the_whole_pool() -> None:
    assert prizes(300, (60, 30, 10), 5) == [180, 90, 30]
    # Rounding leftovers go to first place.
    assert prizes(101, (60, 30, 10), 3) == [61, 30, 10]
    # Two players for three places: the third place's share goes to first.
    assert prizes(300, (60, 30, 10), 2) == [210, 90]
    assert prizes(0, (60, 30, 10), 3) == []
