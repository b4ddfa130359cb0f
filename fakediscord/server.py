"""``FakeDiscord``: the server, its state, and the API tests drive it with."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import acting, emojis, payloads, rest
from . import messages as _messages  # noqa: F401  (registers the channel routes)
from . import webhooks as _webhooks  # noqa: F401  (registers the interaction routes)
from .clock import ManualClock
from .faults import Faults
from .gateway import PRIVILEGED_INTENTS, Gateway
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    FakeInteraction,
    InteractionRejected,
)
from .modals import submission
from .models import FakeGuild, FakeMember, FakeUser, Place, Snowflakes
from .records import FakeCommand, FakeMessage
from .rest import RecordedRequest
from .shards import MAX_GUILDS_PER_SHARD, shard_for
from .world import World

if TYPE_CHECKING:
    from bot.clock import Clock


class FakeDiscord(World):
    """A strict local Discord (REST v10 + gateway v10) that discord.py logs in to.

    Use as ``async with FakeDiscord() as fake:``; build guilds, channels and
    members with the factories, run a bot against :attr:`env`, then act as users
    with :meth:`slash` and :meth:`click`.
    """

    def __init__(
        self,
        *,
        clock: Clock | None = None,
        token: str | None = None,
        privileged_intents: int = PRIVILEGED_INTENTS,
        recommended_shards: int = 1,
        max_concurrency: int = 1,
        max_guilds_per_shard: int = MAX_GUILDS_PER_SHARD,
    ) -> None:
        if recommended_shards < 1 or max_concurrency < 1 or max_guilds_per_shard < 1:
            raise ValueError("shard counts, concurrency and guild limits start at 1")
        #: A ManualClock unless one is given (the playground passes the real clock).
        self.clock: Clock = clock or ManualClock()
        self.snowflake = Snowflakes(lambda: self.clock.now() * 1000)
        self.token = token or f"fake.{secrets.token_urlsafe(24)}"
        self.privileged_intents = privileged_intents
        #: ``shards`` in ``GET /gateway/bot``: what an AutoShardedClient without shard_count runs.
        self.recommended_shards = recommended_shards
        #: ``session_start_limit.max_concurrency`` in ``GET /gateway/bot``.
        self.max_concurrency = max_concurrency
        #: More guilds than this on one session closes its IDENTIFY with 4011.
        self.max_guilds_per_shard = max_guilds_per_shard
        #: Edits a message older than an hour still takes before 30046 (a small allowance).
        self.old_message_edits = 3
        super().__init__()
        self.commands: dict[int | None, list[FakeCommand]] = {}
        self.sync_count = 0
        self.interactions: dict[int, FakeInteraction] = {}
        #: The application's emojis, by id.
        self.app_emojis: dict[int, emojis.FakeEmoji] = {}
        #: Custom emojis the bot sent that it may not use (Discord shows them as text).
        self.foreign_emojis: list[emojis.ForeignEmoji] = []
        self.interactions_by_token: dict[str, FakeInteraction] = {}
        self.requests: list[RecordedRequest] = []
        self.expected_codes: set[int] = set()
        self.expected_statuses: set[int] = set()
        self.faults = Faults()
        #: Called with ("create" | "update" | "delete", message) for every message, ephemeral
        #: ones too: how a live view (the playground page) follows the channels.
        self.message_listeners: list[Callable[[str, FakeMessage], None]] = []
        self.gateway = Gateway(self)
        self._waiters: list[asyncio.Future[None]] = []
        self._outbox: asyncio.Queue[tuple[str, Any]] | None = None
        self._pump: asyncio.Task[None] | None = None
        self._runner: web.AppRunner | None = None
        self.port = 0

    # -- lifecycle -------------------------------------------------------------------------
    async def start(self) -> FakeDiscord:
        """Listen on 127.0.0.1 on a free port."""
        app = web.Application()
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/emojis/{file}", self._cdn)
        app.router.add_route("*", "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.5)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        # Port 0 asks the OS for a free port; read back which one it chose.
        self.port = self._runner.addresses[0][1]
        self._outbox = asyncio.Queue()
        self._pump = asyncio.create_task(self._pump_events(), name="fakediscord-pump")
        return self

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        return await rest.handle(self, request)

    async def _cdn(self, request: web.Request) -> web.StreamResponse:
        return await emojis.serve_image(self, request)

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT``: the CDN paths (``/emojis/{id}.png``) hang off it."""
        return f"http://127.0.0.1:{self.port}"

    def emoji_url(self, emoji_id: int, extension: str = "png") -> str:
        """Where the fake's CDN serves an application emoji's image."""
        return f"{self.base_url}/emojis/{emoji_id}.{extension}"

    async def close(self) -> None:
        """Stop the server (open websockets are closed with 1001, like a Discord restart)."""
        if self._pump is not None:
            self._pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pump
        for session in self.gateway.sessions.values():
            if session.connection is not None:
                await session.connection.ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def api_base(self) -> str:
        """``http://127.0.0.1:PORT/api/v10`` (``DISCORD_API_BASE``)."""
        return f"{self.base_url}{rest.API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        """``ws://127.0.0.1:PORT/gateway`` (``DISCORD_GATEWAY_URL``)."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    def env(self) -> dict[str, str]:
        """The environment a bot process needs to use this fake."""
        return {
            "DISCORD_TOKEN": self.token,
            "DISCORD_API_BASE": self.api_base,
            "DISCORD_GATEWAY_URL": self.gateway_url,
        }

    # -- waiting and events ---------------------------------------------------------------
    def changed(self) -> None:
        """Wake everything waiting in :meth:`wait_for` to re-check its condition.

        The fake calls it on every request it logs, every gateway event it sends and every
        change of a gateway connection (opened, acknowledged, closed). A test waiting on
        something outside the fake (a held database call in the bot) calls it where that
        thing happens.
        """
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    async def wait_for(self, predicate: Callable[[], bool], max_wait: float = 5.0) -> None:
        """Wait until ``predicate()`` holds, re-checked each time :meth:`changed` is called.

        Raises ``TimeoutError`` when no wake-up within ``max_wait`` real seconds found it
        true, even if it holds by then: a condition that came true without anything calling
        :meth:`changed` would otherwise cost every such wait its whole ``max_wait``.
        """
        try:
            async with asyncio.timeout(max_wait):
                while not predicate():
                    waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
                    self._waiters.append(waiter)
                    await waiter
        except TimeoutError:
            why = ": it holds now, but nothing called fake.changed()" if predicate() else ""
            raise TimeoutError(f"condition not met within {max_wait}s{why}") from None

    def dispatch(self, event: str, data: Any) -> None:
        """Queue a gateway event; events go out in the order they were queued."""
        if self._outbox is not None:
            self._outbox.put_nowait((event, data))

    async def _pump_events(self) -> None:
        assert self._outbox is not None
        while True:
            event, data = await self._outbox.get()
            await self.gateway.dispatch(event, data)
            self._outbox.task_done()

    async def flush(self) -> None:
        """Return once every queued gateway event has been sent."""
        if self._outbox is not None:
            await self._outbox.join()

    async def sync(self, max_wait: float = 5.0) -> None:
        """Return once the connected bot has processed every event sent so far."""
        await self.flush()
        await self.gateway.sync(max_wait)

    async def wait_for_bot(
        self, *, identifies: int = 1, shards: int = 1, max_wait: float = 10.0
    ) -> None:
        """Wait until ``identifies`` IDENTIFYs succeeded in all and the last ``shards`` are live.

        Then wait until every live session has processed what it was sent.
        """

        def connected() -> bool:
            newest = list(self.gateway.sessions.values())[-shards:]
            live = self.gateway.live_sessions()
            return self.gateway.identifies >= identifies and all(s in live for s in newest)

        await self.wait_for(connected, max_wait=max_wait)
        await self.sync(max_wait)

    # -- acting as users ---------------------------------------------------------------------
    async def slash(
        self,
        member: FakeMember | FakeUser,
        command: str,
        channel: Place,
        /,
        *,
        max_wait: float = 5.0,
        wait: bool = True,
        **options: Any,
    ) -> FakeInteraction:
        """Run ``/command`` (``"blackjack start"``, ``"blackjack-admin grant"``) as ``member``
        (a member in a server's channel; a user in a DM or group DM).

        INTERACTION_CREATE goes to the session owning the guild's shard
        (recorded as ``.session`` / ``.shard`` on the result).

        The client offers the command as Discord's does: a server's commands where it added
        the app; a global command by an install that covers the place (the server's, or the
        user's own with ``install_app``) and in a context it lists. Options are checked
        against the synced definition the way the Discord client checks them
        (:class:`InteractionRejected` otherwise); a member, channel or role option takes the
        fake object. Returns the interaction once the bot answered it (``wait=False``: at
        once).
        """
        who, data, authorised = acting.command_data(self, member, command, channel, options)
        return await acting.send(
            self, APPLICATION_COMMAND, who, channel, data, None, authorised, max_wait, wait
        )

    async def autocomplete(
        self,
        member: FakeMember | FakeUser,
        command: str,
        channel: Place,
        option: str,
        text: str,
        /,
        *,
        max_wait: float = 5.0,
        **options: Any,
    ) -> list[dict[str, Any]]:
        """The choices the bot offers while ``member`` types ``text`` into ``option`` of
        ``/command`` (the other ``options`` already filled in, checked as :meth:`slash`)."""
        who, data, authorised = acting.command_data(
            self, member, command, channel, options, (option, text)
        )
        interaction = await acting.send(
            self, AUTOCOMPLETE, who, channel, data, None, authorised, max_wait, True
        )
        if interaction.choices is None:
            raise AssertionError(f"the bot answered autocomplete with {interaction.response_type}")
        return interaction.choices

    async def click(
        self,
        member: FakeMember | FakeUser,
        message: FakeMessage,
        /,
        *,
        label: str | None = None,
        custom_id: str | None = None,
        max_wait: float = 5.0,
        wait: bool = True,
    ) -> FakeInteraction:
        """Press a button on ``message`` as ``member``, found by ``label`` or ``custom_id``.

        The interaction carries the installs that authorised the command behind the message
        (a click on a user-installed app's message is authorised by its installer).
        """
        who, data, authorised = acting.click_data(self, member, message, label, custom_id)
        return await acting.send(
            self, MESSAGE_COMPONENT, who, message.channel, data, message, authorised, max_wait, wait
        )

    async def submit_modal(
        self,
        member: FakeMember | FakeUser,
        opened: FakeInteraction,
        values: Mapping[str, Any],
        /,
        *,
        max_wait: float = 5.0,
        wait: bool = True,
    ) -> FakeInteraction:
        """Submit, as ``member``, the modal the bot answered ``opened`` with: each field's
        value by its label or custom id from ``values``, else the value it was shown with."""
        modal = opened.modal
        if modal is None:
            raise InteractionRejected(f"interaction {opened.id} was not answered with a modal")
        data = submission(modal, values)
        who = acting.actor(self, member, opened.channel)
        authorised = (dict(opened.owners), opened.context)
        return await acting.send(
            self,
            MODAL_SUBMIT,
            who,
            opened.channel,
            data,
            opened.message,
            authorised,
            max_wait,
            wait,
        )

    def shard_of(self, guild: FakeGuild, num_shards: int | None = None) -> int:
        """The shard ``guild`` belongs to with ``num_shards`` (default: the recommended count)."""
        return shard_for(guild.id, num_shards or self.recommended_shards)

    # -- the request log -----------------------------------------------------------------------
    def requests_to(self, route: str) -> list[RecordedRequest]:
        """Logged requests to a route, e.g. ``"POST /channels/{channel_id}/messages"``."""
        return [r for r in self.requests if r.route == route]

    def unknown_routes(self) -> list[RecordedRequest]:
        """Requests to routes Discord does not have."""
        return [r for r in self.requests if r.route is None]

    def expect_errors(self, *codes: int, statuses: tuple[int, ...] = ()) -> None:
        """Declare error codes (e.g. 10062) or statuses this test provokes on purpose."""
        self.expected_codes.update(codes)
        self.expected_statuses.update(statuses)

    def unexpected_errors(self) -> list[RecordedRequest]:
        """4xx replies (and unknown routes) the test did not declare; injected faults excluded."""
        return [
            r
            for r in self.requests
            if (
                r.status >= 400
                and not r.injected
                and r.error_code not in self.expected_codes
                and r.status not in self.expected_statuses
            )
            or r.route is None
        ]

    def assert_clean(self) -> None:
        """Fail if the bot hit an unknown route, got an error the test did not expect, or sent
        a custom emoji it may not use."""
        bad = self.unexpected_errors()
        if bad:
            lines = [f"{r.method} {r.path} -> {r.status} {r.response}" for r in bad]
            raise AssertionError("unexpected Discord errors:\n  " + "\n  ".join(lines))
        if self.foreign_emojis:
            shown = ", ".join(f"{e.markup} in message {e.message_id}" for e in self.foreign_emojis)
            raise AssertionError(f"custom emojis the bot may not use (shown as text): {shown}")

    # -- payloads ---------------------------------------------------------------------------
    def application_payload(self) -> dict[str, Any]:
        """``GET /oauth2/applications/@me``."""
        return payloads.application(self)

    def guild_create_payload(self, guild: FakeGuild, intents: int) -> dict[str, Any]:
        """GUILD_CREATE: the whole guild; members only with the GUILD_MEMBERS intent."""
        return payloads.guild_create(self, guild, intents)


__all__ = ["FakeDiscord", "FakeUser"]
