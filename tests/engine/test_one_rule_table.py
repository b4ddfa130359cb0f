"""One rule, one table: the Round plays its dealer by ``dealer_must_hit`` (the rule the
dealer odds are computed with) and offers doubles on the totals of ``DOUBLE_TOTALS``
(the table the expected values read)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.engine import Action, Hand, Round, RoundPhase, Shoe, legality, preset
from bot.engine.analysis import ev
from bot.engine.dealer_play import dealer_must_hit

VEGAS = preset("vegas-shoe")


@given(seed=st.binary(min_size=32, max_size=32), h17=st.booleans())
def test_the_dealer_draws_exactly_while_dealer_must_hit_says_so(seed: bytes, h17: bool) -> None:
    rules = VEGAS.replace(dealer_hits_soft_17=h17, insurance=False)
    r = Round.deal(rules, Shoe(6, 0.75, seed), [("alice", [10])])
    while r.phase is RoundPhase.PLAYING:
        r.act("alice", Action.STAND)
    if r.dealer.natural or r.hands("alice")[0].natural:
        return  # the round settled without the dealer playing
    cards = r.dealer.cards
    # Every partial hand the dealer drew to had to be hit; the final one not (or bust).
    for drawn in range(2, len(cards)):
        partial = Hand.of(list(cards[:drawn]))
        assert dealer_must_hit(partial.total, partial.is_soft, rules)
    final = r.dealer
    assert final.total > 21 or not dealer_must_hit(final.total, final.is_soft, rules)


def test_the_expected_values_read_the_rounds_double_totals() -> None:
    assert ev.DOUBLE_TOTALS is legality.DOUBLE_TOTALS
