"""Switchable rate limits (429 as Discord sends them) and injected server errors."""

from __future__ import annotations

import asyncio
import math
import random
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

#: Headers Discord's edge puts on every reply; discord.py treats a 429 without ``Via`` as a ban.
VIA = "1.1 google"


@dataclass
class RateLimitRule:
    """The next ``times`` requests to a route answer 429."""

    remaining_hits: int
    retry_after: float
    is_global: bool
    scope: str


@dataclass
class Hold:
    """Requests to a route wait here until the test calls :meth:`release`."""

    route: str
    remaining: int
    #: How many requests have arrived and are (or were) held.
    arrived: int = 0
    _open: asyncio.Event = field(default_factory=asyncio.Event)

    def release(self) -> None:
        """Let every held request (and any later one) through."""
        self._open.set()


@dataclass
class Reply429:
    """A 429 reply: headers and body."""

    headers: dict[str, str]
    body: dict[str, Any]


@dataclass
class SeededShare:
    """A seeded random ``share`` (0..1) of the requests to ``routes`` (None: to every route)."""

    share: float = 0.0
    routes: set[str] | None = None
    draws: random.Random = field(default_factory=lambda: random.Random(0))

    @classmethod
    def of(cls, share: float, routes: set[str] | None, seed: int) -> SeededShare:
        """A share checked to lie in 0..1, drawing from a generator seeded with ``seed``."""
        if not 0.0 <= share <= 1.0:
            raise ValueError("share must be between 0 and 1")
        return cls(share, routes, random.Random(seed))

    def hits(self, route: str) -> bool:
        """Whether this request to ``route`` is one of the share (a draw only when it could be)."""
        if self.share <= 0.0:
            return False
        if self.routes is not None and route not in self.routes:
            return False
        return self.draws.random() < self.share


def bucket_hash(route: str) -> str:
    """A stable bucket id per route, as ``X-RateLimit-Bucket``."""
    return f"{zlib.crc32(route.encode()):08x}"


class Faults:
    """Per-route 429s and a seeded share of 500s; both off by default."""

    def __init__(self) -> None:
        self.rate_limits: dict[str, RateLimitRule] = {}
        self._errors = SeededShare()
        self._error_status = 500
        self._fail_next: dict[str, list[int]] = {}
        self._fail_after: dict[str, list[int]] = {}
        self._holds: dict[str, Hold] = {}
        self._limits = SeededShare()
        self._limit_retry_after = 0.05

    def hold(self, route: str, *, times: int = 1) -> Hold:
        """Hold the next ``times`` requests to ``route`` until ``release()``: a slow Discord.

        A held request is already in the request log (``status`` 0), so a test
        can wait for it with ``fake.wait_for`` and act while the bot waits.
        """
        held = Hold(route, times)
        self._holds[route] = held
        return held

    async def pass_hold(self, route: str, arrived: Callable[[], None]) -> None:
        """Wait here if ``route`` is held (``arrived`` wakes the test's waiters)."""
        held = self._holds.get(route)
        if held is None or held.remaining <= 0:
            return
        held.remaining -= 1
        held.arrived += 1
        arrived()
        await held._open.wait()

    def inject_rate_limits(
        self,
        share: float,
        *,
        routes: set[str] | None = None,
        seed: int = 0,
        retry_after: float = 0.05,
    ) -> None:
        """Answer a seeded random ``share`` (0..1) of requests with a 429 (route scope)."""
        self._limits = SeededShare.of(share, routes, seed)
        self._limit_retry_after = retry_after

    def fail_next(self, route: str, *, times: int = 1, status: int = 500) -> None:
        """Answer the next ``times`` requests to ``route`` with ``status`` (500, 502, 504...)."""
        self._fail_next[route] = [status] * times

    def fail_after(self, route: str, *, times: int = 1, status: int = 500) -> None:
        """Do the next ``times`` requests to ``route``, then answer ``status`` as if they failed.

        Discord sometimes does this (a 5xx from its edge after the work was done):
        the bot's retry then meets the result of the first try (40060, a duplicate...).
        """
        self._fail_after[route] = [status] * times

    def take_error_after(self, route: str) -> int | None:
        """The status to answer after doing this request, if one is due."""
        queued = self._fail_after.get(route)
        return queued.pop(0) if queued else None

    def rate_limit(
        self,
        route: str,
        *,
        times: int = 1,
        retry_after: float = 0.05,
        is_global: bool = False,
        scope: str = "user",
    ) -> None:
        """Answer the next ``times`` requests to ``route`` with 429.

        ``route`` is ``"METHOD /template"`` as in the request log, e.g.
        ``"POST /channels/{channel_id}/messages"``; ``retry_after`` is real seconds
        because discord.py sleeps on the real clock before retrying.
        """
        self.rate_limits[route] = RateLimitRule(times, retry_after, is_global, scope)

    def inject_errors(
        self,
        share: float,
        *,
        routes: set[str] | None = None,
        seed: int = 0,
        status: int = 500,
    ) -> None:
        """Answer a seeded random ``share`` (0..1) of requests with ``status`` (500/502/504)."""
        self._errors = SeededShare.of(share, routes, seed)
        self._error_status = status

    def clear(self) -> None:
        """Switch every fault off."""
        self.rate_limits.clear()
        self._fail_next.clear()
        self._fail_after.clear()
        self._errors.share = 0.0
        self._limits.share = 0.0
        for held in self._holds.values():
            held.release()
        self._holds.clear()

    def take_429(self, route: str, now: float) -> Reply429 | None:
        """The 429 for this request, if one is due."""
        rule = self.rate_limits.get(route)
        if rule is None or rule.remaining_hits <= 0:
            rule = self._shared_429(route)
            if rule is None:
                return None
        rule.remaining_hits -= 1
        headers = {
            "Retry-After": str(max(1, math.ceil(rule.retry_after))),
            "X-RateLimit-Scope": "global" if rule.is_global else rule.scope,
            "Via": VIA,
        }
        if rule.is_global:
            headers["X-RateLimit-Global"] = "true"
        else:
            headers.update(
                {
                    "X-RateLimit-Limit": "5",
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset": f"{now + rule.retry_after:.3f}",
                    "X-RateLimit-Reset-After": f"{rule.retry_after:.3f}",
                    "X-RateLimit-Bucket": bucket_hash(route),
                }
            )
        body = {
            "message": "You are being rate limited.",
            "retry_after": rule.retry_after,
            "global": rule.is_global,
        }
        return Reply429(headers, body)

    def _shared_429(self, route: str) -> RateLimitRule | None:
        if not self._limits.hits(route):
            return None
        return RateLimitRule(1, self._limit_retry_after, False, "user")

    def take_error(self, route: str) -> int | None:
        """The injected status for this request, if one is due."""
        queued = self._fail_next.get(route)
        if queued:
            return queued.pop(0)
        return self._error_status if self._errors.hits(route) else None


def ok_headers(route: str, now: float) -> dict[str, str]:
    """Rate-limit headers on a successful reply: a bucket that is never close to empty."""
    return {
        "X-RateLimit-Limit": "5",
        "X-RateLimit-Remaining": "4",
        "X-RateLimit-Reset": f"{now + 1:.3f}",
        "X-RateLimit-Reset-After": "1.000",
        "X-RateLimit-Bucket": bucket_hash(route),
        "Via": VIA,
    }
