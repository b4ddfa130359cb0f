"""A small client for UnbelievaBoat's public API v1, on aiohttp.

The ``unbelievaboat`` package (2.2.0) was tried first and left out: it pins
``aiohttp<3.13`` and ``typing_extensions<4.15`` (the project runs 3.14 and 4.16), it
reads ``retry_after`` with the system clock, and on a 429 it retries and then raises
anyway; a timeout comes out as a raw aiohttp error. What the bridge needs is three
calls with three kinds of failure a caller can tell apart:

- :class:`Refused`: UnbelievaBoat answered with an error: nothing changed.
- :class:`Unreachable`: the request never left (no connection): nothing changed.
- :class:`UnknownOutcome`: it was sent and no answer came (a timeout, a dropped
  connection, a 5xx): a change may or may not have been applied. Never repeat it blindly.

A 429 is not a failure: the client waits the ``retry_after`` it was given, on the bot's
clock, and sends again (a request answered 429 was not applied). The token is a
:class:`Token`, whose ``repr`` and ``str`` hide it; it is sent only as the
``Authorization`` header and never logged or put in an error.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Final

import aiohttp

from bot.clock import Clock

log = logging.getLogger(__name__)

#: How many 429s in a row a request waits out before it gives up (as Refused).
MAX_RATE_LIMITED: Final = 5
#: The permission bit that lets an application read and change balances.
ECONOMY: Final = 1


class Token:
    """An application's API token: ``reveal()`` is the one way to read it."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        """The token itself, for the Authorization header or the store."""
        return self._value

    def __repr__(self) -> str:
        return "Token(<hidden>)"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Token) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)


class UnbError(Exception):
    """A call to UnbelievaBoat that did not give an answer to use."""


class Refused(UnbError):
    """UnbelievaBoat answered with an error (``status``): nothing changed."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(f"UnbelievaBoat refused ({status}): {message}")
        self.status = status
        self.message = message


class Unreachable(UnbError):
    """No connection could be made: the request was not sent, nothing changed."""


class UnknownOutcome(UnbError):
    """The request was sent and no usable answer came: it may or may not have been applied."""


@dataclass(frozen=True, slots=True)
class Balance:
    """A member's UnbelievaBoat balance."""

    cash: int
    bank: int


class UnbClient:
    """UnbelievaBoat's API at ``base_url``; ``timeout`` seconds for each answer."""

    def __init__(self, base_url: str, clock: Clock, *, timeout: float = 10.0) -> None:
        self._base = base_url.rstrip("/") + "/v1"
        self._clock = clock
        self._timeout = aiohttp.ClientTimeout(total=timeout)
        self._session: aiohttp.ClientSession | None = None

    def __repr__(self) -> str:
        return f"UnbClient({self._base!r})"

    @property
    def clock(self) -> Clock:
        """The clock a 429's wait is slept on."""
        return self._clock

    async def close(self) -> None:
        """Close the connections."""
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def balance(self, token: Token, guild_id: int, user_id: int) -> Balance:
        """A member's balance."""
        answer = await self._call("GET", f"/guilds/{guild_id}/users/{user_id}", token)
        return _balance(answer)

    async def change_cash(
        self, token: Token, guild_id: int, user_id: int, cash: int, reason: str
    ) -> Balance:
        """Add ``cash`` (negative: take it) to a member's cash; the balance after."""
        body = {"cash": cash, "reason": reason}
        answer = await self._call("PATCH", f"/guilds/{guild_id}/users/{user_id}", token, body)
        return _balance(answer)

    async def permissions(self, token: Token, guild_id: int) -> int:
        """The application's permission bits in the server (Refused 403: not authorized)."""
        answer = await self._call("GET", f"/applications/@me/guilds/{guild_id}", token)
        return int(answer["permissions"])

    async def _call(
        self, method: str, path: str, token: Token, body: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        for _ in range(MAX_RATE_LIMITED):
            status, answer = await self._send(method, path, token, body)
            if status != 429:
                break
            wait = float(answer.get("retry_after", 1000)) / 1000
            log.info("UnbelievaBoat rate limit on %s %s: waiting %.3f s", method, path, wait)
            await self._clock.sleep(wait)
        if 200 <= status < 300:
            return answer
        if status >= 500:
            raise UnknownOutcome(f"UnbelievaBoat answered {status} to {method} {path}")
        raise Refused(status, str(answer.get("message", "")))

    async def _send(
        self, method: str, path: str, token: Token, body: dict[str, Any] | None
    ) -> tuple[int, dict[str, Any]]:
        if self._session is None:
            self._session = aiohttp.ClientSession(timeout=self._timeout)
        headers = {"Authorization": token.reveal()}
        try:
            async with self._session.request(
                method, self._base + path, json=body, headers=headers
            ) as response:
                log.debug("UnbelievaBoat %s %s: %d", method, path, response.status)
                try:
                    answer = await response.json(content_type=None)
                except ValueError:
                    answer = {}
                return response.status, answer if isinstance(answer, dict) else {}
        except aiohttp.ClientConnectorError as error:
            raise Unreachable(f"UnbelievaBoat unreachable: {error.os_error}") from None
        except (TimeoutError, aiohttp.ClientError) as error:
            kind = type(error).__name__
            raise UnknownOutcome(
                f"no answer from UnbelievaBoat to {method} {path}: {kind}"
            ) from None


def _balance(answer: dict[str, Any]) -> Balance:
    try:
        return Balance(int(answer["cash"]), int(answer["bank"]))
    except (KeyError, TypeError, ValueError):
        raise UnknownOutcome("UnbelievaBoat's answer had no balance") from None
