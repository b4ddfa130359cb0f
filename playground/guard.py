"""Who may use the playground's page: the page itself, on its own address, holding this run's token.

The page listens on 127.0.0.1, which any website open in the same browser can
reach too: a ``fetch`` or a form posting to ``/api/command`` plays as any player
(their ids are predictable), a WebSocket to ``/api/live`` reads every player's
private replies, and a name of the attacker's that resolves to 127.0.0.1 (DNS
rebinding) makes the attacker's page same-origin. So every request must:

- name the page's own address in ``Host`` (127.0.0.1 or localhost, on the port
  served): a rebinding name is refused;
- come from the page's own origin when it names one in ``Origin`` (browsers
  send it with every POST and every WebSocket, and a site cannot forge it);
- under ``/api/``, carry this run's random token, in the ``X-Playground-Token``
  header or, for the WebSocket (whose browser API sets no headers), the
  ``token`` query parameter. The page is served with the token inside it; another
  site can neither read the page nor guess the token;
- POST ``application/json`` only, a type no cross-site form can send.

Each refusal is answered with a short reason (``{"error": ...}``) and logged in
one line.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Final

from aiohttp import hdrs, web

log = logging.getLogger(__name__)

TOKEN_HEADER: Final = "X-Playground-Token"
TOKEN_QUERY: Final = "token"
#: The names the page is reached by, besides the address it is served on.
LOCAL_NAMES: Final = ("127.0.0.1", "localhost")
FOREIGN_HOST: Final = "refused: the Host is not this playground's address"
FOREIGN_ORIGIN: Final = "refused: a request from another website"
NO_TOKEN: Final = "refused: no playground token, or an old one (reload the page)"
NOT_JSON: Final = "refused: send JSON (Content-Type: application/json)"


@dataclass
class Guard:
    """This run's token and the ``host:port`` names the page answers to."""

    token: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    #: Empty until :meth:`serve_on` (the port is known once the socket is bound): refuse all.
    hosts: frozenset[str] = frozenset()

    def serve_on(self, host: str, port: int) -> None:
        """The page is served at ``host:port``."""
        self.hosts = frozenset(f"{name}:{port}" for name in (host, *LOCAL_NAMES))

    def refusal(self, request: web.Request) -> tuple[type[web.HTTPClientError], str] | None:
        """Why ``request`` is refused (its status and reason), or None to let it through."""
        if request.headers.get(hdrs.HOST, "").lower() not in self.hosts:
            return web.HTTPForbidden, FOREIGN_HOST
        origin = request.headers.get(hdrs.ORIGIN)
        if origin is not None and origin.lower() not in {f"http://{h}" for h in self.hosts}:
            return web.HTTPForbidden, FOREIGN_ORIGIN
        if request.path.startswith("/api/") and not self._holds_token(request):
            return web.HTTPForbidden, NO_TOKEN
        if request.method == hdrs.METH_POST and request.content_type != "application/json":
            return web.HTTPUnsupportedMediaType, NOT_JSON
        return None

    def _holds_token(self, request: web.Request) -> bool:
        given = request.headers.get(TOKEN_HEADER) or request.query.get(TOKEN_QUERY, "")
        return given.isascii() and secrets.compare_digest(given, self.token)


GUARD_KEY: Final = web.AppKey("guard", Guard)


def refused(
    request: web.Request, status: type[web.HTTPClientError], reason: str
) -> web.HTTPClientError:
    """A refusal to raise: ``{"error": reason}`` with ``status``, logged in one line."""
    log.info("%s %s %s: %s", status.status_code, request.method, request.path, reason)
    return status(text=json.dumps({"error": reason}), content_type="application/json")


@web.middleware
async def guard_requests(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """Refuse what :meth:`Guard.refusal` refuses; pass the rest to the route."""
    refusal = request.app[GUARD_KEY].refusal(request)
    if refusal is not None:
        raise refused(request, *refusal)
    return await handler(request)
