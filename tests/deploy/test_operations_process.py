"""``python -m bot`` as a host runs it, with LOG_FORMAT=json and METRICS_PORT set."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import aiohttp
from table_players import Casino, bot_process

from fakediscord import FakeDiscord


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def test_the_bot_process_logs_json_lines_and_serves_metrics(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    casino = Casino.build(fake, "Casino", players=1)
    port = free_port()
    url = f"sqlite:///{tmp_path / 'chips.sqlite3'}"
    process = bot_process(fake, url, LOG_FORMAT="json", LOG_LEVEL="INFO", METRICS_PORT=str(port))
    async with process:
        started = await fake.slash(casino.players[0], "blackjack start", casino.channel)
        assert started.response_type == 4
        async with (
            aiohttp.ClientSession() as session,
            session.get(f"http://127.0.0.1:{port}/metrics") as response,
        ):
            text = await response.text()
        await process.stop()
        output = process.output()
    # The table opened before the answer was sent (the interaction is counted when its
    # task ends, which may be just after this scrape: tests/discord counts those).
    assert "blackjack_tables_open 1.0" in text
    assert "# TYPE blackjack_interactions_total counter" in text
    assert 'blackjack_db_transaction_duration_seconds_count{operation="ensure_account"}' in text
    lines = [json.loads(line) for line in output.splitlines() if line.strip()]
    assert lines
    assert all({"time", "level", "logger", "message"} <= line.keys() for line in lines)
    assert any(line["message"] == f"metrics on http://127.0.0.1:{port}/metrics" for line in lines)
    assert any(line["logger"].startswith("discord.") for line in lines)
