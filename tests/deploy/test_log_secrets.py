"""No log line carries a secret (issue 27): interaction tokens, which discord.py prints in its
DEBUG gateway events and in webhook and interaction URLs, nor the bot's token."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from table_players import Casino, bot_process

from fakediscord import FakeDiscord


@pytest.mark.parametrize("log_format", ["text", "json"])
async def test_debug_logs_of_a_command_and_its_answers_carry_no_token(
    fake_discord: FakeDiscord, tmp_path: Path, log_format: str
) -> None:
    fake = fake_discord
    casino = Casino.build(fake, "Casino", players=1)
    url = f"sqlite:///{tmp_path / 'chips.sqlite3'}"
    process = bot_process(fake, url, LOG_FORMAT=log_format, LOG_LEVEL="DEBUG")
    async with process:
        started = await fake.slash(casino.players[0], "blackjack start", casino.channel)
        assert started.response_type == 4
        balance = await fake.slash(casino.players[0], "balance", casino.channel)
        assert balance.response_type in (4, 5)
        await process.stop()
        output = process.output()
    tokens = list(fake.interactions_by_token)
    assert len(tokens) == 2
    for secret in (*tokens, fake.token):
        assert secret not in output
    # The lines that carried them are still there, with the token starred.
    assert "'token': '***'" in output
    assert "/***/callback has returned" in output
    assert "/***/messages/@original has returned" in output
    if log_format == "json":
        assert all(json.loads(line) for line in output.splitlines() if line.strip())
