"""The simulator's fresh shoe every round: an exact Fisher–Yates shuffle, run one step
per card dealt, dealing from the bottom of the documented shuffle."""

from __future__ import annotations

import hashlib
import hmac
import struct
from collections import Counter
from collections.abc import Iterator

import pytest

from bot.engine import DECK, Card, Round, ShoeError, preset, shuffled_order
from bot.engine.fresh_shoe import FreshShoe

SEED = bytes(range(32))


def reference_words(seed: bytes) -> Iterator[int]:
    """The documented stream: HMAC-SHA256(seed, block counter) as big-endian 16-bit numbers."""
    block = 0
    while True:
        digest = hmac.new(seed, block.to_bytes(8, "big"), hashlib.sha256).digest()
        yield from struct.unpack(">16H", digest)
        block += 1


def reference_deals(seed: bytes, decks: int, counts: list[int]) -> list[list[int]]:
    """Shoe after shoe from one stream: each a fresh ordered shoe, Fisher–Yates from the
    top, dealt from the bottom one shuffle step per card (at least four steps a shoe)."""
    words = reference_words(seed)
    deals = []
    for count in counts:
        order = [p % 52 for p in range(decks * 52)]
        dealt = []
        for step in range(max(count, 4)):
            i = len(order) - 1 - step
            if i > 0:
                while True:
                    x = next(words)
                    if x < 2**16 - 2**16 % (i + 1):
                        break
                j = x % (i + 1)
                order[i], order[j] = order[j], order[i]
            dealt.append(order[i])
        deals.append(dealt[:count])
    return deals


def _deal(shoe: FreshShoe, count: int) -> list[int]:
    return [shoe.draw().index for _ in range(count)]


def test_the_first_shoe_is_the_documented_shuffle_dealt_from_the_bottom() -> None:
    for decks in (1, 6, 8):
        shoe = FreshShoe(decks, SEED)
        dealt = [shoe.draw() for _ in range(decks * 52)]
        assert dealt == list(reversed(shuffled_order(SEED, decks)))


def test_each_reshuffle_continues_the_number_stream_where_the_last_shoe_stopped() -> None:
    counts = [4, 9, 5, 30, 4, 6]
    shoe = FreshShoe(6, SEED)
    deals = []
    for count in counts:
        deals.append(_deal(shoe, count))
        shoe.reshuffle()
    assert deals == reference_deals(SEED, 6, counts)


def test_every_reshuffled_shoe_holds_every_card_once_per_deck() -> None:
    shoe = FreshShoe(2, SEED)
    for _ in range(3):
        shoe.reshuffle()
        counts = Counter(shoe.draw() for _ in range(104))
        assert set(counts) == set(DECK)
        assert set(counts.values()) == {2}


def test_an_emptied_fresh_shoe_goes_on_with_the_next_shoe_of_the_stream() -> None:
    shoe = FreshShoe(1, SEED)
    _deal(shoe, 52)
    nxt = shoe.draw()
    assert shoe.continuation == 1
    assert nxt.index == reference_deals(SEED, 1, [52, 1])[1][0]


def test_a_round_drawing_beyond_the_first_shuffled_cards_announces_no_continuation() -> None:
    rules = preset("vegas-shoe").replace(penetration=0)
    shoe = FreshShoe(6, SEED)
    for _ in range(40):
        shoe.reshuffle()
        round_ = Round.deal(rules, shoe, [("alice", [10, 10, 10])])
        for player in round_.players:
            round_.stand_all(player)
        assert round_.is_finished
        assert "continuation" not in [event.kind for event in round_.events]


def test_first_cards_are_spread_evenly_over_the_ranks() -> None:
    # 13,000 shoes: each rank should come first about 1,000 times (sd about 30).
    shoe = FreshShoe(6, SEED)
    ranks: Counter[int] = Counter()
    for _ in range(13_000):
        shoe.reshuffle()
        ranks[shoe.draw().rank] += 1
    assert all(850 < count < 1150 for count in ranks.values()), ranks


def test_a_fresh_shoe_needs_a_32_byte_seed_and_1_to_8_decks() -> None:
    with pytest.raises(ShoeError, match="32 bytes"):
        FreshShoe(6, b"short")
    with pytest.raises(ShoeError, match="1 to 8 decks"):
        FreshShoe(9, SEED)


def test_a_fresh_shoe_is_described_but_not_restorable() -> None:
    description = FreshShoe(6, SEED).to_dict()
    assert description == {"kind": "fresh", "seed": SEED.hex(), "decks": 6}
    assert isinstance(FreshShoe(6, SEED).draw(), Card)
