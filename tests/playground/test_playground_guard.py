"""Another website cannot use the playground; broken requests are 400s logged in one line.

The attacks are the ones a page on another site can make from a browser on the
same machine: a ``text/plain`` POST (no preflight) naming a player, a WebSocket
reading every player's events, and DNS rebinding (its own name resolving to
127.0.0.1, so that ``Host`` names it). Each is refused and no player acts.
"""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from playground.guard import (
    FOREIGN_HOST,
    FOREIGN_ORIGIN,
    NO_TOKEN,
    NOT_JSON,
    TOKEN_HEADER,
    Guard,
)
from tests.playground.served import Served, serve_playground

EVIL: dict[str, str] = {"Origin": "http://evil.example"}


def host_of(served: Served) -> str:
    """The page's ``host:port``."""
    return served.url.removeprefix("http://")


def assert_nothing_happened(served: Served) -> None:
    """No player acted: no interaction, no message, the first players and channels only."""
    playground = served.playground
    assert not playground.fake.interactions
    assert not playground.fake.messages
    assert [m.user.username for m in playground.players()] == ["alice", "bob", "croupier"]
    assert [c.name for c in playground.channels()] == ["blackjack", "high-rollers"]


async def answer(response: aiohttp.ClientResponse) -> tuple[int, Any]:
    return response.status, await response.json(content_type=None)


async def test_a_cross_origin_text_plain_post_plays_as_nobody(served: Served) -> None:
    alice, _, channel = served.ids()
    line = json.dumps({"viewer": alice, "channel": channel, "line": "/blackjack start"})
    command = served.url + "/api/command"
    # What another site's fetch() can send without a preflight: no token, text/plain.
    plain = {"Content-Type": "text/plain"}
    async with served.http.post(command, data=line, headers=EVIL | plain) as response:
        assert await answer(response) == (403, {"error": FOREIGN_ORIGIN})
    # Even holding the token (and sending JSON), another origin is refused.
    for body in ({"name": "mallory"}, {"viewer": alice, "channel": channel, "line": "/balance"}):
        for path in ("/api/players", "/api/command"):
            headers = EVIL | served.auth
            async with served.http.post(served.url + path, json=body, headers=headers) as response:
                assert await answer(response) == (403, {"error": FOREIGN_ORIGIN})
    # From the page's own origin, with the token, a text/plain body is still refused.
    own = {"Origin": served.url} | served.auth | plain
    async with served.http.post(command, data=line, headers=own) as response:
        assert await answer(response) == (415, {"error": NOT_JSON})
    assert_nothing_happened(served)
    # The page itself, from its own origin (either of its names), plays.
    for origin in (served.url, served.url.replace("127.0.0.1", "localhost")):
        body = {"viewer": alice, "channel": channel, "line": "/balance"}
        headers = {"Origin": origin} | served.auth
        async with served.http.post(command, json=body, headers=headers) as response:
            assert await answer(response) == (200, {"ok": True, "refused": None, "failed": None})
    assert len(served.playground.fake.interactions) == 2


async def test_a_cross_origin_websocket_hears_nothing(served: Served) -> None:
    alice, _, channel = served.ids()
    for url, headers in [
        (served.live(alice), EVIL),  # another site, even with the token
        (served.live(alice).replace(served.token, "guess"), {}),
        (served.live(alice).split("&token=")[0], {}),
    ]:
        with pytest.raises(aiohttp.WSServerHandshakeError) as refusal:
            await served.http.ws_connect(url, headers=headers)
        assert refusal.value.status == 403
    # The page's own socket, from its own origin, hears Alice's reply.
    own = {"Origin": served.url}
    async with served.http.ws_connect(served.live(alice), headers=own) as socket:
        assert (await served.command(alice, channel, "/balance"))["ok"] is True
        event = await socket.receive_json(timeout=5)
        assert event["message"]["content"] == "You have 1,000 chips."


async def test_a_foreign_host_header_is_refused(served: Served) -> None:
    """DNS rebinding: evil.example resolves to 127.0.0.1, the browser sends its name as Host."""
    alice, _, channel = served.ids()
    port = host_of(served).split(":")[1]
    for host in (f"evil.example:{port}", "evil.example", "127.0.0.1:1"):
        rebound = {"Host": host}
        # The page (and so its token) is not served under the rebinding name.
        async with served.http.get(served.url, headers=rebound) as response:
            assert await answer(response) == (403, {"error": FOREIGN_HOST})
        body = {"viewer": alice, "channel": channel, "line": "/blackjack start"}
        headers = rebound | served.auth
        async with served.http.post(served.url + "/api/command", json=body, headers=headers) as r:
            assert await answer(r) == (403, {"error": FOREIGN_HOST})
        with pytest.raises(aiohttp.WSServerHandshakeError) as refusal:
            await served.http.ws_connect(served.live(alice), headers=rebound)
        assert refusal.value.status == 403
    assert_nothing_happened(served)
    # localhost is the page's own name too.
    async with served.http.get(served.url, headers={"Host": f"localhost:{port}"}) as response:
        assert response.status == 200


async def test_the_api_wants_this_runs_token(served: Served) -> None:
    alice, _, channel = served.ids()
    body = {"viewer": alice, "channel": channel, "line": "/blackjack start"}
    for headers, query in [
        ({}, ""),
        ({TOKEN_HEADER: "guess"}, ""),
        ({TOKEN_HEADER: served.token[:-1]}, ""),
        ({}, "?token=%C3%A9"),  # not even ASCII
    ]:
        url = served.url + "/api/command" + query
        async with served.http.post(url, json=body, headers=headers) as response:
            assert await answer(response) == (403, {"error": NO_TOKEN})
        async with served.http.get(served.url + "/api/state" + query, headers=headers) as response:
            assert await answer(response) == (403, {"error": NO_TOKEN})
    assert_nothing_happened(served)
    # The page and its files need no token: they are how the page gets it. No other site
    # may frame the page (and lead a player's clicks in it), nor keep an old token cached.
    async with served.http.get(served.url + "/static/playground.js") as response:
        assert response.status == 200
    async with served.http.get(served.url) as response:
        assert response.headers["Content-Security-Policy"] == "frame-ancestors 'none'"
        assert response.headers["X-Frame-Options"] == "DENY"
        assert response.headers["Cache-Control"] == "no-store"
    assert Guard().token != Guard().token != served.token


async def test_a_broken_body_is_a_400_and_one_line_of_log(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    logged = asyncio.Event()

    class Heard(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if "left before" in record.getMessage():
                logged.set()

    heard = Heard()
    logging.getLogger("playground.guard").addHandler(heard)
    try:
        async with serve_playground(tmp_path) as served:
            json_headers = served.auth | {"Content-Type": "application/json"}
            for raw, reason in [
                (b'{"name": "caf\xe9"}', "the body is not UTF-8"),
                (b"[" * 100_000 + b"]" * 100_000, "the JSON is nested too deeply"),
                (b'{"name": "carol"', "expected a JSON body"),
            ]:
                url = served.url + "/api/players"
                async with served.http.post(url, data=raw, headers=json_headers) as response:
                    assert await answer(response) == (400, {"error": reason})
            # A client that sends half its body and hangs up.
            host, port = host_of(served).split(":")
            _, writer = await asyncio.open_connection(host, int(port))
            head = f"POST /api/players HTTP/1.1\r\nHost: {host}:{port}\r\n" + "".join(
                f"{name}: {value}\r\n" for name, value in json_headers.items()
            )
            writer.write(f'{head}Content-Length: 100\r\n\r\n{{"name": "ca'.encode())
            await writer.drain()
            writer.close()
            await writer.wait_closed()
            await asyncio.wait_for(logged.wait(), timeout=10)
            assert_nothing_happened(served)
    finally:
        logging.getLogger("playground.guard").removeHandler(heard)
    # The server has stopped: whatever it logged for these requests is here.
    lines = [r.getMessage() for r in caplog.records if r.name == "playground.guard"]
    assert lines == [
        "400 POST /api/players: the body is not UTF-8",
        "400 POST /api/players: the JSON is nested too deeply",
        "400 POST /api/players: expected a JSON body",
        "400 POST /api/players: the client left before its body arrived",
    ]
    assert not [r for r in caplog.records if r.exc_info or r.name.startswith("aiohttp")]
