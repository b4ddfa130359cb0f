"""The rule flags shared by strategy, edge and simulate: a preset changed field by field."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from bot.__main__ import main
from bot.cli.rule_flags import add_rule_flags, rules_from_args
from bot.engine.rules import Rules, RulesError, preset


def _rules(*argv: str) -> Rules:
    parser = argparse.ArgumentParser()
    add_rule_flags(parser)
    return rules_from_args(parser.parse_args(list(argv)))


def test_no_flags_give_the_preset_unchanged() -> None:
    assert _rules() == preset("vegas-shoe")
    assert _rules("--preset", "single-deck") == preset("single-deck")


def test_each_flag_overrides_one_rule() -> None:
    rules = _rules(
        "--preset", "vegas-shoe",
        "--decks", "2",
        "--soft17", "hit",
        "--blackjack-pays", "6:5",
        "--no-das",
        "--surrender", "none",
        "--double", "10-11",
        "--max-hands", "3",
        "--resplit-aces",
        "--hit-split-aces",
        "--no-peek",
        "--penetration", "0",
    )  # fmt: skip
    assert rules == preset("vegas-shoe").replace(
        decks=2,
        dealer_hits_soft_17=True,
        blackjack_pays="6:5",
        double_after_split=False,
        surrender="none",
        double_on="10-11",
        max_hands=3,
        resplit_aces=True,
        hit_split_aces=True,
        dealer_peeks=False,
        penetration=0.0,
    )


def test_switches_turn_rules_back_on() -> None:
    rules = _rules("--preset", "single-deck", "--das", "--no-resplit-aces", "--soft17", "stand")
    assert rules.double_after_split
    assert not rules.resplit_aces
    assert not rules.dealer_hits_soft_17


def test_a_combination_rules_reject_raises_rules_error() -> None:
    with pytest.raises(RulesError, match="without naturals"):
        _rules("--preset", "simple", "--blackjack-pays", "3:2")


@pytest.mark.parametrize("command", ["strategy", "edge"])
def test_a_rejected_combination_exits_2_with_the_rules_message(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main([command, "--decks", "9"])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "decks must be 1 to 8, not 9" in err
    assert "Traceback" not in err


#: Every analysis tool, with the arguments it needs besides the rules.
TOOLS = (
    ["edge"],
    ["simulate", "--hands", "100"],
    ["strategy"],
    ["side-bets"],
    ["ev", "--hand", "10,6", "--up", "10"],
)


@pytest.mark.parametrize("decks", ["0", "-1", "9"])
@pytest.mark.parametrize("tool", TOOLS, ids=lambda tool: tool[0])
def test_decks_out_of_range_say_1_to_8_and_exit_2_in_every_tool(
    tool: list[str], decks: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main([*tool, "--decks", decks])
    assert exited.value.code == 2
    assert capsys.readouterr().err == f"python -m bot: error: --decks must be 1 to 8, not {decks}\n"


def test_a_rejected_combination_prints_no_traceback_from_the_command_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "edge", "--max-hands", "1"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert "--max-hands must be 2 to 8 when splitting is allowed, not 1" in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--double", "none", "--das"], "--das needs both doubling and splitting allowed"),
        (["--max-hands", "9"], "--max-hands must be 2 to 8 when splitting is allowed, not 9"),
        (["--penetration", "0.1"], "--penetration must be 0 (fresh shoe every round)"),
    ],
)
def test_a_rejected_flag_is_named_as_typed_not_by_its_field(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main(["edge", *argv])
    err = capsys.readouterr().err
    assert said in err
    for field in ("double_after_split", "max_hands", "penetration must"):
        assert f" {field}" not in err.replace(said, "")
