"""Hand totals: hard and soft, blackjack, bust."""

from __future__ import annotations

import pytest

from bot.engine import Hand, parse_cards


@pytest.mark.parametrize(
    ("text", "total", "soft"),
    [
        ("2♠ 3♥", 5, False),
        ("K♠ Q♥", 20, False),
        ("A♠ 6♥", 17, True),
        ("A♠ A♥", 12, True),
        ("A♠ A♥ 9♣", 21, True),
        ("A♠ 6♥ 10♣", 17, False),
        ("A♠ A♥ A♦ A♣ 7♠", 21, True),
        ("A♠ A♥ A♦ A♣ 7♠ 10♦", 21, False),
        ("10♠ 6♥ 9♣", 25, False),
    ],
)
def test_totals_count_an_ace_as_11_when_that_does_not_bust(
    text: str, total: int, soft: bool
) -> None:
    hand = Hand.of(parse_cards(text))
    assert (hand.total, hand.is_soft) == (total, soft)


def test_a_two_card_21_is_a_blackjack() -> None:
    assert Hand.of(parse_cards("A♠ K♥")).is_blackjack
    assert Hand.of(parse_cards("10♠ A♥")).is_blackjack


def test_a_three_card_21_is_not_a_blackjack() -> None:
    assert not Hand.of(parse_cards("7♠ 7♥ 7♣")).is_blackjack


def test_a_split_hand_21_is_not_a_blackjack() -> None:
    assert not Hand.of(parse_cards("A♠ K♥"), split=True).is_blackjack


def test_without_naturals_a_two_card_21_is_just_21() -> None:
    hand = Hand.of(parse_cards("A♠ K♥"), naturals=False)
    assert hand.total == 21
    assert not hand.is_blackjack


def test_over_21_is_bust() -> None:
    assert Hand.of(parse_cards("10♠ 6♥ 9♣")).is_bust
    assert not Hand.of(parse_cards("10♠ A♥ K♣")).is_bust


def test_describe_shows_cards_and_soft_total() -> None:
    assert Hand.of(parse_cards("A♠ 6♥")).describe() == "A♠ 6♥ (soft 17)"
