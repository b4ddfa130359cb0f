"""``GET /metrics``: the bot's Prometheus metrics over HTTP, on its own event loop (a stuck
loop then fails the scrape, which is itself the alarm)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST

from bot.metrics import BotMetrics

log = logging.getLogger(__name__)


class MetricsServer:
    """``GET /metrics`` on ``host:port``, served by aiohttp on the bot's own event loop."""

    def __init__(self, metrics: BotMetrics, refresh: Callable[[], None]) -> None:
        self._metrics = metrics
        self._refresh = refresh
        self._runner: web.AppRunner | None = None
        self.port: int | None = None

    async def start(self, host: str, port: int) -> None:
        """Listen (port 0: any free port, then see :attr:`port`)."""
        app = web.Application()
        app.router.add_get("/metrics", self._scrape)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        # AppRunner.addresses: the (host, port, ...) each of its sites listens on.
        addresses = self._runner.addresses
        self.port = int(addresses[0][1]) if addresses else port
        log.info("metrics on http://%s:%s/metrics", host, self.port)

    async def _scrape(self, request: web.Request) -> web.Response:
        self._refresh()
        return web.Response(
            body=self._metrics.exposition(), headers={"Content-Type": CONTENT_TYPE_LATEST}
        )

    async def stop(self) -> None:
        """Stop listening."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
