"""Point discord.py at another Discord (the test fake) when the environment says so."""

from __future__ import annotations

from collections.abc import Mapping

import discord.gateway
import discord.http
import yarl

#: Environment variables read by :func:`apply_endpoints`.
API_BASE_VAR = "DISCORD_API_BASE"
GATEWAY_URL_VAR = "DISCORD_GATEWAY_URL"


def api_base() -> str:
    """The REST base URL discord.py uses (discord.com's, or ``DISCORD_API_BASE``'s)."""
    return discord.http.Route.BASE


def apply_endpoints(env: Mapping[str, str]) -> None:
    """Use ``DISCORD_API_BASE`` and ``DISCORD_GATEWAY_URL`` from ``env`` when they are set.

    discord.py builds every REST URL from ``Route.BASE`` (webhook and interaction
    routes included) and a plain ``Client`` opens its websocket at
    ``DiscordWebSocket.DEFAULT_GATEWAY``; an ``AutoShardedClient`` asks
    ``GET /gateway/bot`` instead, which the fake answers with its own URL. Unset
    or empty variables leave discord.com in place.
    """
    api_base = env.get(API_BASE_VAR, "").strip()
    if api_base:
        if not api_base.startswith(("http://", "https://")):
            raise ValueError(f"{API_BASE_VAR} must be an http(s) URL, got {api_base!r}")
        discord.http.Route.BASE = api_base.rstrip("/")
    gateway_url = env.get(GATEWAY_URL_VAR, "").strip()
    if gateway_url:
        if not gateway_url.startswith(("ws://", "wss://")):
            raise ValueError(f"{GATEWAY_URL_VAR} must be a ws(s) URL, got {gateway_url!r}")
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
