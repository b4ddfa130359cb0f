"""What basic strategy advises at a table: the Hint button's answer, and the chart and
house edge behind it, worked out off the event loop.

The engine does the mathematics (``bot.engine.analysis``); this module is the one
place the tables ask it, and the one place a Hint is worded. A table's chart and
house edge are worked out by a worker thread when the table opens (``warm``), and
kept (``bot.strategy_cache``). A Hint's decision values (what each legal action is
worth for the exact cards) come from the same worker. The bot gives the worker a
child process (``bot.strategy_process``) to do the computing in, so that it never
holds the event loop's GIL; without one (the tests' services) the thread computes.
A Hint pressed before the table's chart is ready answers at once from the
infinite-deck chart, and says so.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any, Final, ParamSpec, TypeVar

from bot.engine import Action, Card, Hand, Rules
from bot.engine.analysis import decision_values, decision_words, infinite_lookup
from bot.strategy_cache import StrategyCache, chart_and_edge, rules_key
from bot.strategy_process import ChildProcess

#: What a Hint says while the table's own chart is still being worked out.
NOT_READY: Final = "(infinite-deck chart: this table's exact figures are still being worked out)"
#: What a Hint says to the insurance question: basic strategy never insures.
NO_INSURANCE: Final = "Basic strategy: no insurance (it costs more than it saves in the long run)."


P = ParamSpec("P")
T = TypeVar("T")
_Job = tuple[Future[Any], Callable[..., Any], tuple[Any, ...], dict[str, Any]]


class DaemonWorker(Executor):
    """One daemon thread running jobs in turn: a chart still being worked out never
    holds up the bot's exit (a ThreadPoolExecutor's threads are joined at exit)."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        future: Future[T] = Future()
        self._jobs.put((future, fn, args, kwargs))
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="strategy", daemon=True)
            self._thread.start()
        return future

    def _run(self) -> None:
        while True:
            future, fn, args, kwargs = self._jobs.get()
            if not future.set_running_or_notify_cancel():
                continue
            try:
                result = fn(*args, **kwargs)
            except BaseException as exc:
                future.set_exception(exc)
            else:
                future.set_result(result)


class Advice:
    """Charts, edges and decision values for the tables, from one worker thread (which
    hands the computing to ``child``, a process, when there is one)."""

    def __init__(
        self,
        directory: Path | None = None,
        *,
        worker: Executor | None = None,
        child: ChildProcess | None = None,
    ) -> None:
        self.cache = StrategyCache(directory)
        self._worker = worker or DaemonWorker()
        self._child = child
        self._pending: dict[str, Future[object]] = {}

    def warm(self, rules: Rules) -> None:
        """Start working out the chart and edge of ``rules`` (returns at once)."""
        key = rules_key(rules)
        if key not in self._pending and self.cache.cached(rules) is None:
            self._pending[key] = self._worker.submit(self._compute, rules)

    def _compute(self, rules: Rules) -> None:
        self.cache.compute(rules, lambda wanted: self._run(chart_and_edge, wanted))

    def _run(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """``fn`` in the child process if there is one, else here (the worker's thread)."""
        if self._child is None:
            return fn(*args, **kwargs)
        return self._child.call(fn, *args, **kwargs)

    async def settle(self) -> None:
        """Until every chart and edge started so far is worked out."""
        for pending in list(self._pending.values()):
            await asyncio.wrap_future(pending)

    async def edge(self, rules: Rules) -> float:
        """The house edge of ``rules`` (fresh shoe), worked out in the worker if need be."""
        found = self.cache.cached(rules)
        if found is None:
            self.warm(rules)
            await asyncio.wrap_future(self._pending[rules_key(rules)])
            found = self.cache.cached(rules)
            assert found is not None
        return found[1]

    def ready(self, rules: Rules) -> bool:
        """Whether the chart and edge of ``rules`` are at hand."""
        return self.cache.cached(rules) is not None

    async def hint(
        self, rules: Rules, cards: Sequence[Card], up: Card, legal: Collection[Action]
    ) -> str:
        """The Hint's sentence: each legal action's value and the best, for these cards."""
        if Action.INSURANCE in legal or not self.ready(rules):
            self.warm(rules)
            if Action.INSURANCE in legal:
                return NO_INSURANCE
            infinite = infinite_lookup(rules).advise(cards, up, legal)
            return (
                f"Basic strategy: {infinite.value} ({hand_name(cards)} against "
                f"{card_name(up)}) {NOT_READY}."
            )
        values = await asyncio.get_running_loop().run_in_executor(
            self._worker, self._run, _legal_values, rules, cards, up, legal
        )
        return f"{decision_words(values)} ({hand_name(cards)} against {card_name(up)})."

    def close(self) -> None:
        """Stop the worker (work under way finishes; nothing new starts)."""
        self._worker.shutdown(wait=False, cancel_futures=True)
        if self._child is not None:
            self._child.close()


def _legal_values(
    rules: Rules, cards: Sequence[Card], up: Card, legal: Collection[Action]
) -> dict[Action, float]:
    values = decision_values(
        rules,
        [card.value for card in cards],
        up.value,
        pair=Action.SPLIT in legal,
    )
    return {action: value for action, value in values.items() if action in legal}


def card_name(card: Card) -> str:
    """The up card with its article: "an ace", "an 8", "a 10", "a 6"."""
    if card.rank == 1:
        return "an ace"
    value = str(card.value)
    return f"an {value}" if value in ("8", "11") else f"a {value}"


def hand_name(cards: Sequence[Card]) -> str:
    """How a basic-strategy chart names the hand: "hard 11", "soft 17", "a pair of 8s"."""
    hand = Hand.of(list(cards))
    if len(cards) == 2 and hand.is_pair:
        rank = "aces" if cards[0].rank == 1 else f"{cards[0].value}s"
        return f"a pair of {rank}"
    return f"{'soft' if hand.is_soft else 'hard'} {hand.total}"
