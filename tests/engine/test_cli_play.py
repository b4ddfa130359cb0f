"""Acceptance 5: the terminal table played through stdin, and the verify command."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bot.engine import commitment, shuffled_order
from tests.support.cli import play

ROOT = Path(__file__).resolve().parents[2]
# Casino order: your 8♠, dealer 10♦, your 8♥, hole 7♣; then the split cards 3♦ and 2♣,
# the double's 9♠ and the hit's K♥.
STACK = "8♠ 10♦ 8♥ 7♣ 3♦ 2♣ 9♠ K♥"


def test_a_piped_session_bets_splits_doubles_and_is_paid() -> None:
    session = play("10\np\nd\nh\ns\nq\n", "--preset", "classic", "--stack", STACK)
    out = session.stdout
    assert session.returncode == 0, session.stderr
    assert "you are dealt 8♠ 8♥ (16), stake 10" in out
    assert "s[p]lit" in out
    assert "you (hand 1) split: 8♠ 3♦ (11) | 8♥ 2♣ (10)" in out
    assert "you (hand 1) double: 9♠ → 20" in out
    assert "you (hand 2) hit: K♥ → 20" in out
    assert "you (hand 1): 20 beats 17: wins 20, 40 back" in out
    assert "you (hand 2): 20 beats 17: wins 10, 20 back" in out
    assert "Round over: net +30. You have 1030 chips." in out
    assert "You leave the table with 1030 chips." in out
    assert "So far you have bet 30 chips in all and are 30 chips up." in out  # on leaving


def test_cards_are_drawn_as_box_art() -> None:
    out = play("10\ns\n", "--stack", "10♠ 9♦ 8♥ 8♣").stdout
    assert "╭────╮\n│♠ 10│\n╭────╮\n│♥  8│\n│    │\n╰────╯" in out
    assert "│░░░░│" in out  # the dealer's hole card, face down


def test_bad_input_gets_a_message_and_the_same_question() -> None:
    out = play("ten\n5\n10\nx\np\ns\n", "--stack", "10♠ 9♦ 8♥ 8♣").stdout
    assert (
        "'ten' is not an amount of chips. Use a number like 500, 2.5k or 1m, or half, max or "
        "all. (q to leave the table)" in out
    )
    assert "The table minimum is 10; you bet 5. (q to leave the table)" in out
    assert "Please type one of: [h]it, [s]tand, [d]ouble, su[r]render" in out
    assert "You can't split now: you can split only a pair on your first two cards." in out
    assert out.count("Hand 1 (10♠ 8♥ (18))") == 3
    assert "18 ties 17" not in out
    assert "18 beats 17: wins 10, 20 back" in out


def test_chips_carry_from_round_to_round() -> None:
    out = play("10\ns\n20\ns\n", "--stack", "10♠ 9♦ 8♥ 8♣ 10♣ 9♥ 7♦ 10♥").stdout
    assert "Round over: net +10. You have 1010 chips." in out
    assert "Round over: net -20. You have 990 chips." in out


def test_end_of_input_mid_round_stands_and_leaves_cleanly() -> None:
    session = play("10\n", "--stack", "10♠ 9♦ 8♥ 8♣")
    assert session.returncode == 0
    assert "you stand on 18 (you left the table)" in session.stdout
    assert "You leave the table with 1010 chips." in session.stdout
    assert session.stderr == ""


def test_several_hands_per_round() -> None:
    out = play("10\ns\ns\n", "--hands", "2", "--stack", "10♠ 10♣ 9♦ 8♥ 9♥ 8♣").stdout
    assert "you (hand 1): 18 beats 17: wins 10, 20 back" in out
    assert "you (hand 2): 19 beats 17: wins 10, 20 back" in out
    assert "Round over: net +20. You have 1020 chips." in out


def test_a_seeded_session_deals_the_seeded_shoe() -> None:
    seed = bytes(range(32))
    out = play("10\ns\n", "--preset", "vegas-shoe", "--seed", seed.hex()).stdout
    order = shuffled_order(seed, 6)
    assert commitment(seed) in out
    assert f"you are dealt {order[0]} {order[2]}" in out


def test_verify_prints_the_commitment_and_the_shoe_order() -> None:
    seed = bytes(range(32))
    run = subprocess.run(
        [sys.executable, "-m", "bot", "verify", "--seed", seed.hex(), "--decks", "1"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=True,
    )
    assert f"commitment: {commitment(seed)}" in run.stdout
    first_row = " ".join(f"{card!s:>3}" for card in shuffled_order(seed, 1)[:13])
    assert f"    1: {first_row}" in run.stdout


def test_verify_refuses_a_seed_that_is_not_32_bytes_of_hex() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "bot", "verify", "--seed", "abcd"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert run.returncode == 2
    assert "64 hex digits" in run.stderr


def test_a_bet_is_typed_as_slash_bet_takes_it() -> None:
    stack = "10♠ 9♦ 8♥ 8♣ 10♣ 9♥ 7♦ 10♥ 10♦ 9♣ 7♠ 10♠"
    out = play("0.5k\ns\nhalf\ns\n2.5k\nmax\ns\n", "--stack", stack).stdout
    assert "you are dealt 10♠ 8♥ (18), stake 500" in out  # 0.5k
    assert "Round over: net +500. You have 1500 chips." in out
    assert "you are dealt 10♣ 7♦ (17), stake 750" in out  # half of 1,500
    assert "Round over: net -750. You have 750 chips." in out
    assert "You have 750 chips: bet at most 750." in out  # 2.5k is more than you have
    assert "you are dealt 10♦ 7♠ (17), stake 750" in out  # max: all you have


def test_chips_are_chips_not_dollars_and_the_totals_are_in_words() -> None:
    out = play("10\ns\n20\ns\n", "--stack", "10♠ 9♦ 8♥ 8♣ 10♣ 9♥ 7♦ 10♥").stdout
    assert "$" not in out
    assert "bet 10\n" in out
    assert "action" not in out
    assert "So far you have bet 30 chips in all and are 10 chips down." in out


def test_the_hint_key_shows_the_hint_buttons_figures() -> None:
    """The Hint's figures for hard 16 against a 10 (tests/test_strategy_process.py), in the
    Hint's words, then the same question again."""
    out = play("10\n?\nhint\ns\n", "--stack", "10♠ 10♦ 6♥ 9♣").stdout
    assert "[?] hint?" in out
    assert "  Basic strategy: surrender (hard 16 against a 10).\n" in out
    assert (
        ": surrender \u221250.0%, hit \u221253.5%, stand \u221254.1%, double \u2212106.9%." in out
    )
    assert out.count("Basic strategy: surrender") == 2
    assert out.count("Hand 1 (10♠ 6♥ (16))") == 3
    assert "you stand on 16" in out
