"""A served playground and an HTTP client that talks to it as the page's script does.

The client reads this run's token out of the page, as the script does, and sends
it with each request.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp

from bot.tables import ShoeFactory
from playground.guard import TOKEN_HEADER
from playground.running import Playground
from playground.web import serving
from tests.db.invariants import check_invariants

TOKEN_IN_PAGE = re.compile(r'<meta name="playground-token" content="([^"]+)">')


async def token_of(http: aiohttp.ClientSession, url: str) -> str:
    """The token the page at ``url`` holds."""
    async with http.get(url) as response:
        assert response.status == 200
        found = TOKEN_IN_PAGE.search(await response.text())
    assert found is not None, "the page holds no token"
    return found[1]


@dataclass
class Served:
    playground: Playground
    url: str
    http: aiohttp.ClientSession
    token: str

    @property
    def auth(self) -> dict[str, str]:
        """The header the page sends with each request."""
        return {TOKEN_HEADER: self.token}

    def live(self, viewer: str) -> str:
        """The websocket's URL for ``viewer``, the token in its query as the page puts it."""
        return f"{self.url.replace('http', 'ws')}/api/live?viewer={viewer}&token={self.token}"

    def ids(self) -> tuple[str, str, str]:
        """Alice's and Bob's ids, and #blackjack's."""
        alice, bob, _croupier = self.playground.players()
        return str(alice.id), str(bob.id), str(self.playground.channels()[0].id)

    async def post(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        async with self.http.post(self.url + path, json=body, headers=self.auth) as response:
            return response.status, await response.json()

    async def get(self, path: str) -> Any:
        async with self.http.get(self.url + path, headers=self.auth) as response:
            assert response.status == 200, await response.text()
            return await response.json()

    async def command(self, viewer: str, channel: str, line: str) -> dict[str, Any]:
        status, outcome = await self.post(
            "/api/command", {"viewer": viewer, "channel": channel, "line": line}
        )
        assert status == 200
        return outcome


@asynccontextmanager
async def serve_playground(
    folder: Path, shoe_factory: ShoeFactory | None = None
) -> AsyncIterator[Served]:
    """A fresh playground (its SQLite file in ``folder``; ``shoe_factory``: stacked shoes)
    served; its invariants checked after."""
    database_url = f"sqlite:///{folder / 'playground.sqlite3'}"
    playground = Playground(database_url, shoe_factory=shoe_factory)
    async with serving(playground, port=0) as url, aiohttp.ClientSession() as http:
        yield Served(playground, url, http, await token_of(http, url))
    await check_invariants(database_url)
