"""Gateway v10: HELLO, heartbeats, IDENTIFY/READY/GUILD_CREATE, RESUME, zlib-stream, zstd-stream."""

from __future__ import annotations

import asyncio
import json
import secrets
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from .gateway_session import Connection, Session
from .shards import InvalidShard, covers, event_guild_id, parse_shard

if TYPE_CHECKING:
    from .server import FakeDiscord

HELLO, HEARTBEAT, IDENTIFY, PRESENCE, VOICE, RESUME, RECONNECT = 10, 1, 2, 3, 4, 6, 7
REQUEST_MEMBERS, INVALID_SESSION, HEARTBEAT_ACK = 8, 9, 11
HEARTBEAT_INTERVAL_MS = 41250
#: Real seconds between a heartbeat's arrival and its ACK: Discord's answer crosses the
#: network, the fake's would cross none. discord.py's keep-alive thread records a heartbeat
#: as sent only once its send has completed and the thread has the GIL again; an ACK handled
#: before that is timed from the previous heartbeat, a whole interval back ("Can't keep up,
#: shard ID None websocket is 41.3s behind"), which an ACK from the same event loop often
#: was. With three threads contending for the GIL the thread took up to about 50 ms to
#: record it, hence a quarter of a second (a slow round trip to Discord, no more).
HEARTBEAT_ACK_DELAY_S = 0.25
GUILDS_INTENT, GUILD_MEMBERS_INTENT, GUILD_MESSAGES_INTENT = 1 << 0, 1 << 1, 1 << 9
#: Guild events Discord sends only to sessions that identified with their intent.
EVENT_INTENTS = {
    "MESSAGE_CREATE": GUILD_MESSAGES_INTENT,
    "MESSAGE_UPDATE": GUILD_MESSAGES_INTENT,
    "MESSAGE_DELETE": GUILD_MESSAGES_INTENT,
    "MESSAGE_DELETE_BULK": GUILD_MESSAGES_INTENT,
}
PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)


class Gateway:
    """The fake's gateway endpoint and its sessions."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.sessions: dict[str, Session] = {}
        self.identifies = 0
        self.resumes = 0
        self.connections = 0
        #: Transport of each connection: "zlib-stream", "zstd-stream" or "json".
        self.transports: list[str] = []
        #: Close codes clients sent, in order.
        self.close_codes: list[int] = []
        self.log: list[tuple[str, Any]] = []
        #: What HELLO asks for; a test of the keep-alive shortens it.
        self.heartbeat_interval_ms = HEARTBEAT_INTERVAL_MS

    # -- for tests -------------------------------------------------------------------------
    def open_sessions(self) -> list[Session]:
        """Sessions past READY and not invalidated: connected, or waiting to be resumed."""
        return [s for s in self.sessions.values() if s.ready and not s.invalidated]

    def live_sessions(self) -> list[Session]:
        """Sessions that are connected and past READY."""
        return [s for s in self.open_sessions() if s.connected]

    def sessions_for(self, guild_id: int | None) -> list[Session]:
        """Open sessions (connected or resumable) whose shard receives ``guild_id``'s events."""
        return [s for s in self.open_sessions() if s.receives(guild_id)]

    def owner_of(self, guild_id: int | None) -> Session | None:
        """The one session an interaction in ``guild_id`` goes to.

        Discord allows several sessions on one shard; the fake picks the newest
        connected one, else the newest resumable one (the event waits in its buffer).
        """
        open_sessions = self.sessions_for(guild_id)
        connected = [s for s in open_sessions if s.connected]
        pool = connected or open_sessions
        return pool[-1] if pool else None

    async def dispatch(self, event: str, data: Any) -> None:
        """Send an event to every open session whose shard owns the event's guild
        (message events only to sessions with the GUILD_MESSAGES intent, as Discord does).

        INTERACTION_CREATE goes to one session only (see :meth:`owner_of`), which
        is recorded on the interaction.
        """
        guild_id = event_guild_id(event, data)
        if event == "INTERACTION_CREATE":
            owner = self.owner_of(guild_id)
            targets = [owner] if owner is not None else []
            interaction = self.fake.interactions.get(int(data["id"]))
            if interaction is not None:
                interaction.session = owner
        else:
            needed = EVENT_INTENTS.get(event, 0) if guild_id is not None else 0
            targets = [s for s in self.sessions_for(guild_id) if s.intents & needed == needed]
        for session in targets:
            await session.dispatch(event, data)
        self.fake.changed()

    async def drop_connections(self, code: int = 4000) -> None:
        """Close every websocket with a resumable close code (the bot should RESUME)."""
        for session in self.sessions.values():
            if session.connection is not None:
                session.connection.closed_by_server = True
                await session.connection.ws.close(code=code)

    async def expire_sessions(self) -> None:
        """End every session and drop its connection, as Discord does when a session expires.

        The bot's RESUME is answered with op 9 ``false``, so it IDENTIFYs anew and
        gets a fresh READY and GUILD_CREATEs.
        """
        for session in self.sessions.values():
            session.invalidated = True
        await self.drop_connections(4000)

    async def send_reconnect(self) -> None:
        """Send op 7 RECONNECT to every connection (the bot should reconnect and RESUME)."""
        for session in self.sessions.values():
            if session.connection is not None:
                await session.connection.send({"op": RECONNECT, "d": None})

    async def sync(self, max_wait: float = 5.0) -> None:
        """Return once the bot has processed every event sent so far.

        The fake asks for a heartbeat (op 1); discord.py answers it in order with
        the last sequence it processed, so an answer at or past the current
        sequence proves everything before it was handled.
        """
        sessions = self.live_sessions()
        if not sessions:
            raise AssertionError("no bot is connected to the fake gateway")
        targets = [(s, s.seq) for s in sessions]
        for session, _ in targets:
            assert session.connection is not None
            session.connection.requested_beats += 1
            await session.connection.send({"op": HEARTBEAT, "d": None})
        await self.fake.wait_for(
            lambda: all(s.acked_seq >= seq or not s.connected for s, seq in targets),
            max_wait=max_wait,
        )

    # -- the websocket -----------------------------------------------------------------------
    def _ack_soon(self, conn: Connection) -> None:
        """ACK a heartbeat :data:`HEARTBEAT_ACK_DELAY_S` later, as a round trip to Discord takes.

        The connection's first is ACKed at once: discord.py sends it from the event loop at
        HELLO and times it from that moment, so its ACK cannot be early, and a bot is ready
        (its latency known, as it is on Discord by then) without waiting a round trip.
        """
        delay = HEARTBEAT_ACK_DELAY_S if conn.acks or conn.pending_acks else 0.0
        task = asyncio.get_running_loop().create_task(self._ack(conn, delay))
        conn.pending_acks.add(task)
        task.add_done_callback(conn.pending_acks.discard)

    async def _ack(self, conn: Connection, delay: float) -> None:
        if delay:
            await asyncio.sleep(delay)
        await conn.send({"op": HEARTBEAT_ACK})
        conn.acks += 1
        self.fake.changed()

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """``GET /gateway?v=10&encoding=json[&compress=zlib-stream|zstd-stream]``: a connection."""
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        self.connections += 1
        version, encoding = request.query.get("v"), request.query.get("encoding", "json")
        compress = request.query.get("compress")
        if version != "10":
            await ws.close(code=4012, message=b"Invalid API version")
            return ws
        if encoding != "json" or compress not in (None, "zlib-stream", "zstd-stream"):
            await ws.close(code=4002, message=b"Error while decoding payload.")
            return ws
        conn = Connection(ws, compress=compress)
        self.transports.append(compress or "json")
        await conn.send({"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
        try:
            await self._serve(conn)
        finally:
            self._connection_ended(conn)
        return ws

    async def _serve(self, conn: Connection) -> None:
        """Read the client's payloads until it, or the fake, closes the connection."""
        ws = conn.ws
        while True:
            msg = await ws.receive()
            if msg.type == WSMsgType.CLOSE:
                conn.client_close_code = msg.data
                self.close_codes.append(msg.data)
                await ws.close()
                return
            if msg.type in (WSMsgType.CLOSING, WSMsgType.CLOSED, WSMsgType.ERROR):
                return
            if msg.type != WSMsgType.TEXT:
                await ws.close(code=4002, message=b"Error while decoding payload.")
                return
            payload = json.loads(msg.data)
            op, data = payload.get("op"), payload.get("d")
            self.log.append(("recv", payload))
            if not await self._receive(conn, op, data):
                return

    async def _receive(self, conn: Connection, op: Any, data: Any) -> bool:
        """Act on one payload; False when it closed the connection."""
        session = conn.session
        if op == HEARTBEAT:
            self._heartbeat(conn, data)
            return True
        if op in (IDENTIFY, RESUME):
            if session is not None:
                await conn.ws.close(code=4005, message=b"Already authenticated.")
                return False
            start = self._identify if op == IDENTIFY else self._resume
            conn.session = await start(conn, data)
            return True
        if session is None:
            await conn.ws.close(code=4003, message=b"Not authenticated.")
            return False
        if op == REQUEST_MEMBERS:
            await self._request_members(session, data)
            return True
        if op in (PRESENCE, VOICE):
            return True
        await conn.ws.close(code=4001, message=b"Unknown opcode.")
        return False

    def _heartbeat(self, conn: Connection, data: Any) -> None:
        """A heartbeat: acknowledged soon, unless it answers the fake's own request."""
        session = conn.session
        if session is not None and isinstance(data, int):
            session.acked_seq = max(session.acked_seq, data)
            self.fake.changed()
        if conn.requested_beats:
            # The answer to a sync's request goes unacknowledged. Discord ACKs it,
            # but requests a heartbeat rarely; the fake asks at every sync, and
            # each ACK would change the latency a test has just read.
            conn.requested_beats -= 1
        else:
            self._ack_soon(conn)

    def _connection_ended(self, conn: Connection) -> None:
        conn.closed.set()
        for ack in list(conn.pending_acks):
            ack.cancel()
        session = conn.session
        if session is not None and session.connection is conn:
            session.connection = None
            # 1000/1001 from the client end the session; anything else keeps it resumable.
            if not conn.closed_by_server and conn.client_close_code in (1000, 1001):
                session.invalidated = True
        self.fake.changed()

    async def _identify(self, conn: Connection, data: dict[str, Any]) -> Session | None:
        if data.get("token") != self.fake.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return None
        intents = data.get("intents")
        if not isinstance(intents, int):
            await conn.ws.close(code=4013, message=b"Invalid intent(s).")
            return None
        if intents & PRIVILEGED_INTENTS & ~self.fake.privileged_intents:
            await conn.ws.close(code=4014, message=b"Disallowed intent(s).")
            return None
        fake = self.fake
        try:
            routing = parse_shard(data.get("shard"))
        except InvalidShard:
            await conn.ws.close(code=4010, message=b"Invalid shard.")
            return None
        shard = routing if data.get("shard") is not None else None
        guilds_here = [g for g in fake.guilds.values() if covers(routing, g.id)]
        if len(guilds_here) > fake.max_guilds_per_shard:
            await conn.ws.close(code=4011, message=b"Sharding required.")
            return None
        # Discord lets several sessions share a shard; a disconnected one on the same shard
        # would time out there (no heartbeats), so a fresh IDENTIFY ends it here at once.
        for old in self.sessions.values():
            if old.shard == shard and not old.connected:
                old.invalidated = True
        session = Session(id=secrets.token_hex(16), intents=intents, shard=shard)
        session.connection = conn
        self.sessions[session.id] = session
        self.identifies += 1
        ready: dict[str, Any] = {
            "v": 10,
            "user": fake.bot_user.to_dict() | {"verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds_here],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": fake.gateway_url,
            "application": {"id": str(fake.application_id), "flags": fake.application_flags},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "auth": {},
            "_trace": ['["fakediscord-gateway",{"micros":0}]'],
        }
        if shard is not None:
            ready["shard"] = list(shard)
        # Snapshot the guilds, then open the session to other events before the first await:
        # anything queued later is newer than the snapshot and is sent after it.
        guilds = [fake.guild_create_payload(g, intents) for g in guilds_here]
        session.ready = True
        await session.dispatch("READY", ready)
        for payload in guilds:
            await session.dispatch("GUILD_CREATE", payload)
        fake.changed()
        return session

    async def _resume(self, conn: Connection, data: dict[str, Any]) -> Session | None:
        session = self.sessions.get(str(data.get("session_id")))
        if data.get("token") != self.fake.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return None
        seq = data.get("seq")
        if (
            session is None
            or session.invalidated
            or session.connected
            or not isinstance(seq, int)
            or seq > session.seq
            or (session.buffer and seq < session.buffer[0]["s"] - 1)
        ):
            await conn.send({"op": INVALID_SESSION, "d": False})
            return None
        # Replay before attaching, so events dispatched meanwhile are buffered, then replayed too.
        sent = seq
        while pending := [p for p in session.buffer if p["s"] > sent]:
            for payload in pending:
                await conn.send(payload)
                sent = payload["s"]
        session.connection = conn
        self.resumes += 1
        await session.dispatch("RESUMED", {"_trace": ['["fakediscord-gateway",{"micros":0}]']})
        self.fake.changed()
        return session

    async def _request_members(self, session: Session, data: dict[str, Any]) -> None:
        guild = self.fake.guilds.get(int(data.get("guild_id", 0)))
        if guild is None or not session.intents & GUILD_MEMBERS_INTENT:
            return
        members = [m.to_dict() for m in guild.members.values()]
        chunk = {
            "guild_id": str(guild.id),
            "members": members,
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        await session.dispatch("GUILD_MEMBERS_CHUNK", chunk)
