"""``FakeUnbelievaBoat``: the part of UnbelievaBoat's public API v1 the bridge uses.

Modelled on UnbelievaBoat's published API (https://unbelievaboat.com/api/docs, and the
official client ``unb-api``), as far as the bridge needs it:

- ``GET /v1/guilds/{guild_id}/users/{user_id}``: the member's balance,
  ``{"rank", "user_id", "cash", "bank", "total"}`` (ids and rank as strings, amounts as
  numbers). A member never seen has 0 and 0.
- ``PATCH /v1/guilds/{guild_id}/users/{user_id}`` with ``{"cash", "bank", "reason"}``: adds
  the amounts (either may be missing or negative) and answers the new balance. Nothing
  refuses a balance below zero, and there is no idempotency key: the bridge must not
  repeat a change whose outcome it does not know.
- ``GET /v1/applications/@me/guilds/{guild_id}``: the application's permission in that
  server, ``{"guild_id", "permissions"}`` (a bit field: 1 economy, 2 inventory); 403 when
  the server's owner has not authorized the application.
- The ``Authorization`` header is the application's token (no scheme); an unknown one is 401.
- A rate limit answers 429 with ``{"message", "retry_after"}`` (milliseconds).

Faults a test injects with :meth:`FakeUnbelievaBoat.fail_next`: an error answer (nothing
changed), a change applied and then no answer (the client times out) or a 5xx, and no
answer or a 5xx with nothing changed. Every request is recorded in :attr:`requests`.
"""

from __future__ import annotations

import asyncio
import enum
import json
from collections import deque
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Final

from aiohttp import web

ECONOMY: Final = 1
INVENTORY: Final = 2
_USER_PATH: Final = r"/v1/guilds/{guild_id:\d+}/users/{user_id:\d+}"
_APP_PATH: Final = r"/v1/applications/@me/guilds/{guild_id:\d+}"


class Fault(enum.Enum):
    """What the next change (PATCH) meets instead of an ordinary answer."""

    #: A 400 answer; the balance is unchanged.
    ERROR = "error"
    #: The change is applied, then no answer comes (until the fake closes).
    TIMEOUT_AFTER = "timeout_after"
    #: No answer comes and nothing changes.
    TIMEOUT_BEFORE = "timeout_before"
    #: The change is applied, then a 502 answers (a proxy lost UnbelievaBoat's answer).
    SERVER_ERROR_AFTER = "server_error_after"
    #: A 503 answers and nothing changes.
    SERVER_ERROR_BEFORE = "server_error_before"


@dataclass(frozen=True, slots=True)
class Recorded:
    """One request as the fake received it."""

    method: str
    path: str
    body: dict[str, Any] | None
    authorization: str | None


@dataclass(slots=True)
class _Balance:
    cash: int = 0
    bank: int = 0


@dataclass(slots=True)
class _State:
    tokens: dict[str, dict[int, int]] = field(default_factory=dict)
    balances: dict[tuple[int, int], _Balance] = field(default_factory=dict)
    faults: deque[Fault] = field(default_factory=deque)
    rate_limits: deque[int] = field(default_factory=deque)


class FakeUnbelievaBoat:
    """Use as ``async with FakeUnbelievaBoat() as unb:``; point the client at :attr:`url`."""

    def __init__(self, *, starting_cash: int = 0) -> None:
        #: The cash of a member the fake has not seen yet.
        self.starting_cash = starting_cash
        self._state = _State()
        self.requests: list[Recorded] = []
        self._released = asyncio.Event()
        self._held = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self._port = 0
        app = web.Application(middlewares=[self._record, self._authorize])
        app.router.add_get(_USER_PATH, self._get_balance)
        app.router.add_patch(_USER_PATH, self._patch_balance)
        app.router.add_get(_APP_PATH, self._permission)
        self._app = app

    # -- what a test sets up and reads ------------------------------------------------

    @property
    def url(self) -> str:
        """The base URL to give the client (``UNBELIEVABOAT_API_URL``)."""
        return f"http://127.0.0.1:{self._port}"

    def authorize(self, token: str, guild_id: int, permissions: int = ECONOMY) -> None:
        """The server's owner authorizes the application whose token is ``token``."""
        self._state.tokens.setdefault(token, {})[guild_id] = permissions

    def add_application(self, token: str) -> None:
        """An application that exists but is authorized nowhere yet."""
        self._state.tokens.setdefault(token, {})

    def set_balance(self, guild_id: int, user_id: int, cash: int, bank: int = 0) -> None:
        """Set a member's balance (what UnbelievaBoat's own commands would do)."""
        self._state.balances[(guild_id, user_id)] = _Balance(cash, bank)

    def cash(self, guild_id: int, user_id: int) -> int:
        """A member's cash."""
        return self._balance(guild_id, user_id).cash

    def fail_next(self, fault: Fault) -> None:
        """The next change meets ``fault`` (faults queue up in order)."""
        self._state.faults.append(fault)

    def rate_limit_next(self, retry_after_ms: int) -> None:
        """The next request (of any kind) is answered 429 with this wait."""
        self._state.rate_limits.append(retry_after_ms)

    async def wait_held(self) -> None:
        """Return once a faulted change is being held without an answer (then wait for
        the next one)."""
        await self._held.wait()
        self._held.clear()

    def changes(self) -> list[Recorded]:
        """The PATCH requests received, in order."""
        return [r for r in self.requests if r.method == "PATCH"]

    # -- the server ----------------------------------------------------------------------

    async def __aenter__(self) -> FakeUnbelievaBoat:
        self._runner = web.AppRunner(self._app, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self._port = self._runner.addresses[0][1]
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._released.set()
        if self._runner is not None:
            await self._runner.cleanup()

    def _balance(self, guild_id: int, user_id: int) -> _Balance:
        return self._state.balances.setdefault((guild_id, user_id), _Balance(self.starting_cash))

    @web.middleware
    async def _record(self, request: web.Request, handler: Any) -> web.StreamResponse:
        body = await request.json() if request.can_read_body else None
        auth = request.headers.get("Authorization")
        self.requests.append(Recorded(request.method, request.path, body, auth))
        if self._state.rate_limits:
            wait = self._state.rate_limits.popleft()
            message = {"message": "You are being rate limited.", "retry_after": wait}
            return web.json_response(message, status=429)
        response: web.StreamResponse = await handler(request)
        return response

    @web.middleware
    async def _authorize(self, request: web.Request, handler: Any) -> web.StreamResponse:
        token = request.headers.get("Authorization", "")
        guilds = self._state.tokens.get(token)
        if guilds is None:
            return _error(401, "401: Unauthorized")
        guild_id = int(request.match_info.get("guild_id", "0"))
        if guild_id not in guilds:
            return _error(403, "Missing Permissions")
        if "users" in request.path and not guilds[guild_id] & ECONOMY:
            return _error(403, "Missing Permissions")
        response: web.StreamResponse = await handler(request)
        return response

    async def _get_balance(self, request: web.Request) -> web.Response:
        guild_id, user_id = _ids(request)
        return _balance_answer(user_id, self._balance(guild_id, user_id))

    async def _patch_balance(self, request: web.Request) -> web.Response:
        guild_id, user_id = _ids(request)
        body = await request.json()
        cash, bank = body.get("cash", 0), body.get("bank", 0)
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (cash, bank)):
            return _error(400, "Invalid amount")
        fault = self._state.faults.popleft() if self._state.faults else None
        if fault is Fault.ERROR:
            return _error(400, "Bad Request")
        if fault is Fault.TIMEOUT_BEFORE:
            self._held.set()
            await self._released.wait()
            return _error(503, "Service Unavailable")
        if fault is Fault.SERVER_ERROR_BEFORE:
            return _error(503, "Service Unavailable")
        balance = self._balance(guild_id, user_id)
        balance.cash += cash
        balance.bank += bank
        if fault is Fault.TIMEOUT_AFTER:
            self._held.set()
            await self._released.wait()
        if fault is Fault.SERVER_ERROR_AFTER:
            return _error(502, "Bad Gateway")
        return _balance_answer(user_id, balance)

    async def _permission(self, request: web.Request) -> web.Response:
        guild_id = int(request.match_info["guild_id"])
        token = request.headers["Authorization"]
        permissions = self._state.tokens[token][guild_id]
        return web.json_response({"guild_id": str(guild_id), "permissions": permissions})


def _ids(request: web.Request) -> tuple[int, int]:
    return int(request.match_info["guild_id"]), int(request.match_info["user_id"])


def _balance_answer(user_id: int, balance: _Balance) -> web.Response:
    return web.json_response(
        {
            "rank": "1",
            "user_id": str(user_id),
            "cash": balance.cash,
            "bank": balance.bank,
            "total": balance.cash + balance.bank,
        }
    )


def _error(status: int, message: str) -> web.Response:
    return web.Response(
        status=status, text=json.dumps({"message": message}), content_type="application/json"
    )
