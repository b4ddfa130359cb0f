"""The simulator's side-bet tallies agree with the exact edges within their standard error.

Rounds are dealt from a fresh shoe each, by the Round itself, so the measured edges
estimate the exact ones of ``bot.engine.analysis.side_bets`` (which leave the other
cards of the round in the shoe: a difference far below these runs' standard errors).
Seeded, so each run is the same every time; the tolerance is four standard errors.
"""

from __future__ import annotations

import json

import pytest
from engine_stacking import stack

from bot.__main__ import main
from bot.engine import KNOWN_PAY_TABLES, SIDE_BETS, Round, parse_pay_table, preset
from bot.engine.analysis import play_rounds, side_bet_edge

SIGMAS = 4
SEED = bytes(range(32))


@pytest.mark.parametrize("soft17", [True, False])
def test_measured_side_bet_edges_agree_with_the_exact_ones(soft17: bool) -> None:
    rules = preset("vegas-shoe").replace(penetration=0, dealer_hits_soft_17=soft17)
    tables = tuple(
        parse_pay_table(bet, name) for bet in SIDE_BETS for name in KNOWN_PAY_TABLES[bet]
    )
    tally = play_rounds(rules, 30_000, SEED, side_bets=tables)
    assert [(bet, name) for bet, name, _ in tally.side_bets] == [
        (table.bet, table.name) for table in tables
    ]
    for table, (_, _, side) in zip(tables, tally.side_bets, strict=True):
        exact = float(100 * side_bet_edge(table, rules.decks, soft17))
        assert side.rounds == 30_000
        assert 0 < side.std_error_pct < 3
        assert abs(side.house_edge_pct - exact) <= SIGMAS * side.std_error_pct, table


def test_a_dealer_who_plays_out_draws_after_every_hand_busts() -> None:
    rules = preset("vegas-shoe")
    for plays_out, dealer_cards in ((False, 2), (True, 4)):
        shoe = stack(["10♠ 6♥"], "10♦ 2♣", "10♥ 3♠ 9♠")
        round_ = Round.deal(rules, shoe, [("alice", [10])], dealer_plays_out=plays_out)
        round_.act("alice", "hit")  # 26: bust, no hand left for the dealer to beat
        assert round_.is_finished
        assert len(round_.dealer.cards) == dealer_cards
        assert round_.net("alice") == -10
    # The flag goes with the round when it is saved and restored.
    assert Round.from_json(round_.to_json()).dealer_plays_out


def test_a_dealer_blackjack_is_not_played_out() -> None:
    rules = preset("vegas-shoe")
    round_ = Round.deal(
        rules, stack(["10♠ 6♥"], "10♦ A♣", "5♥"), [("alice", [10])], dealer_plays_out=True
    )
    assert round_.is_finished
    assert len(round_.dealer.cards) == 2


def test_simulate_json_reports_side_bets_over_workers(capsys: pytest.CaptureFixture[str]) -> None:
    seed = SEED.hex()
    argv = ["simulate", "--hands", "6000", "--penetration", "0", "--seed", seed, "--json"]
    assert main([*argv, "--side-bets", "--workers", "2"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert [side["bet"] for side in result["side_bets"]] == list(SIDE_BETS)
    for side in result["side_bets"]:
        gap = abs(side["house_edge_pct"] - side["exact_house_edge_pct"])
        assert gap <= SIGMAS * side["std_error_pct"]
    assert main(argv) == 0
    plain = json.loads(capsys.readouterr().out)
    assert plain["side_bets"] == []
