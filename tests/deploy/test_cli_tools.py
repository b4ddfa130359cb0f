"""The command-line tools as issue 32 met them: rule flags against a preset's values, seeds,
help texts and the simulation's progress. Each runs ``python -m bot`` as a child process."""

from __future__ import annotations

import pytest

from tests.deploy.test_readme_commands import ROOT, cli


@pytest.mark.parametrize(
    "tool",
    [
        ["edge"],
        ["strategy"],
        ["simulate", "--hands", "200", "--json"],
    ],
)
def test_one_deck_moves_the_presets_cut_card_up_and_says_so(tool: list[str]) -> None:
    done = cli(*tool, "--decks", "1")
    assert done.returncode == 0, done.stderr
    assert (
        "note: vegas-shoe deals to a cut card at 75%, too deep for 1 deck; using 70% "
        "(--penetration sets another)"
    ) in done.stderr


def test_ev_takes_one_deck_without_a_word_of_the_cut_card_it_never_deals() -> None:
    done = cli("ev", "--decks", "1", "--hand", "10,6", "--up", "T")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert "Stand" in done.stdout


def test_a_penetration_the_user_gave_is_refused_with_the_deepest_that_fits() -> None:
    done = cli("edge", "--decks", "1", "--penetration", "0.75")
    assert done.returncode == 2
    assert "leave at least 15 (--penetration 0.7 or less)" in done.stderr


def test_edge_gives_its_cut_card_caveat_once() -> None:
    out = cli("edge").stdout
    assert out.count("cut card") == 1
    assert out.count("simulate") == 1


@pytest.mark.parametrize("tool", [["play"], ["simulate", "--hands", "10"], ["verify"]])
def test_every_seed_follows_one_rule_and_every_help_says_it(tool: list[str]) -> None:
    refused = cli(*tool, "--seed", "5eed")
    assert refused.returncode == 2
    assert "a seed is 64 hex digits (32 bytes), not '5eed'" in refused.stderr
    help_text = " ".join(cli(tool[0], "--help").stdout.split())
    assert "--seed HEX 64 hex digits (32 bytes): " in help_text


def test_readme_lists_every_rule_flag_and_value() -> None:
    readme = " ".join((ROOT / "README.md").read_text().split())
    for flag in (
        "--blackjack-pays 3:2|6:5|1:1|2:1",
        "--double any|9-11|10-11|none",
        "--peek-ace-only/--no-peek-ace-only",
        "A `--seed` is 64 hex digits for every tool",
    ):
        assert flag in readme
