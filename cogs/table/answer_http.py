"""A click's answer over kept-alive HTTP/1.1 connections of the table's own.

Why: answering is the one request every click makes, and aiohttp's client spent about
100 us of the event loop's time on each (building a request and a response object, its
connector, its timers, its signals), against about 40 us for the same request written
as here (bench/README.md, "Seventh pass"). Here an answer is written to an idle
connection to Discord (one opened when none is idle: TLS for https, as aiohttp does) and
its response read by a small HTTP/1.1 parser: the status line, the headers, and a body
by Content-Length, by chunks, or to the connection's end.

The session's trace configs see each request as they do aiohttp's (start, headers sent,
end or exception), so the bot's metrics and the benchmarks count and time it unchanged.

A request that cannot be made here (a URL this does not speak, a closed session) returns
None, and the caller sends it through aiohttp. One whose kept-alive connection closed
before a byte of its response came back (Discord closes idle connections; such a request
was never read) is tried once more, on a new connection. Any other failure is raised, as
aiohttp raises it (a connection refused or reset, the server gone before it answered).
"""

from __future__ import annotations

import asyncio
import functools
import ssl
import weakref
from typing import Any, Final, cast

import aiohttp
import orjson
from multidict import CIMultiDict, CIMultiDictProxy
from yarl import URL

#: Idle connections kept per host (aiohttp's connector keeps as many): answers in flight
#: at once beyond this open and close.
MAX_IDLE: Final = 100
#: The longest an answer's request may take (Discord's token lasts 15 minutes; the table
#: defers a slow answer long before).
TIMEOUT_S: Final = 60.0


class Response:
    """What an answer's request got back: enough for discord.py's HTTPException."""

    __slots__ = ("body", "headers", "reason", "status")

    def __init__(self, status: int, reason: str, headers: CIMultiDictProxy[str], body: bytes):
        self.status = status
        self.reason = reason
        self.headers = headers
        self.body = body

    def data(self) -> dict[str, Any] | str:
        """The body as discord.py's ``json_or_text`` reads it."""
        text = self.body.decode("utf-8", "replace")
        if self.headers.get("Content-Type") == "application/json":
            try:
                loaded: dict[str, Any] = orjson.loads(text)
            except orjson.JSONDecodeError:
                return text
            return loaded
        return text


class _Unread(Exception):
    """The connection closed before any of the response came back."""


class _Connection(asyncio.Protocol):
    """One HTTP/1.1 connection: a request at a time, its response parsed as it arrives."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.open = True
        self._buffer = bytearray()
        self._waiter: asyncio.Future[Response] | None = None
        self._head: tuple[int, str, CIMultiDict[str]] | None = None
        self._reusable = True

    # -- asyncio.Protocol
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # (uvloop's is not a subclass)

    def data_received(self, data: bytes) -> None:
        if self._waiter is None or self._waiter.done():
            self.close()  # nothing asked for it
            return
        self._buffer += data
        try:
            response = self._parse(eof=False)
        except ValueError as error:
            self._fail(aiohttp.ClientPayloadError(f"a malformed response: {error}"))
            return
        if response is not None:
            self._waiter.set_result(response)

    def eof_received(self) -> bool:
        self._end()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self._end()

    # -- the request
    def request(self, head: bytes, body: bytes) -> asyncio.Future[Response]:
        assert self.transport is not None
        self._buffer.clear()
        self._head = None
        self._waiter = asyncio.get_running_loop().create_future()
        self.transport.write(head + body)
        return self._waiter

    @property
    def reusable(self) -> bool:
        return self.open and self._reusable and not self._buffer

    def close(self) -> None:
        self.open = False
        if self.transport is not None:
            self.transport.close()

    # -- parsing
    def _end(self) -> None:
        self.open = False
        waiter = self._waiter
        if waiter is None or waiter.done():
            return
        if not self._buffer and self._head is None:
            waiter.set_exception(_Unread())
            return
        try:
            response = self._parse(eof=True)
        except ValueError as error:
            response = None
            message = str(error)
        else:
            message = "the connection closed before the response ended"
        if response is None:
            waiter.set_exception(aiohttp.ServerDisconnectedError(message))
        else:
            waiter.set_result(response)

    def _fail(self, error: Exception) -> None:
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_exception(error)
        self.close()

    def _parse(self, *, eof: bool) -> Response | None:
        buffer = self._buffer
        if self._head is None:
            end = buffer.find(b"\r\n\r\n")
            if end < 0:
                return None
            lines = bytes(buffer[:end]).decode("latin-1").split("\r\n")
            del buffer[: end + 4]
            version, _, rest = lines[0].partition(" ")
            code, _, reason = rest.partition(" ")
            if not version.startswith("HTTP/1.") or not code.isdigit():
                raise ValueError(f"not an HTTP/1.1 status line: {lines[0][:80]!r}")
            headers: CIMultiDict[str] = CIMultiDict()
            for line in lines[1:]:
                name, colon, value = line.partition(":")
                if not colon:
                    raise ValueError(f"not a header: {line[:80]!r}")
                headers.add(name.strip(), value.strip())
            if 100 <= int(code) < 200:  # an interim answer: the real one follows
                return self._parse(eof=eof)
            self._head = (int(code), reason, headers)
            if headers.get("Connection", "").lower() == "close" or version == "HTTP/1.0":
                self._reusable = False
        status, reason, headers = self._head
        body: bytes | None
        if status in (204, 304):
            body = b""
        elif "chunked" in headers.get("Transfer-Encoding", "").lower():
            body = self._chunked()
        elif "Content-Length" in headers:
            length = int(headers["Content-Length"])
            if len(buffer) < length:
                return None
            body = bytes(buffer[:length])
            del buffer[:length]
        else:  # the body runs to the end of the connection
            self._reusable = False
            if not eof:
                return None
            body = bytes(buffer)
            buffer.clear()
        if body is None:
            return None
        return Response(status, reason, CIMultiDictProxy(headers), body)

    def _chunked(self) -> bytes | None:
        """The whole chunked body once it has all arrived (the buffer is left until then)."""
        buffer, at = self._buffer, 0
        parts: list[bytes] = []
        while True:
            line_end = buffer.find(b"\r\n", at)
            if line_end < 0:
                return None
            size = int(bytes(buffer[at:line_end]).split(b";", 1)[0], 16)
            at = line_end + 2
            if size == 0:
                trailer_end = buffer.find(b"\r\n\r\n", at - 2)
                if trailer_end < 0:
                    return None
                del buffer[: trailer_end + 4]
                return b"".join(parts)
            if len(buffer) < at + size + 2:
                return None
            parts.append(bytes(buffer[at : at + size]))
            at += size + 2


class _Pool:
    """Idle connections to one host; a new one opened when none is."""

    def __init__(self, url: URL) -> None:
        assert url.host is not None
        self.host, self.port = url.host, url.port or (443 if url.scheme == "https" else 80)
        self.tls = url.scheme == "https"
        self.idle: list[_Connection] = []

    async def take(self, *, fresh: bool = False) -> tuple[_Connection, bool]:
        """A connection (a new one if ``fresh``), and whether it was kept from an earlier
        request."""
        while self.idle and not fresh:
            connection = self.idle.pop()
            if connection.reusable:
                return connection, True
            connection.close()
        loop = asyncio.get_running_loop()
        context = _tls_context() if self.tls else None
        transport, connection = await loop.create_connection(
            _Connection,
            self.host,
            self.port,
            ssl=context,
            server_hostname=self.host if context else None,
        )
        connection.transport = transport  # (uvloop calls connection_made after this returns)
        return connection, False

    def give_back(self, connection: _Connection) -> None:
        if connection.reusable and len(self.idle) < MAX_IDLE:
            self.idle.append(connection)
        else:
            connection.close()

    def close(self) -> None:
        for connection in self.idle:
            connection.close()
        self.idle.clear()


@functools.cache
def _tls_context() -> ssl.SSLContext:
    """The system's certificates, as aiohttp's default (made once: loading them is slow)."""
    return ssl.create_default_context()


#: Each discord.py HTTP session's pools, by host (see :func:`close_for_closed_sessions`).
_POOLS: weakref.WeakKeyDictionary[aiohttp.ClientSession, dict[str, _Pool]] = (
    weakref.WeakKeyDictionary()
)


def close_for_closed_sessions() -> None:
    """Close the kept connections of every HTTP session that has closed (its bot stopped)."""
    for session in [session for session in _POOLS if session.closed]:
        for pool in _POOLS.pop(session).values():
            pool.close()


async def post_json(
    session: aiohttp.ClientSession, url: str, payload: dict[str, Any], *, user_agent: str
) -> Response | None:
    """POST ``payload`` as JSON to ``url``; the response, or None if aiohttp must send it.

    ``user_agent``: the bot's (discord.py's ``HTTPClient.user_agent``, as its other
    requests carry; Discord asks every client to name itself)."""
    target = URL(url)
    if target.scheme not in ("http", "https") or not target.host or session.closed:
        return None  # (aiohttp raises what it raises for a closed session)
    pools = _POOLS.setdefault(session, {})
    key = f"{target.scheme}://{target.host_port_subcomponent}"
    pool = pools.get(key)
    if pool is None:
        pool = pools[key] = _Pool(target)
    body = orjson.dumps(payload)
    headers: CIMultiDict[str] = CIMultiDict(
        {
            "Host": target.host_port_subcomponent or target.host,
            "User-Agent": user_agent,
            "Content-Type": "application/json",
            "Content-Length": str(len(body)),
        }
    )
    lines = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
    head = f"POST {target.raw_path_qs} HTTP/1.1\r\n{lines}\r\n".encode("latin-1")
    traces = [(trace, trace.trace_config_ctx()) for trace in session.trace_configs]
    for trace, context in traces:
        await trace.on_request_start.send(
            session, context, aiohttp.TraceRequestStartParams("POST", target, headers)
        )
    try:
        fresh = False
        while True:
            connection, kept = await pool.take(fresh=fresh)
            try:
                async with asyncio.timeout(TIMEOUT_S):
                    sent = connection.request(head, body)
                    for trace, context in traces:
                        await trace.on_request_headers_sent.send(
                            session,
                            context,
                            aiohttp.TraceRequestHeadersSentParams("POST", target, headers),
                        )
                    response = await sent
            except _Unread:
                connection.close()
                if kept:  # Discord closed it while idle, so never read this: once more
                    fresh = True
                    continue
                raise aiohttp.ServerDisconnectedError() from None
            except BaseException:
                connection.close()
                raise
            pool.give_back(connection)
            break
    except Exception as error:
        for trace, context in traces:
            await trace.on_request_exception.send(
                session,
                context,
                aiohttp.TraceRequestExceptionParams("POST", target, headers, error),
            )
        raise
    for trace, context in traces:
        await trace.on_request_end.send(
            session,
            context,
            aiohttp.TraceRequestEndParams("POST", target, headers, response),  # type: ignore[arg-type]
        )
    return response
