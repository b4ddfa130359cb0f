"""Running a bot against the fake: in the test's own event loop, or as a subprocess."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import tempfile
from collections.abc import AsyncIterator, Coroutine, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import discord
import discord.gateway
import discord.http

from bot.endpoints import apply_endpoints

from .gateway_session import Session
from .server import FakeDiscord

ClientT = TypeVar("ClientT", bound=discord.Client)
#: The checkout holding fakediscord/ (and tests/): the bot process runs from here.
REPO_ROOT = Path(__file__).resolve().parents[1]


async def _first(waiting: Coroutine[Any, Any, None], task: asyncio.Task[Any], what: str) -> None:
    """Run ``waiting``; fail at once (with the reason) if ``task`` ends first."""
    waiter = asyncio.ensure_future(waiting)
    done, _ = await asyncio.wait({waiter, task}, return_when=asyncio.FIRST_COMPLETED)
    if waiter in done:
        waiter.result()
        return
    waiter.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await waiter
    exc = task.exception()
    raise AssertionError(f"{what} ended before it connected: {exc!r}") from exc


@contextlib.contextmanager
def endpoints_applied(fake: FakeDiscord) -> Iterator[None]:
    """Point discord.py (this process) at ``fake``, and back afterwards."""
    saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    apply_endpoints(fake.env())
    try:
        yield
    finally:
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved


def expected_shards(fake: FakeDiscord, bot: discord.Client) -> int:
    """How many sessions ``bot`` opens: its shard_ids, its shard_count, or the fake's advice."""
    if not isinstance(bot, discord.AutoShardedClient):
        return 1
    if bot.shard_ids is not None:
        return len(bot.shard_ids)
    return bot.shard_count or fake.recommended_shards


@contextlib.asynccontextmanager
async def running_bot(
    fake: FakeDiscord, bot: ClientT, *, max_wait: float = 10.0
) -> AsyncIterator[ClientT]:
    """Start ``bot`` in this event loop against ``fake``; yield once it can take interactions.

    "Ready" here is deterministic: the bot has identified, received every
    GUILD_CREATE and processed them (see :meth:`FakeDiscord.sync`). discord.py's
    own ``on_ready`` fires ``guild_ready_timeout`` (default 2 s) later; await
    ``bot.wait_until_ready()`` only if the test needs that event. An
    ``AutoShardedClient`` is ready once every shard it launches has identified.
    """
    shards = expected_shards(fake, bot)
    identifies = fake.gateway.identifies + shards
    with endpoints_applied(fake):
        task = asyncio.create_task(bot.start(fake.token), name="bot-under-test")
        try:
            await _first(
                fake.wait_for_bot(identifies=identifies, shards=shards, max_wait=max_wait),
                task,
                "the bot",
            )
            yield bot
        finally:
            await bot.close()
            with contextlib.suppress(asyncio.CancelledError):
                await task


class BotProcess:
    """A bot in its own process, configured only by environment variables.

    ``argv`` is the command (default: the demo bot); the environment gets
    ``DISCORD_TOKEN``, ``DISCORD_API_BASE`` and ``DISCORD_GATEWAY_URL`` from the
    fake, plus ``env``. Output goes to a log file shown when something fails.
    ``shards`` is how many gateway sessions the process opens (e.g. 2 for
    ``SHARD_COUNT=2`` without ``SHARD_IDS``); start processes one after another
    so :attr:`sessions` knows which sessions are this process's.
    """

    def __init__(
        self,
        fake: FakeDiscord,
        argv: Sequence[str] = (sys.executable, "-m", "fakediscord.demo_bot"),
        *,
        env: Mapping[str, str] | None = None,
        cwd: Path = REPO_ROOT,
        shards: int = 1,
    ) -> None:
        self.fake = fake
        self.argv = list(argv)
        self.extra_env = dict(env or {})
        self.cwd = cwd
        self.process: asyncio.subprocess.Process | None = None
        self._log = Path(tempfile.mkstemp(prefix="fakediscord-bot-", suffix=".log")[1])
        self.starts = 0
        self.shards = shards
        #: The gateway sessions the current (or last) run of the process identified.
        self.sessions: list[Session] = []

    def environment(self) -> dict[str, str]:
        """The child's environment."""
        paths = [str(REPO_ROOT / "tests"), str(REPO_ROOT)]
        if os.environ.get("PYTHONPATH"):
            paths.append(os.environ["PYTHONPATH"])
        return {
            **os.environ,
            **self.fake.env(),
            "PYTHONPATH": os.pathsep.join(paths),
            "PYTHONUNBUFFERED": "1",
            **self.extra_env,
        }

    async def start(self, *, max_wait: float = 30.0) -> None:
        """Spawn the process and wait until it has identified and processed its guilds."""
        known = set(self.fake.gateway.sessions)
        identifies = self.fake.gateway.identifies + self.shards
        with self._log.open("ab") as log:
            self.process = await asyncio.create_subprocess_exec(
                *self.argv,
                cwd=self.cwd,
                env=self.environment(),
                stdout=log,
                stderr=log,
                start_new_session=True,  # its own process group: what it starts is findable
            )
        self.starts += 1
        exited = asyncio.create_task(self.process.wait())
        try:
            await _first(
                self.fake.wait_for_bot(
                    identifies=identifies, shards=self.shards, max_wait=max_wait
                ),
                exited,
                "the bot process",
            )
        except BaseException as exc:
            await self.kill()
            raise AssertionError(
                f"bot process failed to connect; its output:\n{self.output()}"
            ) from exc
        finally:
            exited.cancel()
        self.sessions = [s for k, s in self.fake.gateway.sessions.items() if k not in known]

    @property
    def pid(self) -> int:
        """The current (or last) process's id."""
        if self.process is None:
            raise RuntimeError("the bot process was never started")
        return self.process.pid

    @property
    def shard_ids(self) -> list[int]:
        """The shard ids this process identified as (an unsharded process: ``[0]``)."""
        return sorted(s.routing[0] for s in self.sessions)

    async def kill(self) -> None:
        """SIGKILL: no goodbye, the gateway session is left open (resumable) as after a crash.

        Returns once the fake has seen the process's websockets close.
        """
        if self.process is not None and self.process.returncode is None:
            self.process.send_signal(signal.SIGKILL)
            await self.process.wait()
            await self.fake.wait_for(lambda: not any(s.connected for s in self.sessions))

    async def stop(self, *, max_wait: float = 10.0) -> None:
        """SIGTERM, then SIGKILL if it does not exit within ``max_wait`` s."""
        if self.process is None or self.process.returncode is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(self.process.wait(), max_wait)
        except TimeoutError:
            await self.kill()

    async def restart(self, *, max_wait: float = 30.0) -> None:
        """Kill the process and start a fresh one (which identifies anew)."""
        await self.kill()
        await self.start(max_wait=max_wait)

    def output(self) -> str:
        """Everything the process printed so far."""
        return self._log.read_text(errors="replace")

    async def __aenter__(self) -> BotProcess:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()
        self._log.unlink(missing_ok=True)
