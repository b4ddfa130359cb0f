"""A hit whose bound the stand already reaches is never valued (``HandValues.hit_bound``
in bot/engine/analysis/exact.py): the best of standing and hitting is the same as valuing
both."""

from __future__ import annotations

from itertools import combinations_with_replacement

import pytest

from bot.engine import Rules
from bot.engine.analysis.exact import hand_total
from bot.engine.analysis.exact_play import UpCard


@pytest.mark.parametrize("decks", [1, 2])
@pytest.mark.parametrize("up", [1, 2, 7, 10])
def test_skipping_a_hit_that_cannot_beat_standing_changes_no_value(decks: int, up: int) -> None:
    values = UpCard(Rules(decks=decks, penetration=0, dealer_hits_soft_17=True), up).values
    skipped = 0
    for cards in combinations_with_replacement(range(1, 11), 3):
        total, soft = hand_total(cards)
        if not 12 <= total <= 20:
            continue
        key = values.enter(cards)
        try:
            best = values.go_on(key, total, soft)
            stand, hit = values.stand(key, total), values.hit(key, total, soft)
            assert best == max(stand, hit)
            assert hit <= values.hit_bound(total, soft)
            skipped += stand >= values.hit_bound(total, soft)
        finally:
            values.leave(cards)
    assert skipped  # the bound did spare some hits
