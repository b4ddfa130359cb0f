"""The transcript script (tests/discord/transcript.py) still plays its round to the end."""

from __future__ import annotations

from pathlib import Path

from transcript import record_round


async def test_the_transcript_shows_the_table_after_every_click(tmp_path: Path) -> None:
    steps = await record_round(f"sqlite:///{tmp_path / 'transcript.sqlite3'}")
    pressed = [step.splitlines()[0] for step in steps if " pressed " in step.splitlines()[0]]
    assert pressed == [
        "Alice pressed No insurance:",
        "Bob pressed No insurance:",
        "Carol pressed No insurance:",
        "Alice pressed Split:",
        "Alice pressed Double:",
        "Bob pressed Surrender:",
        "Alice pressed Stand:",
    ]
    assert "Carol: A♣ K♣ blackjack · balance change +37" in steps[-1]
    assert "Dealer: A♦ 5♦ 2♣ (18)" in steps[-1]
