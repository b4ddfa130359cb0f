"""What basic strategy advises at a table: the Hint button's answer, and the chart and
house edge behind it, worked out off the event loop.

The engine does the mathematics (``bot.engine.analysis``); this module is the one
place the tables ask it, and the one place a Hint is worded. All the computing runs
in one worker (an ``Executor``): the bot gives it a process of its own
(``bot.strategy_process.StrategyPool``), so that it never holds the event loop's
GIL; the tests' services give it a thread.

A table's chart and house edge are worked out in the worker when the table opens
(``warm``), and kept (``bot.strategy_cache``); a chart read back from the cache
after a restart still leaves the worker cold, so it then works out the dealer's
odds the exact figures start from. A Hint's exact figures (what each legal action
is worth for these cards) come from the worker once it has done either for the
table's rules: a Hint pressed before then, or one the worker cannot answer within
``HINT_WAIT_S`` (busy with another table's chart), answers from the infinite-deck
chart, in milliseconds, and says so.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, Final, ParamSpec, TypeVar

from bot.clock import Clock, SystemClock
from bot.engine import Action, Card, Hand, Rules
from bot.engine.analysis import infinite_lookup
from bot.i18n import Figure, Text, _, joined
from bot.strategy_cache import StrategyCache, chart_and_edge, rules_key
from bot.strategy_process import legal_values, warm_values
from bot.tables.errors import Restarting

P = ParamSpec("P")
T = TypeVar("T")

#: What a Hint says while the table's own figures are still being worked out.
#: What a Hint says to the insurance question: basic strategy never insures.
NO_INSURANCE: Final = _(
    "Basic strategy: no insurance (it costs more than it saves in the long run)."
)
#: Each choice as a Hint names it.
ACTIONS: Final[dict[Action, Text]] = {
    Action.HIT: _("hit"),
    Action.STAND: _("stand"),
    Action.DOUBLE: _("double"),
    Action.SPLIT: _("split"),
    Action.SURRENDER: _("surrender"),
    Action.INSURANCE: _("insurance"),
    Action.NO_INSURANCE: _("no insurance"),
}
#: Seconds a Hint waits for the worker's exact figures before it answers from the
#: infinite-deck chart instead (a warm worker takes milliseconds to 0.3 s).
HINT_WAIT_S: Final = 0.8


class Advice:
    """Charts, edges and a Hint's figures for the tables, from one worker."""

    def __init__(
        self,
        directory: Path | None = None,
        *,
        worker: Executor | None = None,
        background: Executor | None = None,
        clock: Clock | None = None,
    ) -> None:
        self.cache = StrategyCache(directory)
        self._worker = worker or ThreadPoolExecutor(max_workers=1, thread_name_prefix="strategy")
        #: Where work no one waits for runs (the coach's grading): by default the worker;
        #: the bot gives it a process of its own at the lowest priority, so that it neither
        #: queues before a Hint nor takes a core a click could use.
        self._background = background or self._worker
        self._clock = clock or SystemClock()
        #: Rule sets whose warming is under way in the worker, by key.
        self._pending: dict[str, asyncio.Future[Any]] = {}
        #: Rule sets the worker has worked on: their exact figures come at once.
        self._warm: set[str] = set()
        self._closed = False

    def warm(self, rules: Rules) -> None:
        """Start working out the chart and edge of ``rules`` in the worker, or, when they
        are stored already, the dealer's odds of its exact figures (returns at once)."""
        key = rules_key(rules)
        if self._closed or key in self._warm or key in self._pending:
            return
        job: asyncio.Future[Any]
        if self.cache.cached(rules) is None:
            job = asyncio.wrap_future(self._worker.submit(chart_and_edge, rules))
        else:
            job = asyncio.wrap_future(self._worker.submit(warm_values, rules))
        self._pending[key] = job
        job.add_done_callback(lambda done: self._warmed(rules, key, done))

    def _warmed(self, rules: Rules, key: str, job: asyncio.Future[Any]) -> None:
        del self._pending[key]
        if job.cancelled() or job.exception() is not None:
            return  # closed, or the worker died: the next warm() asks again
        result = job.result()
        if isinstance(result, tuple):
            self.cache.store(rules, *result)
        self._warm.add(key)

    async def settle(self) -> None:
        """Until every warming started so far is over."""
        while self._pending:
            await asyncio.wait(list(self._pending.values()))

    async def edge(self, rules: Rules) -> float:
        """The house edge of ``rules`` (fresh shoe), worked out in the worker if need be."""
        found = self.cache.cached(rules)
        if found is None:
            if self._closed:
                raise Restarting()
            self.warm(rules)
            job = self._pending[rules_key(rules)]
            await asyncio.wait([job])
            self._lost(job)
            job.result()  # the worker's error, if it failed
            found = self.cache.cached(rules)
            assert found is not None
        return found[1]

    async def hint(
        self, rules: Rules, cards: Sequence[Card], up: Card, legal: Collection[Action]
    ) -> str:
        """The Hint's sentence: each legal action's value and the best, for these cards;
        the infinite-deck chart's action while the worker cannot say yet."""
        if Action.INSURANCE in legal:
            return NO_INSURANCE
        if self._closed:
            raise Restarting()
        if rules_key(rules) not in self._warm:
            self.warm(rules)
            return _from_infinite_chart(rules, cards, up, legal)
        job: asyncio.Future[Any]
        job = asyncio.wrap_future(self._worker.submit(legal_values, rules, cards, up, legal))
        timer: asyncio.Future[Any] = asyncio.ensure_future(self._clock.sleep(HINT_WAIT_S))
        try:
            await asyncio.wait([job, timer], return_when=asyncio.FIRST_COMPLETED)
        finally:
            timer.cancel()
        if not job.done():
            job.add_done_callback(_forget)  # late figures are not wanted
            return _from_infinite_chart(rules, cards, up, legal)
        if self._lost(job):
            return _from_infinite_chart(rules, cards, up, legal)
        return exact_hint(job.result(), cards, up)

    @property
    def closed(self) -> bool:
        """Whether the worker was stopped (``close``)."""
        return self._closed

    def run(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> asyncio.Future[T]:
        """``fn(*args)`` in the background worker, after the jobs queued before it (the
        coach's grading); Restarting once closed."""
        if self._closed:
            raise Restarting()
        return asyncio.wrap_future(self._background.submit(fn, *args, **kwargs))

    def _lost(self, job: asyncio.Future[Any]) -> bool:
        """Whether the worker ended before it finished ``job``: Restarting when the bot
        stopped it; else it died, and the next one starts cold."""
        if not (job.cancelled() or isinstance(job.exception(), BrokenProcessPool)):
            return False
        if self._closed:
            raise Restarting()
        self._warm.clear()
        return True

    def close(self) -> None:
        """Stop the worker: work under way ends, nothing new starts; a Hint from now on
        is answered that the bot is restarting."""
        self._closed = True
        self._worker.shutdown(wait=False, cancel_futures=True)
        if self._background is not self._worker:
            self._background.shutdown(wait=False, cancel_futures=True)


#: A figure as the Hint writes it: a sign always, the minus sign a true minus.
PERCENT: Final = "+0.0;\u22120.0"


def exact_hint(values: dict[Action, float], cards: Sequence[Card], up: Card) -> Text:
    """The best choice for these cards, then what every legal choice is worth, in percent
    of the bet (a value of -0.472 chips per chip bet is "−47.2%"), best first."""
    ranked = sorted(values, key=lambda action: -values[action])
    worth = joined(
        [
            _(
                "{action} {percent}%",
                action=ACTIONS[action],
                percent=Figure(values[action] * 100, PERCENT),
            )
            for action in ranked
        ]
    )
    return _(
        "Basic strategy: {choice}.\n"
        "What each choice wins or loses on average, as a share of your bet: {worth}.",
        choice=_choice(ranked[0], cards, up),
        worth=worth,
    )


def _from_infinite_chart(
    rules: Rules, cards: Sequence[Card], up: Card, legal: Collection[Action]
) -> Text:
    action = infinite_lookup(rules).advise(cards, up, legal)
    return _(
        "Basic strategy: {choice} (infinite-deck chart: this table's exact figures are "
        "still being worked out).",
        choice=_choice(action, cards, up),
    )


def _choice(action: Action, cards: Sequence[Card], up: Card) -> Text:
    """A choice as both Hints word it: "stand (hard 16 against a 10)"."""
    return _(
        "{action} ({hand} against {up})",
        action=ACTIONS[action],
        hand=hand_name(cards),
        up=card_name(up),
    )


def _forget(job: asyncio.Future[Any]) -> None:
    """Take a finished job's outcome that nobody waits for (else asyncio logs it)."""
    if not job.cancelled():
        job.exception()


def card_name(card: Card) -> Text:
    """The up card with its article: "an ace", "an 8", "a 10", "a 6"."""
    if card.rank == 1:
        return _("an ace")
    value = str(card.value)
    return _("an {value}", value=value) if value in ("8", "11") else _("a {value}", value=value)


def hand_name(cards: Sequence[Card]) -> Text:
    """How a basic-strategy chart names the hand: "hard 11", "soft 17", "a pair of 8s"."""
    hand = Hand.of(list(cards))
    if len(cards) == 2 and hand.is_pair:
        if cards[0].rank == 1:
            return _("a pair of aces")
        return _("a pair of {value}s", value=str(cards[0].value))
    if hand.is_soft:
        return _("soft {total}", total=hand.total)
    return _("hard {total}", total=hand.total)
