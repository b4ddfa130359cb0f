"""Reading the bot's Prometheus endpoint in a test."""

from __future__ import annotations

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from bot.app import BlackjackBot

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]
CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"


async def scrape(bot: BlackjackBot) -> Samples:
    """Every sample of the endpoint, by name and labels."""
    assert bot.metrics_port is not None
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{bot.metrics_port}/metrics") as response,
    ):
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/plain; version=")
        text = await response.text()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    """The sum of the samples of ``name`` whose labels include ``labels``."""
    wanted = set(labels.items())
    return sum(v for (n, have), v in samples.items() if n == name and wanted <= set(have))


def moved(before: Samples, after: Samples, name: str, **labels: str) -> float:
    return value(after, name, **labels) - value(before, name, **labels)
