"""The simulator: basic strategy played through the Round, tallied exactly, split over
workers with derived seeds, and the ``python -m bot simulate`` command."""

from __future__ import annotations

import ast
import hmac
import io
import json
import math
from pathlib import Path

import pytest
from engine_stacking import deal

from bot.__main__ import main
from bot.cli.progress import LINE_EVERY, ProgressBar, ProgressLines, progress_for
from bot.cli.simulate import simulate
from bot.engine import Action, Round, RoundPhase, Shoe, preset
from bot.engine.analysis.edge import house_edge
from bot.engine.analysis.simulate import (
    SeedDeriver,
    Tally,
    derive_seed,
    play_rounds,
    play_worker,
    split_rounds,
    stake_for,
    worker_seed,
)
from bot.engine.analysis.strategy import advise
from tests.support.clocks import Seconds

VEGAS = preset("vegas-shoe")
SEED = bytes.fromhex("5eed" * 16)
ROOT = Path(__file__).resolve().parents[2]


def reference_run(rules_name: str, rounds: int, seed: bytes) -> Tally:
    """The same rounds played the long way: ``act``, events and the full settlement."""
    rules = preset(rules_name)
    stake = stake_for(rules)
    shoes = 0
    shoe = Shoe(rules.decks, rules.penetration, derive_seed(seed, b"shoe", 0))
    net_sum = squares = 0
    for _ in range(rounds):
        if shoe.cut_card_reached:
            shoes += 1
            shoe = Shoe(rules.decks, rules.penetration, derive_seed(seed, b"shoe", shoes))
        round_ = Round.deal(rules, shoe, [("bob", [stake])])
        while not round_.is_finished:
            index = round_.current_hand_index("bob")
            hand = round_.hands("bob")[index or 0]
            legal = round_.legal_actions("bob")
            round_.act("bob", advise(rules, hand.cards, round_.dealer_up_card, legal))
        net = round_.settlement().player("bob").net
        net_sum += net
        squares += net * net
    return Tally(rounds, stake, net_sum, squares)


@pytest.mark.parametrize("rules_name", ["vegas-shoe", "single-deck", "reno-1972"])
def test_the_simulator_tallies_what_the_full_round_path_settles(rules_name: str) -> None:
    assert play_rounds(preset(rules_name), 3000, SEED) == reference_run(rules_name, 3000, SEED)


def test_the_same_seed_and_worker_count_give_the_same_result() -> None:
    first = simulate(VEGAS, 6000, SEED, 2)
    assert simulate(VEGAS, 6000, SEED, 2) == first
    assert first.rounds == 6000


def test_each_worker_plays_its_share_with_its_own_derived_seed() -> None:
    together = simulate(VEGAS, 5001, SEED, 2)
    first = play_rounds(VEGAS, 2501, worker_seed(SEED, 0))
    second = play_rounds(VEGAS, 2500, worker_seed(SEED, 1))
    assert together == first.merge(second)
    assert first != second


def test_one_worker_plays_in_process_with_worker_zeros_seed() -> None:
    assert simulate(VEGAS, 2000, SEED, 1) == play_worker(VEGAS, 2000, SEED, 0)


def test_a_different_seed_gives_different_rounds() -> None:
    assert play_rounds(VEGAS, 2000, SEED) != play_rounds(VEGAS, 2000, bytes.fromhex("5eee"))


def test_a_fresh_shoe_every_round_lands_on_the_computed_edge() -> None:
    rules = VEGAS.replace(penetration=0)
    tally = play_rounds(rules, 40_000, SEED)
    computed = house_edge(rules).house_edge_pct
    assert abs(tally.house_edge_pct - computed) < 3 * tally.std_error_pct


def test_the_simulator_never_takes_insurance() -> None:
    r = deal(VEGAS, ["10♠ 9♥"], "A♦ 10♣")
    assert r.phase is RoundPhase.INSURANCE
    r.apply("alice", advise(VEGAS, r.hands("alice")[0].cards, r.dealer_up_card,
                            r.legal_actions("alice")))  # fmt: skip
    assert r.insurance_stake("alice") == 0


def test_progress_is_reported_every_so_many_rounds() -> None:
    seen: list[int] = []
    play_rounds(VEGAS, 2500, SEED, progress=seen.append, progress_every=1000)
    assert seen == [1000, 2000, 2500]


def test_net_is_the_settlements_net_insurance_included() -> None:
    for dealer in ("A♦ 10♣", "A♦ 7♣"):
        r = deal(VEGAS, ["10♠ 9♥"], dealer, stakes=[20])
        r.act("alice", Action.INSURANCE)
        while not r.is_finished:
            r.act("alice", Action.STAND)
        assert r.net("alice") == r.settlement().player("alice").net


def test_tally_figures() -> None:
    # Four rounds at a stake of 10: +10, -10, -10, 0 -> mean -2.5 chips, edge 25%.
    tally = Tally(4, 10, -10, 300)
    assert tally.house_edge_pct == pytest.approx(25.0)
    variance = (300 - 4 * 2.5**2) / 3
    assert tally.std_error_pct == pytest.approx(100 * math.sqrt(variance / 4) / 10)
    low, high = tally.ci95_pct
    assert (low + high) / 2 == pytest.approx(25.0)
    assert high - low == pytest.approx(2 * 1.959963984540054 * tally.std_error_pct)
    with pytest.raises(ValueError, match="stakes"):
        tally.merge(Tally(1, 5, 0, 0))


def test_the_stake_makes_every_payout_whole_when_the_limits_allow() -> None:
    assert stake_for(VEGAS) == 10
    assert stake_for(VEGAS.replace(min_bet=15)) == 20
    assert stake_for(preset("reno-1972")) == 2  # a table where every bet is 2


def test_the_seed_deriver_gives_the_hmac_of_derive_seed() -> None:
    for seed in (SEED, bytes(32), bytes(range(100))):
        deriver = SeedDeriver(seed)
        for label, index in ((b"shoe", 0), (b"shoe", 12345), (b"fresh", 0), (b"worker", 1)):
            expected = hmac.new(seed, label + index.to_bytes(8, "big"), "sha256").digest()
            assert deriver.derive(label, index) == derive_seed(seed, label, index) == expected


def test_rounds_are_split_as_evenly_as_can_be() -> None:
    assert split_rounds(10, 3) == [4, 3, 3]
    assert split_rounds(2, 4) == [1, 1, 0, 0]
    with pytest.raises(ValueError, match="at least 1"):
        split_rounds(10, 0)


def test_every_compiled_module_exists() -> None:
    # setup.py lists the modules BLACKJACK_COMPILE=1 compiles; a renamed module must not
    # silently drop out of the compiled build.
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    names = next(
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "COMPILED_MODULES"
    )
    assert "round" in names
    for name in names:
        assert (ROOT / "bot" / "engine" / f"{name}.py").is_file(), name


# ----------------------------------------------------------------- the command


def test_simulate_json_gives_the_edge_its_interval_and_the_speed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["simulate", "--hands", "3000", "--seed", SEED.hex(), "--workers", "2", "--json"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    expected = simulate(VEGAS, 3000, SEED, 2)
    assert out["house_edge_pct"] == expected.house_edge_pct
    assert out["ci95_pct"] == list(expected.ci95_pct)
    assert (out["rounds"], out["workers"], out["seed"], out["stake"]) == (3000, 2, SEED.hex(), 10)
    assert out["rounds_per_second"] > 0
    assert out["engine"] in ("pure", "compiled")
    assert out["rules"] == VEGAS.to_dict()


def test_simulate_prints_the_edge_rounds_and_speed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--hands", "2000", "--seed", SEED.hex(), "--penetration", "0"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("2,000 rounds of basic strategy")
    assert "a fresh shoe every round" in lines[0]
    assert lines[1].startswith("House edge: ")
    assert "95% confidence" in lines[1]
    assert lines[2].startswith("Speed: ")
    assert "rounds/s" in lines[2]
    assert lines[3] == f"Seed: {SEED.hex()}"


def test_without_a_seed_the_run_prints_the_random_one_it_used(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["simulate", "--hands", "10", "--json"]) == 0
    assert len(bytes.fromhex(json.loads(capsys.readouterr().out)["seed"])) == 32


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--hands", "0"], "--hands must be at least 1"),
        (["--hands", "10", "--workers", "0"], "--workers must be 1 to 64"),
        (["--hands", "10", "--seed", "xyz"], "a seed is 64 hex digits (32 bytes), not 'xyz'"),
        (["--hands", "10", "--seed", "5eed"], "a seed is 64 hex digits (32 bytes), not '5eed'"),
        (["--hands", "10", "--seed", ""], "a seed is 64 hex digits (32 bytes), not ''"),
        (["--hands", "10", "--decks", "9"], "decks must be 1 to 8"),
    ],
)
def test_bad_arguments_get_a_clear_message(
    flags: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        code = main(["simulate", *flags])
    except SystemExit as exc:
        code = int(str(exc.code))
    assert code == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert captured.out == ""


def test_the_progress_bar_waits_a_second_then_redraws_at_most_ten_times_a_second() -> None:
    stream = io.StringIO()
    clock = Seconds()
    bar = ProgressBar(1000, stream, clock)
    clock.now = 0.5
    bar.update(100)
    assert stream.getvalue() == ""  # runs under a second show no bar
    clock.now = 1.2
    bar.update(500)
    assert "50.0%" in stream.getvalue()
    assert "500/1,000 rounds" in stream.getvalue()
    drawn = stream.getvalue()
    clock.now = 1.25
    bar.update(600)
    assert stream.getvalue() == drawn  # too soon to redraw
    bar.close()
    assert stream.getvalue().endswith("\r\x1b[2K")


def test_a_bar_never_drawn_leaves_nothing_to_clear() -> None:
    stream = io.StringIO()
    bar = ProgressBar(10, stream, Seconds())
    bar.update(10)
    bar.close()
    assert stream.getvalue() == ""


def test_off_a_terminal_progress_is_a_line_every_ten_seconds() -> None:
    stream = io.StringIO()  # not a terminal, as a file or a pipe
    clock = Seconds()
    lines = progress_for(1_000_000, stream, clock)
    assert isinstance(lines, ProgressLines)
    clock.now = LINE_EVERY - 0.5
    lines.update(100_000)
    assert stream.getvalue() == ""  # not yet ten seconds
    clock.now = LINE_EVERY
    lines.update(250_000)
    assert stream.getvalue() == "250,000 of 1,000,000 rounds played (25.0%), 25,000 a second\n"
    clock.now = LINE_EVERY + 9
    lines.update(400_000)
    assert stream.getvalue().count("\n") == 1  # the next one ten seconds after the last
    clock.now = 2 * LINE_EVERY
    lines.update(500_000)
    lines.close()
    assert stream.getvalue().splitlines()[1] == (
        "500,000 of 1,000,000 rounds played (50.0%), 25,000 a second"
    )
