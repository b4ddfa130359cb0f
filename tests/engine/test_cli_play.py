"""Acceptance 5: the terminal table played through stdin, and the verify command."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bot.engine import commitment, shuffled_order

ROOT = Path(__file__).resolve().parents[2]
# Casino order: your 8♠, dealer 10♦, your 8♥, hole 7♣; then the split cards 3♦ and 2♣,
# the double's 9♠ and the hit's K♥.
STACK = "8♠ 10♦ 8♥ 7♣ 3♦ 2♣ 9♠ K♥"


def play(stdin: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "play", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


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
    assert "you: action 30, standing +30" in out  # printed on leaving, as bj(6) does


def test_cards_are_drawn_as_box_art() -> None:
    out = play("10\ns\n", "--stack", "10♠ 9♦ 8♥ 8♣").stdout
    assert "╭────╮\n│♠ 10│\n╭────╮\n│♥  8│\n│    │\n╰────╯" in out
    assert "│░░░░│" in out  # the dealer's hole card, face down


def test_bad_input_gets_a_message_and_the_same_question() -> None:
    out = play("ten\n5\n10\nx\np\ns\n", "--stack", "10♠ 9♦ 8♥ 8♣").stdout
    assert "Please type a whole number of chips (bets from 10 to 1,000), or q." in out
    assert "You can place bets from 10 to 1,000 chips per hand." in out
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
