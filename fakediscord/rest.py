"""REST v10: the router, the request log, and the application/gateway/command routes."""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import errors
from .command_limits import validate_commands
from .errors import DiscordError
from .faults import VIA, ok_headers
from .records import FakeCommand

if TYPE_CHECKING:
    from .server import FakeDiscord

API_PREFIX = "/api/v10"


@dataclass
class Call:
    """One REST request, parsed."""

    method: str
    path: str
    route: str
    params: dict[str, str]
    query: Mapping[str, str]
    body: Any
    authorization: str | None


@dataclass
class Reply:
    """A handler's answer; ``body=None`` means 204 No Content."""

    body: Any = None
    status: int = 200


@dataclass
class RecordedRequest:
    """One entry of the request log."""

    method: str
    path: str
    #: ``"METHOD /template"``, or ``None`` for an unknown route.
    route: str | None
    query: dict[str, str]
    body: Any
    status: int
    error_code: int | None
    at: float
    injected: bool = False
    response: Any = field(default=None, repr=False)
    #: The request's User-Agent header ("" without one).
    user_agent: str = ""

    @property
    def ok(self) -> bool:
        """2xx."""
        return 200 <= self.status < 300


Handler = Callable[["FakeDiscord", Call], Awaitable[Reply]]
_ROUTES: list[tuple[str, tuple[str, ...], Handler, bool]] = []


def route(method: str, template: str, *, auth: bool = True) -> Callable[[Handler], Handler]:
    """Register a handler for ``METHOD /template`` (``auth``: needs ``Authorization: Bot``)."""

    def register(handler: Handler) -> Handler:
        _ROUTES.append((method, tuple(template.strip("/").split("/")), handler, auth))
        return handler

    return register


def match(method: str, path: str) -> tuple[str, dict[str, str], Handler, bool] | None:
    """The first registered route matching ``path`` (literal segments win by order)."""
    segments = tuple(path.strip("/").split("/"))
    for r_method, template, handler, auth in _ROUTES:
        if r_method != method or len(template) != len(segments):
            continue
        params: dict[str, str] = {}
        for want, got in zip(template, segments, strict=True):
            if want.startswith("{"):
                params[want[1:-1]] = got
            elif want != got:
                break
        else:
            return f"{method} /{'/'.join(template)}", params, handler, auth
    return None


def snowflake(value: str, name: str) -> int:
    """Parse a path snowflake, or 50035 as Discord does for ``abc``."""
    if value.isdigit():
        return int(value)
    raise errors.invalid_form_body(
        {
            name: {
                "_errors": [
                    {"code": "NUMBER_TYPE_COERCE", "message": f'Value "{value}" is not snowflake.'}
                ]
            }
        }
    )


def json_response(status: int, body: Any, headers: dict[str, str]) -> web.Response:
    """JSON with ``Content-Type: application/json`` exactly (discord.py compares it verbatim)."""
    return web.Response(
        status=status,
        body=json.dumps(body).encode(),
        headers={**headers, "Content-Type": "application/json"},
    )


async def _parse_body(request: web.Request) -> Any:
    if not request.can_read_body:
        return None
    ctype = request.content_type
    if ctype == "multipart/form-data":
        form = await request.post()
        raw = form.get("payload_json")
        return json.loads(str(raw)) if raw is not None else {}
    text = await request.text()
    if not text:
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise DiscordError(400, 50109, "The request body contains invalid JSON.") from None


async def handle(fake: FakeDiscord, request: web.Request) -> web.StreamResponse:
    """Entry point for every REST request: match, check auth and faults, run, log."""
    now = fake.clock.now()
    path = request.path
    method = request.method
    query = dict(request.query)
    found = match(method, path[len(API_PREFIX) :]) if path.startswith(API_PREFIX + "/") else None
    record = RecordedRequest(method, path, found[0] if found else None, query, None, 0, None, now)
    record.user_agent = request.headers.get("User-Agent", "")
    fake.requests.append(record)
    try:
        record.body = await _parse_body(request)
        if found is None:
            raise errors.route_not_found()
        route_key, params, handler, auth = found
        await fake.faults.pass_hold(route_key, fake.changed)
        reply429 = fake.faults.take_429(route_key, time.time())
        if reply429 is not None:
            record.status, record.injected = 429, True
            fake.changed()  # a test may be waiting to see the 429 in the request log
            return json_response(429, reply429.body, reply429.headers)
        injected = fake.faults.take_error(route_key)
        if injected is not None:
            record.injected = True
            raise DiscordError(injected, 0, f"{injected}: Internal Server Error")
        authorization = request.headers.get("Authorization")
        if auth and authorization != f"Bot {fake.token}":
            raise errors.unauthorized()
        call = Call(method, path, route_key, params, query, record.body, authorization)
        reply = await handler(fake, call)
    except DiscordError as exc:
        record.status, record.error_code, record.response = exc.status, exc.code, exc.body()
        fake.changed()
        edge = {"Via": VIA} if exc.via else {}
        return json_response(exc.status, exc.body(), {**edge, **exc.headers})
    except Exception as exc:  # a bug in the fake: fail the test fast, never a retried 5xx
        body = {"code": 0, "message": f"fakediscord internal error: {exc!r}"}
        record.status, record.error_code, record.response = 400, 0, body
        fake.changed()
        return json_response(400, body, {"Via": VIA})
    after = fake.faults.take_error_after(route_key)
    if after is not None:  # done, but the bot is told it failed
        body = {"message": f"{after}: Internal Server Error", "code": 0}
        record.status, record.injected, record.response = after, True, body
        fake.changed()
        return json_response(after, body, {"Via": VIA})
    record.status, record.response = (204 if reply.body is None else reply.status), reply.body
    fake.changed()
    headers = ok_headers(record.route or "", time.time())
    if reply.body is None:
        return web.Response(status=204, headers=headers)
    return json_response(reply.status, reply.body, headers)


# -- users, application, gateway -------------------------------------------------------------


@route("GET", "/users/@me")
async def get_me(fake: FakeDiscord, call: Call) -> Reply:
    """The bot user."""
    return Reply(
        fake.bot_user.to_dict() | {"verified": True, "mfa_enabled": False, "locale": "en-US"}
    )


@route("GET", "/oauth2/applications/@me")
async def get_application(fake: FakeDiscord, call: Call) -> Reply:
    """The bot's application."""
    return Reply(fake.application_payload())


@route("GET", "/gateway", auth=False)
async def get_gateway(fake: FakeDiscord, call: Call) -> Reply:
    """Where to connect."""
    return Reply({"url": fake.gateway_url})


@route("GET", "/gateway/bot")
async def get_gateway_bot(fake: FakeDiscord, call: Call) -> Reply:
    """Where to connect, the shard count and the session start limit."""
    return Reply(
        {
            "url": fake.gateway_url,
            "shards": fake.recommended_shards,
            "session_start_limit": {
                "total": 1000,
                "remaining": max(0, 1000 - fake.gateway.identifies),
                "reset_after": 14_400_000,
                "max_concurrency": fake.max_concurrency,
            },
        }
    )


# -- application commands --------------------------------------------------------------------


def _scope(fake: FakeDiscord, call: Call) -> int | None:
    if snowflake(call.params["application_id"], "application_id") != fake.application_id:
        raise errors.missing_access()
    if "guild_id" not in call.params:
        return None
    guild_id = snowflake(call.params["guild_id"], "guild_id")
    if guild_id not in fake.guilds:
        raise errors.missing_access()
    return guild_id


def _command(fake: FakeDiscord, scope: int | None, call: Call) -> FakeCommand:
    command_id = snowflake(call.params["command_id"], "command_id")
    for command in fake.commands.get(scope, []):
        if command.id == command_id:
            return command
    raise errors.unknown_command()


def _upsert(fake: FakeDiscord, scope: int | None, data: dict[str, Any]) -> FakeCommand:
    commands = fake.commands.setdefault(scope, [])
    for command in commands:
        if command.name == data["name"] and command.type == data.get("type", 1):
            if command.data != data:
                command.data, command.version = data, command.version + 1
            return command
    command = FakeCommand(fake.snowflake(), fake.application_id, data, scope)
    commands.append(command)
    return command


@route("GET", "/applications/{application_id}/commands")
@route("GET", "/applications/{application_id}/guilds/{guild_id}/commands")
async def list_commands(fake: FakeDiscord, call: Call) -> Reply:
    """The synced commands of one scope."""
    scope = _scope(fake, call)
    return Reply([c.to_dict() for c in fake.commands.get(scope, [])])


@route("PUT", "/applications/{application_id}/commands")
@route("PUT", "/applications/{application_id}/guilds/{guild_id}/commands")
async def bulk_overwrite_commands(fake: FakeDiscord, call: Call) -> Reply:
    """Replace a scope's commands (what ``CommandTree.sync`` does); ids survive by name."""
    scope = _scope(fake, call)
    payload = validate_commands(call.body, fake.installs)
    kept = [_upsert(fake, scope, dict(data)) for data in payload]
    fake.commands[scope] = kept
    fake.sync_count += 1
    return Reply([c.to_dict() for c in kept])


@route("POST", "/applications/{application_id}/commands")
@route("POST", "/applications/{application_id}/guilds/{guild_id}/commands")
async def create_command(fake: FakeDiscord, call: Call) -> Reply:
    """Create or update one command."""
    scope = _scope(fake, call)
    (data,) = validate_commands([call.body], fake.installs)
    existed = any(c.name == data["name"] for c in fake.commands.get(scope, []))
    command = _upsert(fake, scope, dict(data))
    return Reply(command.to_dict(), status=200 if existed else 201)


@route("GET", "/applications/{application_id}/commands/{command_id}")
@route("GET", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}")
async def get_command(fake: FakeDiscord, call: Call) -> Reply:
    """One command."""
    return Reply(_command(fake, _scope(fake, call), call).to_dict())


@route("DELETE", "/applications/{application_id}/commands/{command_id}")
@route("DELETE", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}")
async def delete_command(fake: FakeDiscord, call: Call) -> Reply:
    """Delete one command."""
    scope = _scope(fake, call)
    command = _command(fake, scope, call)
    fake.commands[scope].remove(command)
    return Reply(None)
