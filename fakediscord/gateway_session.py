"""A gateway connection (compressed as the client asked) and a session (its sequence,
the guilds it is routed, and the events kept for a RESUME)."""

from __future__ import annotations

import asyncio
import json
import zlib
from dataclasses import dataclass, field
from typing import Any

import zstandard
from aiohttp import web

from .shards import covers

DISPATCH = 0
#: Events kept per session for RESUME replay.
REPLAY_BUFFER = 1000


class Connection:
    """One websocket, with its transport compression."""

    def __init__(self, ws: web.WebSocketResponse, *, compress: str | None = None) -> None:
        self.ws = ws
        self._deflate = zlib.compressobj() if compress == "zlib-stream" else None
        #: zstd-stream (what discord.py asks for when ``zstandard`` is installed): one
        #: stream, each message a flushed block.
        self._zstd = zstandard.ZstdCompressor().compressobj() if compress == "zstd-stream" else None
        self.closed = asyncio.Event()
        #: The fake closed this connection (resumable), rather than the client.
        self.closed_by_server = False
        self.lock = asyncio.Lock()
        #: Heartbeat ACKs sent, and those on their way (cancelled when the connection ends).
        self.acks = 0
        self.pending_acks: set[asyncio.Task[None]] = set()
        #: Heartbeats the fake asked for (``sync``) and the client has not answered yet.
        self.requested_beats = 0
        #: The session this connection identified or resumed (None until it has).
        self.session: Session | None = None
        #: The close code the client sent, if it closed the connection.
        self.client_close_code: int | None = None

    async def send(self, payload: dict[str, Any]) -> None:
        """Send one gateway payload (a flushed block of the connection's compressed stream)."""
        text = json.dumps(payload, separators=(",", ":"))
        async with self.lock:
            if self.ws.closed:
                return
            try:
                if self._zstd is not None:
                    flush = zstandard.COMPRESSOBJ_FLUSH_BLOCK
                    data = self._zstd.compress(text.encode()) + self._zstd.flush(flush)
                    await self.ws.send_bytes(data)
                elif self._deflate is None:
                    await self.ws.send_str(text)
                else:
                    data = self._deflate.compress(text.encode()) + self._deflate.flush(
                        zlib.Z_SYNC_FLUSH
                    )
                    await self.ws.send_bytes(data)
            except (ConnectionError, RuntimeError):
                pass  # the peer went away (a killed bot); the reader notices and cleans up


@dataclass(eq=False)
class Session:
    """A gateway session: survives its connection until invalidated, so it can be resumed."""

    id: str
    intents: int
    #: ``(shard_id, num_shards)`` as identified; None when IDENTIFY sent no ``shard``.
    shard: tuple[int, int] | None
    seq: int = 0
    buffer: list[dict[str, Any]] = field(default_factory=list)
    connection: Connection | None = None
    invalidated: bool = False
    ready: bool = False
    #: Highest sequence the client acknowledged in a heartbeat (it has processed up to here).
    acked_seq: int = 0

    @property
    def routing(self) -> tuple[int, int]:
        """The shard events are routed by: an unsharded session is ``(0, 1)``, all guilds."""
        return self.shard or (0, 1)

    def received(self, event: str) -> list[Any]:
        """The ``d`` of every ``event`` dispatched to this session (the last 1000 events)."""
        return [p["d"] for p in self.buffer if p["t"] == event]

    def receives(self, guild_id: int | None) -> bool:
        """Whether this session is sent the events of ``guild_id`` (None: guild-less events)."""
        return covers(self.routing, guild_id)

    @property
    def connected(self) -> bool:
        """Whether a live websocket is attached."""
        return self.connection is not None and not self.connection.ws.closed

    async def dispatch(self, event: str, data: Any) -> None:
        """Number the event, keep it for replay, send it if connected."""
        self.seq += 1
        payload = {"op": DISPATCH, "t": event, "s": self.seq, "d": data}
        self.buffer.append(payload)
        del self.buffer[:-REPLAY_BUFFER]
        if self.connection is not None:
            await self.connection.send(payload)
