"""The table's own HTTP/1.1 client for answers (cogs.table.answer_http), against a real
server on 127.0.0.1 that answers as each test scripts it: kept-alive connections, bodies
in pieces, chunks, interim answers, connections closed by the server, traces."""

from __future__ import annotations

import asyncio
import os
import shutil
import ssl
import subprocess
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import aiohttp
import pytest

from cogs.table import answer_http

#: What a test's server does with a request: the bytes to send back, in pieces (None: close
#: the connection without answering).
Script = Callable[[int, bytes], Awaitable[list[bytes] | None]]

AGENT = "DiscordBot (https://example.invalid 1.0)"
NO_CONTENT = [b"HTTP/1.1 204 No Content\r\nServer: test\r\n\r\n"]


class Server:
    """A TCP server that reads whole requests (head and Content-Length body) and answers
    them by its script; it counts connections and requests."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.connections = 0
        self.requests: list[tuple[int, bytes]] = []  # (connection number, request)
        self.closed_by_client = 0
        self.server: asyncio.Server | None = None
        self.handlers: list[asyncio.Task[None]] = []
        #: Set at each request read, and when a client closes a connection.
        self.got_request = asyncio.Event()
        self.client_closed = asyncio.Event()
        self.writers: list[asyncio.StreamWriter] = []

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        number = self.connections
        self.writers.append(writer)
        task = asyncio.current_task()
        assert task is not None
        self.handlers.append(task)
        try:
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except asyncio.IncompleteReadError:
                    self.closed_by_client += 1
                    self.client_closed.set()
                    return
                length = 0
                for line in head.decode("latin-1").split("\r\n"):
                    if line.lower().startswith("content-length:"):
                        length = int(line.split(":", 1)[1])
                request = head + await reader.readexactly(length)
                self.requests.append((number, request))
                self.got_request.set()
                pieces = await self.script(number, request)
                if pieces is None:
                    return
                for piece in pieces:
                    writer.write(piece)
                    await writer.drain()
                    await asyncio.sleep(0)  # each piece its own read at the client
                if pieces[0].startswith(b"HTTP/1.0") or b"Connection: close" in b"".join(pieces):
                    return
        finally:
            writer.close()

    @property
    def url(self) -> str:
        assert self.server is not None
        port = self.server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}/api/v10/interactions/1/token/callback"


@pytest.fixture
async def serve() -> AsyncIterator[Callable[[Script], Awaitable[Server]]]:
    servers: list[Server] = []

    async def start(script: Script) -> Server:
        server = Server(script)
        server.server = await asyncio.start_server(server.handle, "127.0.0.1", 0)
        servers.append(server)
        return server

    yield start
    for server in servers:
        assert server.server is not None
        server.server.close()
        for writer in server.writers:
            writer.close()
        await asyncio.gather(*server.handlers, return_exceptions=True)


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session
    answer_http.close_for_closed_sessions()


def always(pieces: list[bytes]) -> Script:
    async def script(number: int, request: bytes) -> list[bytes]:
        return pieces

    return script


async def test_an_answer_is_a_json_post_and_the_connection_is_kept_for_the_next(
    serve: Callable[[Script], Awaitable[Server]], session: aiohttp.ClientSession
) -> None:
    server = await serve(always(NO_CONTENT))
    first = await answer_http.post_json(
        session, server.url, {"type": 7, "data": {"é": 1}}, user_agent=AGENT
    )
    second = await answer_http.post_json(session, server.url, {"type": 6}, user_agent=AGENT)
    assert first is not None
    assert second is not None
    assert (first.status, first.reason, first.body) == (204, "No Content", b"")
    assert first.headers["server"] == "test"
    assert server.connections == 1
    assert [number for number, _ in server.requests] == [1, 1]
    head, _, body = server.requests[0][1].partition(b"\r\n\r\n")
    assert head.startswith(b"POST /api/v10/interactions/1/token/callback HTTP/1.1\r\n")
    assert b"\r\nContent-Type: application/json\r\n" in head
    assert f"\r\nUser-Agent: {AGENT}\r\n".encode() in head
    assert body == '{"type":7,"data":{"é":1}}'.encode()


async def test_a_refusal_in_pieces_and_in_chunks_is_read_whole(
    serve: Callable[[Script], Awaitable[Server]], session: aiohttp.ClientSession
) -> None:
    """A 100 Continue first, the head split mid-line, a chunked JSON body split mid-chunk."""
    body = b'{"code": 40060, "message": "Interaction has already been acknowledged."}'
    chunked = b"10\r\n" + body[:16] + b"\r\n" + hex(len(body) - 16)[2:].encode()
    chunked += b";ext=1\r\n" + body[16:] + b"\r\n0\r\n\r\n"
    server = await serve(
        always(
            [
                b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 400 Bad Re",
                b"quest\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
                chunked[:9],
                chunked[9:30],
                chunked[30:],
            ]
        )
    )
    response = await answer_http.post_json(session, server.url, {"type": 7}, user_agent=AGENT)
    assert response is not None
    assert (response.status, response.reason) == (400, "Bad Request")
    assert response.data() == {
        "code": 40060,
        "message": "Interaction has already been acknowledged.",
    }
    # The connection is whole after the chunks: the next answer goes on it.
    again = await answer_http.post_json(session, server.url, {"type": 7}, user_agent=AGENT)
    assert again is not None
    assert again.status == 400
    assert server.connections == 1


async def test_a_body_by_length_and_one_to_the_end_of_the_connection(
    serve: Callable[[Script], Awaitable[Server]], session: aiohttp.ClientSession
) -> None:
    async def script(number: int, request: bytes) -> list[bytes]:
        if number == 1:  # a length, and Connection: close
            return [
                b"HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n",
                b"Connection: close\r\n\r\nnot ",
                b"found",
            ]
        return [b"HTTP/1.0 503 Service Unavailable\r\n\r\nupstream ", b"down"]

    server = await serve(script)
    gone = await answer_http.post_json(session, server.url, {"type": 7}, user_agent=AGENT)
    assert gone is not None
    assert (gone.status, gone.body) == (404, b"not found")
    assert gone.data() == "not found"  # not JSON: the text, as discord.py reads it
    down = await answer_http.post_json(session, server.url, {"type": 7}, user_agent=AGENT)
    assert down is not None
    assert (down.status, down.body) == (503, b"upstream down")
    assert server.connections == 2  # Connection: close was not kept


async def test_a_kept_connection_the_server_closed_sends_the_answer_again_on_a_new_one(
    serve: Callable[[Script], Awaitable[Server]], session: aiohttp.ClientSession
) -> None:
    """Discord closes idle connections; a request that meets one closing was never read."""

    async def script(number: int, request: bytes) -> list[bytes] | None:
        if number == 1 and len(server.requests) == 2:
            return None  # closes the kept connection on the second request, unanswered
        return NO_CONTENT

    server = await serve(script)
    assert await answer_http.post_json(session, server.url, {"n": 1}, user_agent=AGENT) is not None
    second = await answer_http.post_json(session, server.url, {"n": 2}, user_agent=AGENT)
    assert second is not None
    assert second.status == 204
    assert [(number, request.endswith(b'{"n":2}')) for number, request in server.requests] == [
        (1, False),
        (1, True),
        (2, True),
    ]


async def test_a_new_connection_closed_unanswered_raises_as_aiohttp_does(
    serve: Callable[[Script], Awaitable[Server]], session: aiohttp.ClientSession
) -> None:
    async def script(number: int, request: bytes) -> None:
        return None

    server = await serve(script)
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await answer_http.post_json(session, server.url, {"type": 7}, user_agent=AGENT)
    assert len(server.requests) == 1  # not sent again: it may have been read


async def test_a_cancelled_answer_leaves_its_connection_closed_not_kept(
    serve: Callable[[Script], Awaitable[Server]], session: aiohttp.ClientSession
) -> None:
    hold = asyncio.Event()

    async def script(number: int, request: bytes) -> list[bytes]:
        if number == 1:
            await hold.wait()
        return NO_CONTENT

    server = await serve(script)
    answering = asyncio.ensure_future(
        answer_http.post_json(session, server.url, {"type": 7}, user_agent=AGENT)
    )
    await server.got_request.wait()
    answering.cancel()
    with pytest.raises(asyncio.CancelledError):
        await answering
    hold.set()
    after = await answer_http.post_json(session, server.url, {"type": 7}, user_agent=AGENT)
    assert after is not None
    assert after.status == 204
    assert server.connections == 2


async def test_the_sessions_traces_see_each_answer_and_a_stopped_bot_closes_its_connections(
    serve: Callable[[Script], Awaitable[Server]],
) -> None:
    seen: list[tuple[str, Any]] = []
    trace = aiohttp.TraceConfig()

    async def start(s: Any, context: SimpleNamespace, params: Any) -> None:
        seen.append(("start", str(params.url)))

    async def sent(s: Any, context: SimpleNamespace, params: Any) -> None:
        seen.append(("headers sent", params.method))

    async def end(s: Any, context: SimpleNamespace, params: Any) -> None:
        seen.append(("end", params.response.status))

    async def failed(s: Any, context: SimpleNamespace, params: Any) -> None:
        seen.append(("exception", type(params.exception).__name__))

    trace.on_request_start.append(start)
    trace.on_request_headers_sent.append(sent)
    trace.on_request_end.append(end)
    trace.on_request_exception.append(failed)

    async def script(number: int, request: bytes) -> list[bytes] | None:
        return None if b'"fail"' in request else NO_CONTENT

    server = await serve(script)
    async with aiohttp.ClientSession(trace_configs=[trace]) as session:
        await answer_http.post_json(session, server.url, {"type": 7}, user_agent=AGENT)
        with pytest.raises(aiohttp.ServerDisconnectedError):
            await answer_http.post_json(session, server.url, {"fail": 1}, user_agent=AGENT)
        await answer_http.post_json(session, server.url, {"type": 7}, user_agent=AGENT)
        assert server.closed_by_client == 0
    assert seen == [
        ("start", server.url),
        ("headers sent", "POST"),
        ("end", 204),
        ("start", server.url),
        ("headers sent", "POST"),
        ("headers sent", "POST"),  # again on a new connection: the kept one closed unread
        ("exception", "ServerDisconnectedError"),
        ("start", server.url),
        ("headers sent", "POST"),
        ("end", 204),
    ]
    assert (
        await answer_http.post_json(session, server.url, {"type": 7}, user_agent=AGENT) is None
    )  # closed
    answer_http.close_for_closed_sessions()
    await server.client_closed.wait()  # the kept connection, closed by the client
    assert server.closed_by_client == 1


@pytest.fixture
def certificate(tmp_path: Path) -> tuple[Path, Path]:
    """A self-signed key and certificate for "localhost" (Debian's openssl command). Without
    it the TLS test is skipped, and fails when CI is set (.ci/run installs it)."""
    if shutil.which("openssl") is None:
        hint = "the TLS test needs the openssl command (apt-get install openssl)"
        if os.environ.get("CI"):
            pytest.fail(f"CI is set and {hint}", pytrace=False)
        pytest.skip(hint)
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"),
            *("-keyout", str(key), "-out", str(cert), "-subj", "/CN=localhost"),
            *("-addext", "subjectAltName=DNS:localhost"),
        ],
        check=True,
        capture_output=True,
    )
    return key, cert


async def test_an_https_answer_is_sent_over_tls_checked_against_the_systems_certificates(
    certificate: tuple[Path, Path],
    monkeypatch: pytest.MonkeyPatch,
    session: aiohttp.ClientSession,
) -> None:
    """As aiohttp does: the default context (here told to trust a test certificate by
    SSL_CERT_FILE, as a host with its own authority does), the host name checked."""
    key, cert = certificate
    served = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    served.load_cert_chain(cert, key)
    server = Server(always(NO_CONTENT))
    server.server = await asyncio.start_server(server.handle, "127.0.0.1", 0, ssl=served)
    try:
        url = server.url.replace("http://127.0.0.1", "https://localhost")
        monkeypatch.setenv("SSL_CERT_FILE", str(cert))
        answer_http._tls_context.cache_clear()
        try:
            first = await answer_http.post_json(session, url, {"type": 7}, user_agent=AGENT)
            second = await answer_http.post_json(session, url, {"type": 7}, user_agent=AGENT)
        finally:
            answer_http._tls_context.cache_clear()
        assert first is not None
        assert second is not None
        assert (first.status, second.status) == (204, 204)
        assert server.connections == 1
        assert server.requests[0][1].startswith(b"POST /api/v10/interactions/1/token/callback")
        # A name the certificate does not carry is refused, as aiohttp refuses it.
        wrong = server.url.replace("http://", "https://")  # 127.0.0.1
        with pytest.raises(ssl.SSLCertVerificationError):
            await answer_http.post_json(session, wrong, {"type": 7}, user_agent=AGENT)
    finally:
        answer_http._tls_context.cache_clear()
        server.server.close()
        for writer in server.writers:
            writer.close()
        await asyncio.gather(*server.handlers, return_exceptions=True)


async def test_a_malformed_response_raises_and_its_connection_is_not_kept(
    serve: Callable[[Script], Awaitable[Server]], session: aiohttp.ClientSession
) -> None:
    async def script(number: int, request: bytes) -> list[bytes]:
        if number == 1:
            return [b"HTTP/1.1 200 OK\r\nContent-Length: many\r\n\r\n"]
        return NO_CONTENT

    server = await serve(script)
    with pytest.raises(aiohttp.ClientPayloadError, match="malformed"):
        await answer_http.post_json(session, server.url, {"type": 7}, user_agent=AGENT)
    after = await answer_http.post_json(session, server.url, {"type": 7}, user_agent=AGENT)
    assert after is not None
    assert after.status == 204
    assert server.connections == 2
