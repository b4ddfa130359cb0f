"""The playground's page: an aiohttp app on 127.0.0.1 serving the page, its data, live updates.

The page (``static/``: plain HTML, CSS and JavaScript) draws a channel as a
Discord client does from the same message objects the bot sent to the fake.
Each open page follows the messages over a websocket as the player it shows:
another player's ephemeral replies never reach it. Every request and websocket
passes :mod:`playground.guard` first: the page's own address and origin, this
run's token.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, TypeVar

from aiohttp import WSMsgType, hdrs, web

from bot.i18n import NATIVE_NAMES
from fakediscord.models import FakeMember
from fakediscord.records import FakeMessage
from playground.guard import GUARD_KEY, Guard, guard_requests, refused
from playground.running import Playground, display_name

STATIC: Final = Path(__file__).parent / "static"
#: In the page's ``<meta name="playground-token">``: this run's token goes there.
TOKEN_SLOT: Final = "{{token}}"
PAGE: Final = (STATIC / "index.html").read_text(encoding="utf-8")
PAGE_HEADERS: Final = {
    hdrs.CACHE_CONTROL: "no-store",
    hdrs.CONTENT_SECURITY_POLICY: "frame-ancestors 'none'",
    "X-Frame-Options": "DENY",  # the same, for browsers without frame-ancestors
}
T = TypeVar("T")
PLAYGROUND_KEY: Final = web.AppKey("playground", Playground)


def message_json(message: FakeMessage, playground: Playground) -> dict[str, Any]:
    """A message as the page draws it: Discord's message object plus who used which command."""
    data = message.to_dict()
    author = message.author
    data["author_name"] = author.global_name or author.username
    data["ephemeral"] = message.ephemeral
    data["loading"] = message.loading
    data["unix"] = message.timestamp
    meta = message.interaction_metadata
    if meta is not None:
        user_id = int(meta["user"]["id"])
        member = playground.guild.members.get(user_id)
        data["used_by"] = display_name(member) if member else meta["user"]["username"]
        data["used_command"] = meta.get("name")
    return data


def state_json(playground: Playground, viewer: FakeMember) -> dict[str, Any]:
    """The server as ``viewer``'s page needs it: players, channels, their commands, names."""
    fake = playground.fake
    guild = playground.guild
    names = {str(m.id): display_name(m) for m in guild.members.values()}
    return {
        "guild": guild.name,
        "bot": {"id": str(fake.bot_user.id), "name": fake.bot_user.username},
        "players": [
            {"id": str(m.id), "name": display_name(m), "language": m.user.locale}
            for m in playground.players()
        ],
        "languages": [{"code": code, "name": name} for code, name in NATIVE_NAMES.items()],
        "channels": [{"id": str(c.id), "name": c.name} for c in playground.channels()],
        "commands": [entry.as_json() for entry in playground.commands(viewer)],
        "users": names,
        "channel_names": {str(c.id): c.name for c in guild.channels.values()},
        "role_names": {str(r.id): r.name for r in guild.roles},
        "cdn": fake.base_url,  # the CDN paths (/emojis/{id}.png) hang off it
    }


@dataclass(eq=False)
class Viewer:
    """One open page: the player it shows and the events queued for it."""

    member_id: int
    queue: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)


class Hub:
    """Fans the fake's message events out to the open pages, each seeing what its player sees."""

    def __init__(self, playground: Playground) -> None:
        self.playground = playground
        self.viewers: set[Viewer] = set()
        playground.fake.message_listeners.append(self.on_message)

    def on_message(self, kind: str, message: FakeMessage) -> None:
        """A message was created, edited or deleted on the fake."""
        event = {"kind": kind, "message": message_json(message, self.playground)}
        for viewer in self.viewers:
            owner = message.visible_to
            if owner is None or owner.id == viewer.member_id:
                viewer.queue.put_nowait(event)

    def world_changed(self) -> None:
        """Players or channels changed: every page reloads the server's state."""
        for viewer in self.viewers:
            viewer.queue.put_nowait({"kind": "world"})


HUB_KEY: Final = web.AppKey("hub", Hub)


# -- routes ------------------------------------------------------------------------------------


async def index(request: web.Request) -> web.Response:
    """The page, holding this run's token.

    Never cached (the next run has another token), and never shown in another
    site's frame, where the site could lead a player's clicks.
    """
    page = PAGE.replace(TOKEN_SLOT, request.app[GUARD_KEY].token)
    return web.Response(text=page, content_type="text/html", headers=PAGE_HEADERS)


def _field(source: Mapping[str, Any], name: str, parse: Callable[[Any], T]) -> T:
    """``source[name]`` parsed, or 400 naming the field (the page sends ids as strings)."""
    try:
        return parse(source[name])
    except (KeyError, ValueError, TypeError, LookupError) as error:
        raise web.HTTPBadRequest(text=f"bad {name}: {error}") from None


async def get_state(request: web.Request) -> web.Response:
    """Players, channels, and the synced commands the viewer (default: the first player) sees."""
    playground = request.app[PLAYGROUND_KEY]
    viewer = playground.players()[0]
    if "viewer" in request.query:
        viewer = _field(request.query, "viewer", lambda v: playground.member(int(v)))
    return web.json_response(state_json(playground, viewer))


async def get_messages(request: web.Request) -> web.Response:
    """A channel as one player sees it, oldest first."""
    playground = request.app[PLAYGROUND_KEY]
    channel = _field(request.query, "channel", lambda v: playground.channel(int(v)))
    viewer = _field(request.query, "viewer", lambda v: playground.member(int(v)))
    shown = playground.messages(channel, viewer)
    return web.json_response([message_json(m, playground) for m in shown])


async def _body(request: web.Request) -> dict[str, Any]:
    """The request's JSON object, or a 400 saying what is wrong with it (logged in one line)."""
    try:
        raw = await request.read()
    except ConnectionResetError:  # the client went away mid-body: nobody reads the answer
        left = "the client left before its body arrived"
        raise refused(request, web.HTTPBadRequest, left) from None
    try:
        body = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise refused(request, web.HTTPBadRequest, "the body is not UTF-8") from None
    except json.JSONDecodeError:
        raise refused(request, web.HTTPBadRequest, "expected a JSON body") from None
    except RecursionError:  # the json module's answer to deep nesting ([[[[...]]]])
        raise refused(request, web.HTTPBadRequest, "the JSON is nested too deeply") from None
    if not isinstance(body, dict):
        raise refused(request, web.HTTPBadRequest, "expected a JSON object")
    return body


async def post_command(request: web.Request) -> web.Response:
    """``{viewer, channel, line}``: run a typed slash command as that player."""
    playground = request.app[PLAYGROUND_KEY]
    body = await _body(request)
    member = _field(body, "viewer", lambda v: playground.member(int(v)))
    channel = _field(body, "channel", lambda v: playground.channel(int(v)))
    outcome = await playground.run_command(member, channel, _field(body, "line", str))
    return web.json_response(outcome.as_json())


async def post_press(request: web.Request) -> web.Response:
    """``{viewer, message, custom_id}``: press a button as that player."""
    playground = request.app[PLAYGROUND_KEY]
    body = await _body(request)
    member = _field(body, "viewer", lambda v: playground.member(int(v)))
    message_id = _field(body, "message", int)
    outcome = await playground.press(member, message_id, _field(body, "custom_id", str))
    return web.json_response(outcome.as_json())


async def post_modal(request: web.Request) -> web.Response:
    """``{viewer, interaction, values}``: submit the modal shown to that player (values by
    custom id: text, a chosen value, a list of them, or a checkbox's true or false)."""
    playground = request.app[PLAYGROUND_KEY]
    body = await _body(request)
    member = _field(body, "viewer", lambda v: playground.member(int(v)))
    interaction = _field(body, "interaction", int)
    values = _field(body, "values", _values)
    outcome = await playground.submit(member, interaction, values)
    return web.json_response(outcome.as_json())


def _values(raw: Any) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise ValueError("expected an object of values by custom id")
    return raw


async def post_player(request: web.Request) -> web.Response:
    """``{name}``: a new player joins the server."""
    return await _add(request, lambda p, name: p.add_player(name).id)


async def post_channel(request: web.Request) -> web.Response:
    """``{name}``: a new text channel."""
    return await _add(request, lambda p, name: p.add_channel(name).id)


async def post_language(request: web.Request) -> web.Response:
    """``{viewer, language}``: the language of that player's Discord client."""
    playground = request.app[PLAYGROUND_KEY]
    body = await _body(request)
    member = _field(body, "viewer", lambda v: playground.member(int(v)))
    try:
        playground.set_language(member, _field(body, "language", str))
    except ValueError as error:
        return web.json_response({"error": str(error)}, status=400)
    request.app[HUB_KEY].world_changed()
    return web.json_response({"language": member.user.locale})


async def _add(request: web.Request, make: Callable[[Playground, str], int]) -> web.Response:
    playground = request.app[PLAYGROUND_KEY]
    body = await _body(request)
    try:
        new_id = make(playground, str(body.get("name", "")))
    except ValueError as error:
        return web.json_response({"error": str(error)}, status=400)
    request.app[HUB_KEY].world_changed()
    return web.json_response({"id": str(new_id)})


async def live(request: web.Request) -> web.WebSocketResponse:
    """A websocket of message events for one player; ``{"viewer": id}`` switches player."""
    hub: Hub = request.app[HUB_KEY]
    viewer = Viewer(_field(request.query, "viewer", int) if "viewer" in request.query else 0)
    ws = web.WebSocketResponse(heartbeat=20)
    await ws.prepare(request)
    hub.viewers.add(viewer)
    sender = asyncio.create_task(_send_events(ws, viewer))
    try:
        async for frame in ws:
            if frame.type != WSMsgType.TEXT:
                continue
            with contextlib.suppress(ValueError, KeyError, TypeError):
                viewer.member_id = int(json.loads(frame.data)["viewer"])
    finally:
        hub.viewers.discard(viewer)
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sender
    return ws


async def _send_events(ws: web.WebSocketResponse, viewer: Viewer) -> None:
    while True:
        event = await viewer.queue.get()
        await ws.send_json(event)


def build_app(playground: Playground, guard: Guard) -> web.Application:
    """The page's routes over a started playground, each request through ``guard``."""
    app = web.Application(middlewares=[guard_requests])
    app[GUARD_KEY] = guard
    app[PLAYGROUND_KEY] = playground
    app[HUB_KEY] = Hub(playground)
    app.router.add_get("/", index)
    app.router.add_static("/static", STATIC)
    app.router.add_get("/api/state", get_state)
    app.router.add_get("/api/messages", get_messages)
    app.router.add_post("/api/command", post_command)
    app.router.add_post("/api/press", post_press)
    app.router.add_post("/api/modal", post_modal)
    app.router.add_post("/api/players", post_player)
    app.router.add_post("/api/channels", post_channel)
    app.router.add_post("/api/language", post_language)
    app.router.add_get("/api/live", live)
    return app


@contextlib.asynccontextmanager
async def serving(
    playground: Playground, *, host: str = "127.0.0.1", port: int = 8765
) -> AsyncIterator[str]:
    """Start the page, then the playground; yield the page's URL; stop both afterwards.

    The page's port is taken first: a busy one is refused before the bot connects.
    Nothing reaches the page before its URL is printed."""
    guard = Guard()
    runner = web.AppRunner(build_app(playground, guard), access_log=None, shutdown_timeout=0.5)
    try:
        await runner.setup()
        site = web.TCPSite(runner, host, port)
        await site.start()
        bound = runner.addresses[0][1]  # port 0 asks the OS for a free one
        guard.serve_on(host, bound)
        await playground.start()
        yield f"http://{host}:{bound}"
    finally:
        await runner.cleanup()
        await playground.stop()
