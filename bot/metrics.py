"""Prometheus metrics: what a host watches to know the bot is well.

The bot owns one :class:`BotMetrics` (its own registry, so several bots in one
process, as in tests, never share counters). It is fed from few places:

- ``BlackjackBot.admit`` (the gate every command and table click passes) hands
  it the interaction and its task; the outcome is read when the task ends;
- the Store reports each transaction, settled round and voided round
  (``db.store.StoreObserver``);
- discord.py's HTTP session carries :meth:`BotMetrics.http_trace`, which sees
  every request to Discord: routes, statuses, 429s, and the interaction
  callbacks that answer a user (the answer latency);
- at each scrape the open tables and the gateway latencies are read afresh.

With ``METRICS_PORT`` set, ``bot.metrics_server.MetricsServer`` exposes them over HTTP on
the event loop (a stuck loop then fails the scrape, which is itself the alarm).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, Final

import aiohttp
from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    disable_created_metrics,
)
from prometheus_client.exposition import generate_latest

#: Discord shows "This interaction failed" after 3 s: the buckets crowd around it.
ANSWER_BUCKETS: Final = (0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0, 10.0)
LAG_BUCKETS: Final = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
DB_BUCKETS: Final = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0)
# No ``*_created`` series beside every counter and histogram: a timestamp per family
# that no dashboard reads, and most of the page's lines.
disable_created_metrics()  # type: ignore[no-untyped-call]  # prometheus_client leaves it unannotated

#: Milliseconds from the Unix epoch to Discord's (the start of snowflake time).
DISCORD_EPOCH_MS: Final = 1_420_070_400_000
#: An interaction's token lives 15 minutes: no answer comes later than that.
INTERACTION_TOKEN_LIFE_S: Final = 15 * 60
#: How far ahead of this machine's clock an interaction's id may be dated and still be read.
MAX_CLOCK_SKEW_S: Final = 60
#: How often the event-loop lag is sampled, in (real) seconds.
LAG_INTERVAL_S: Final = 1.0
#: Outcomes of an interaction, as the ``outcome`` label says them.
OUTCOMES: Final = ("answered", "deferred", "refused", "failed")

_DEFERRED: Final = frozenset({"deferred_channel_message", "deferred_message_update"})
_API_PREFIX: Final = re.compile(r"^.*?/api(?:/v\d+)?")
_ID: Final = re.compile(r"/\d{15,21}")
#: ``/webhooks/{id}/{token}`` and ``/interactions/{id}/{token}``: the token is a secret.
_TOKEN: Final = re.compile(r"^(/(?:webhooks|interactions)/:id)/[^/]+")
_CALLBACK: Final = re.compile(r"/interactions/(\d{15,21})/[^/]+/callback$")


def route_of(url: str) -> str:
    """A Discord URL as a low-cardinality route: ``/channels/:id/messages/:id``; the gateway's
    websocket, wherever it is, is ``gateway``."""
    if url.startswith(("ws://", "wss://")):
        return "gateway"
    path = _API_PREFIX.sub("", url.split("?", 1)[0])
    path = _ID.sub("/:id", path)
    return _TOKEN.sub(r"\1/:token", path)


@dataclass(slots=True)
class _Tracked:
    kind: str
    outcome: str | None = None


class BotMetrics:
    """Every metric the bot exports, and the hooks that move them."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.registry = CollectorRegistry()
        # The process's memory, CPU, open descriptors (process_*) and Python's version.
        ProcessCollector(registry=self.registry)
        PlatformCollector(registry=self.registry)
        self._clock = clock
        self._tracked: dict[int, _Tracked] = {}
        self._lag_task: asyncio.Task[None] | None = None
        #: Labelled children already looked up: ``labels()`` takes a lock and checks its
        #: arguments on every call, and the hot ones run a few times per click.
        self._children: dict[tuple[object, tuple[str, ...]], Any] = {}
        self._add_play_metrics(self.registry)
        self._add_discord_metrics(self.registry)
        self._add_db_metrics(self.registry)

    def _add_play_metrics(self, r: CollectorRegistry) -> None:
        """Interactions and their answers, the event loop, tables, rounds and chips."""
        self.interactions = Counter(
            "blackjack_interactions",
            "Interactions handled, by kind and outcome (answered, deferred, refused, failed)",
            ["kind", "outcome"],
            registry=r,
        )
        self.answer_seconds = Histogram(
            "blackjack_interaction_answer_seconds",
            "From an interaction's creation (its snowflake) to Discord accepting the answer",
            ["kind"],
            buckets=ANSWER_BUCKETS,
            registry=r,
        )
        self.loop_lag = Histogram(
            "blackjack_event_loop_lag_seconds",
            "How late the event loop ran a callback it was asked to run at once",
            buckets=LAG_BUCKETS,
            registry=r,
        )
        self.tables_open = Gauge("blackjack_tables_open", "Tables open now", registry=r)
        self.players_seated = Gauge(
            "blackjack_players_seated", "Players seated at open tables now", registry=r
        )
        self.rounds = Counter(
            "blackjack_rounds", "Rounds closed, by result (settled, voided)", ["result"], registry=r
        )
        self.wagered = Counter(
            "blackjack_wagered_chips", "Chips staked in rounds settled", registry=r
        )
        self.paid = Counter(
            "blackjack_paid_chips", "Chips paid out (stakes returned included)", registry=r
        )
        self.refunded = Counter(
            "blackjack_refunded_chips", "Chips refunded by voided rounds", registry=r
        )
        self.house_result = Gauge(
            "blackjack_house_result_chips",
            "Chips the house won (wagered minus paid) over rounds settled since start",
            registry=r,
        )

    def _add_discord_metrics(self, r: CollectorRegistry) -> None:
        """Requests to Discord, its rate limits, the gateway's latency."""
        self.discord_requests = Counter(
            "blackjack_discord_requests",
            "HTTP requests to Discord, by method, route and status",
            ["method", "route", "status"],
            registry=r,
        )
        self.discord_seconds = Histogram(
            "blackjack_discord_request_duration_seconds",
            "HTTP request time to Discord, by method and route",
            ["method", "route"],
            registry=r,
        )
        self.rate_limits = Counter(
            "blackjack_discord_rate_limits",
            "429 answers from Discord, by route and scope (user, global, shared)",
            ["route", "scope"],
            registry=r,
        )
        self.rate_limit_wait = Counter(
            "blackjack_discord_rate_limit_wait_seconds",
            "Seconds Discord's 429 answers asked the bot to wait (Retry-After), by route",
            ["route"],
            registry=r,
        )
        self.gateway_latency = Gauge(
            "blackjack_gateway_latency_seconds",
            "Heartbeat round trip of each gateway shard",
            ["shard"],
            registry=r,
        )

    def _add_db_metrics(self, r: CollectorRegistry) -> None:
        """Database transactions: their time and errors, by operation."""
        self.db_seconds = Histogram(
            "blackjack_db_transaction_duration_seconds",
            "Time of each database transaction, by operation",
            ["operation"],
            buckets=DB_BUCKETS,
            registry=r,
        )
        self.db_errors = Counter(
            "blackjack_db_transaction_errors",
            "Database transactions that raised, by operation",
            ["operation"],
            registry=r,
        )

    def _child(self, metric: Counter | Histogram, *values: str) -> Any:
        """``metric.labels(*values)``, looked up once."""
        key = (metric, values)
        child = self._children.get(key)
        if child is None:
            child = self._children[key] = metric.labels(*values)
        return child

    # -- interactions ------------------------------------------------------------------------

    def track(self, interaction: Any, task: asyncio.Task[Any] | None) -> None:
        """Count ``interaction`` by its outcome once ``task`` (which handles it) ends."""
        if task is None or interaction.id in self._tracked:
            return
        tracked = _Tracked(kind=_kind(interaction))
        self._tracked[interaction.id] = tracked
        task.add_done_callback(lambda done: self._finished(interaction, tracked, done))

    def refused(self, interaction: Any) -> None:
        """The bot said no (a gate, a permission, a rule), politely: not a failure."""
        tracked = self._tracked.get(interaction.id)
        if tracked is not None and tracked.outcome is None:
            tracked.outcome = "refused"

    def failed(self, interaction: Any) -> None:
        """Handling raised: the user saw an apology, or nothing."""
        tracked = self._tracked.get(interaction.id)
        if tracked is not None:
            tracked.outcome = "failed"

    def _finished(self, interaction: Any, tracked: _Tracked, task: asyncio.Task[Any]) -> None:
        self._tracked.pop(interaction.id, None)
        outcome = tracked.outcome
        if outcome is None:
            answer = getattr(interaction.response.type, "name", None)
            if task.cancelled() or task.exception() is not None or answer is None:
                outcome = "failed"  # nothing answered: Discord says "This interaction failed"
            else:
                outcome = "deferred" if answer in _DEFERRED else "answered"
        self._child(self.interactions, tracked.kind, outcome).inc()

    # -- discord HTTP ------------------------------------------------------------------------

    def http_trace(self) -> aiohttp.TraceConfig:
        """For ``discord.Client(http_trace=...)``: counts and times every request to Discord."""
        trace = aiohttp.TraceConfig()
        trace.on_request_start.append(self._request_start)
        trace.on_request_end.append(self._request_end)
        trace.on_request_exception.append(self._request_exception)
        return trace

    async def _request_start(
        self, session: Any, context: SimpleNamespace, params: aiohttp.TraceRequestStartParams
    ) -> None:
        context.started = time.perf_counter()

    async def _request_end(
        self, session: Any, context: SimpleNamespace, params: aiohttp.TraceRequestEndParams
    ) -> None:
        url, status = str(params.url), params.response.status
        route = route_of(url)
        self._request_done(context, params.method, route, str(status))
        if status == 429:
            headers = params.response.headers
            scope = headers.get(
                "X-RateLimit-Scope", "global" if "X-RateLimit-Global" in headers else "user"
            )
            self.rate_limits.labels(route, scope).inc()
            # Reset-After has the fraction; Retry-After (whole seconds) is all a global 429 has.
            wait = headers.get("X-RateLimit-Reset-After") or headers.get("Retry-After") or "0"
            with contextlib.suppress(ValueError):
                self.rate_limit_wait.labels(route).inc(float(wait))
        answered = _CALLBACK.search(url.split("?", 1)[0])
        if answered is not None and status < 300:
            interaction_id = int(answered[1])
            tracked = self._tracked.get(interaction_id)
            created = ((interaction_id >> 22) + DISCORD_EPOCH_MS) / 1000  # its snowflake
            seconds = self._clock() - created
            # An answer comes within the interaction token's life; an id dated outside it
            # (a clock far off, a made-up id) would only skew the histogram.
            if -MAX_CLOCK_SKEW_S <= seconds <= INTERACTION_TOKEN_LIFE_S:
                self._child(self.answer_seconds, tracked.kind if tracked else "other").observe(
                    max(0.0, seconds)
                )

    async def _request_exception(
        self, session: Any, context: SimpleNamespace, params: aiohttp.TraceRequestExceptionParams
    ) -> None:
        self._request_done(context, params.method, route_of(str(params.url)), "error")

    def _request_done(self, context: SimpleNamespace, method: str, route: str, status: str) -> None:
        self._child(self.discord_requests, method, route, status).inc()
        started = getattr(context, "started", None)
        if started is not None:
            self._child(self.discord_seconds, method, route).observe(time.perf_counter() - started)

    # -- the store (db.store.StoreObserver) ----------------------------------------------------

    def transaction(self, operation: str, seconds: float, failed: bool) -> None:
        """A database transaction ended."""
        self._child(self.db_seconds, operation).observe(seconds)
        if failed:
            self.db_errors.labels(operation).inc()

    def round_settled(self, wagered: int, paid: int) -> None:
        """A round was settled: its stakes and what it paid back."""
        self.rounds.labels("settled").inc()
        self.wagered.inc(wagered)
        self.paid.inc(paid)
        self.house_result.inc(wagered - paid)

    def round_voided(self, refunded: int) -> None:
        """A round was voided and its stakes refunded."""
        self.rounds.labels("voided").inc()
        self.refunded.inc(refunded)

    def side_bets_settled(self, wagered: int, paid: int) -> None:
        """Side bets settled at the deal: counted in the chips wagered and paid when they are
        settled, as a round's are (the round itself is counted when it closes)."""
        self.wagered.inc(wagered)
        self.paid.inc(paid)
        self.house_result.inc(wagered - paid)

    # -- read at each scrape -----------------------------------------------------------------

    def refresh(self, seats: Iterable[int], latencies: Iterable[tuple[int, float]]) -> None:
        """The open tables (seated players per table) and each shard's gateway latency."""
        per_table = list(seats)
        self.tables_open.set(len(per_table))
        self.players_seated.set(sum(per_table))
        self.gateway_latency.clear()
        for shard, latency in latencies:
            if math.isfinite(latency):
                self.gateway_latency.labels(str(shard)).set(latency)

    def exposition(self) -> bytes:
        """The metrics in Prometheus' text format."""
        return generate_latest(self.registry)

    # -- event-loop lag ----------------------------------------------------------------------

    def start_lag_monitor(self) -> None:
        """Sample the event loop's lag now and every LAG_INTERVAL_S seconds."""
        if self._lag_task is None:
            self._lag_task = asyncio.create_task(self._watch_lag(), name="metrics loop lag")

    async def stop(self) -> None:
        """Stop the lag monitor."""
        if self._lag_task is not None:
            self._lag_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._lag_task
            self._lag_task = None

    async def _watch_lag(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            asked = loop.time()
            await asyncio.sleep(0)  # run again at once: any delay is other callbacks hogging
            self.loop_lag.observe(loop.time() - asked)
            await asyncio.sleep(LAG_INTERVAL_S)


def _kind(interaction: Any) -> str:
    """``command``, ``component``, ``autocomplete``, ``modal`` or ``other``."""
    name = getattr(interaction.type, "name", "")
    return {
        "application_command": "command",
        "component": "component",
        "autocomplete": "autocomplete",
        "modal_submit": "modal",
    }.get(name, "other")
