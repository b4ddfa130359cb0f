"""Simulated rounds of basic strategy, played by the Round the bot uses.

One player plays one spot a round at the table's rules: ``Round.deal``, then
``Round.apply`` (the event-free path) with ``advise``'s decision until the
round settles (basic strategy never takes insurance). The tally keeps each
round's net in whole chips, exactly, so runs split over workers add up to the
same figures whatever the order.

Side bets, when given pay tables, are staked on the spot each round (the same stake
as the main bet) and tallied apart, each classified by its spec's hook from the spot's
first two cards and the dealer's final hand (the dealer plays out every hand when a
bet's spec asks it, as at a table where a Buster bet is live).

Shoes come from the run's seed: with a cut card, shoe ``k`` of worker ``w`` is
``Shoe(decks, penetration, derive_seed(worker_seed(seed, w), b"shoe", k))``,
replaced when the cut card comes out; with penetration 0 every round gets a
fresh shoe from ``bot.engine.fresh_shoe.FreshShoe`` (an exact Fisher–Yates
shuffle, run only as far as the round deals).

Pure: no clock, no I/O; ``progress(rounds_done)`` is called every
``progress_every`` rounds for whoever shows a progress bar.
"""

from __future__ import annotations

import hmac
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from bot.engine.analysis.chart_lookup import ChartLookup
from bot.engine.analysis.strategy import lookup_for
from bot.engine.fresh_shoe import FreshShoe
from bot.engine.round import Round
from bot.engine.round_state import RoundPhase
from bot.engine.rules import Rules
from bot.engine.shoe import KeyedHmac, Shoe
from bot.engine.side_bets import SPECS, PayTable

#: The simulated player's id.
PLAYER: Final = "sim"
#: Rounds between two progress calls.
PROGRESS_EVERY: Final = 1 << 14
#: In CPython 3.11 ``Enum.MEMBER`` costs a descriptor call: bound once, read every decision.
_SETTLED: Final = RoundPhase.SETTLED
#: 95% two-sided normal quantile.
Z95: Final = 1.959963984540054

Progress = Callable[[int], None]


@dataclass(frozen=True, slots=True)
class Tally:
    """What a run of rounds won and lost, in chips, with ``stake`` bet on each round."""

    rounds: int
    stake: int
    #: Sum of every round's net (negative: the player lost).
    net: int
    #: Sum of every round's net squared (for the variance).
    net_squares: int
    #: Each side bet staked every round: (bet, pay table name, its own tally).
    side_bets: tuple[tuple[str, str, Tally], ...] = ()

    def merge(self, other: Tally) -> Tally:
        """Both runs' rounds together (same stake, same side bets)."""
        if other.stake != self.stake:
            raise ValueError(f"cannot merge tallies of stakes {self.stake} and {other.stake}")
        names = [(bet, table) for bet, table, _ in self.side_bets]
        if names != [(bet, table) for bet, table, _ in other.side_bets]:
            raise ValueError("cannot merge tallies of different side bets")
        return Tally(
            self.rounds + other.rounds,
            self.stake,
            self.net + other.net,
            self.net_squares + other.net_squares,
            tuple(
                (bet, table, mine.merge(theirs))
                for (bet, table, mine), (_, _, theirs) in zip(
                    self.side_bets, other.side_bets, strict=True
                )
            ),
        )

    @property
    def house_edge_pct(self) -> float:
        """Average loss per round in percent of the round's first bet."""
        if not self.rounds:
            return math.nan
        return -100.0 * self.net / (self.rounds * self.stake)

    @property
    def std_error_pct(self) -> float:
        """Standard error of ``house_edge_pct`` (percentage points)."""
        n = self.rounds
        if n < 2:
            return math.nan
        mean = self.net / n
        variance = (self.net_squares - n * mean * mean) / (n - 1)
        return 100.0 * math.sqrt(max(variance, 0.0) / n) / self.stake

    @property
    def ci95_pct(self) -> tuple[float, float]:
        """The 95% confidence interval of ``house_edge_pct``."""
        half = Z95 * self.std_error_pct
        return self.house_edge_pct - half, self.house_edge_pct + half


def stake_for(rules: Rules) -> int:
    """The bet per round: a multiple of 10 within the limits when there is one, so that
    3:2, 6:5 and half-back surrender pay whole chips; else the largest bet allowed."""
    stake = -(-rules.min_bet // 10) * 10
    return stake if stake <= rules.max_bet else rules.max_bet


def derive_seed(seed: bytes, label: bytes, index: int) -> bytes:
    """HMAC-SHA256(seed, label + index as 8 bytes big-endian): 32 bytes."""
    return hmac.digest(seed, label + index.to_bytes(8, "big"), "sha256")


class SeedDeriver:
    """``derive_seed`` for one seed, many times (the HMAC key prepared once)."""

    __slots__ = ("_mac",)

    def __init__(self, seed: bytes) -> None:
        self._mac = KeyedHmac(seed)

    def derive(self, label: bytes, index: int) -> bytes:
        """The same bytes as ``derive_seed(seed, label, index)``."""
        return self._mac.digest(label + index.to_bytes(8, "big"))


def worker_seed(seed: bytes, worker: int) -> bytes:
    """The seed of worker ``worker`` (0, 1, ...) of a run seeded with ``seed``."""
    return derive_seed(seed, b"worker", worker)


def split_rounds(rounds: int, workers: int) -> list[int]:
    """Rounds per worker: as even as can be, the first workers taking the remainder."""
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    share, extra = divmod(rounds, workers)
    return [share + (1 if worker < extra else 0) for worker in range(workers)]


def play_rounds(
    rules: Rules,
    rounds: int,
    seed: bytes,
    *,
    progress: Progress | None = None,
    progress_every: int = PROGRESS_EVERY,
    side_bets: tuple[PayTable, ...] = (),
) -> Tally:
    """Play ``rounds`` rounds of basic strategy from shoes derived from ``seed``, with a
    side bet of each of ``side_bets``' pay tables every round."""
    if rounds < 0:
        raise ValueError(f"rounds must be 0 or more, not {rounds}")
    return _play(
        rules, lookup_for(rules), rounds, seed, progress, max(progress_every, 1), side_bets
    )


def play_worker(
    rules: Rules,
    rounds: int,
    seed: bytes,
    worker: int,
    *,
    progress: Progress | None = None,
    progress_every: int = PROGRESS_EVERY,
    side_bets: tuple[PayTable, ...] = (),
) -> Tally:
    """Worker ``worker``'s share of a run: ``play_rounds`` with ``worker_seed(seed, worker)``."""
    return play_rounds(
        rules,
        rounds,
        worker_seed(seed, worker),
        progress=progress,
        progress_every=progress_every,
        side_bets=side_bets,
    )


def _play(
    rules: Rules,
    lookup: ChartLookup,
    rounds: int,
    seed: bytes,
    progress: Progress | None,
    progress_every: int,
    side_bets: tuple[PayTable, ...] = (),
) -> Tally:
    stake = stake_for(rules)
    specs = [SPECS[table.bet] for table in side_bets]
    plays_out = any(spec.dealer_plays_out for spec in specs)
    side_nets = [0] * len(side_bets)
    side_squares = [0] * len(side_bets)
    bets = [(PLAYER, (stake,))]
    advise = lookup.advise
    deal = Round.deal
    fresh = rules.penetration == 0
    seeds = SeedDeriver(seed)
    shoes = 0
    shoe: Shoe
    if fresh:
        fresh_shoe = FreshShoe(rules.decks, seeds.derive(b"fresh", 0))
        shoe = fresh_shoe
    else:
        shoe = Shoe(rules.decks, rules.penetration, seeds.derive(b"shoe", shoes))
    net_sum = 0
    squares = 0
    done = 0
    while done < rounds:
        batch = min(progress_every, rounds - done)
        for _ in range(batch):
            if fresh:
                if shoe.position:
                    fresh_shoe.reshuffle()
            elif shoe.cut_card_reached:
                shoes += 1
                shoe = Shoe(rules.decks, rules.penetration, seeds.derive(b"shoe", shoes))
            round_ = deal(rules, shoe, bets, dealer_plays_out=plays_out)
            hands = round_.seats[0].hands
            up = round_.dealer.cards[0]
            if side_bets:
                first, second = hands[0].cards[0], hands[0].cards[1]
            while round_.phase is not _SETTLED:
                for hand in hands:
                    if not hand.is_finished:
                        break
                round_.apply(PLAYER, advise(hand.cards, up, round_.legal_actions(PLAYER)))
            net = round_.net(PLAYER)
            net_sum += net
            squares += net * net
            dealer = round_.dealer
            for index, table in enumerate(side_bets):
                category = specs[index].classify(first, second, dealer.cards, dealer.total)
                side = -stake if category is None else table.winnings(stake, category)
                side_nets[index] += side
                side_squares[index] += side * side
        done += batch
        if progress is not None:
            progress(done)
    return Tally(
        rounds,
        stake,
        net_sum,
        squares,
        tuple(
            (table.bet, table.name, Tally(rounds, stake, side_nets[index], side_squares[index]))
            for index, table in enumerate(side_bets)
        ),
    )
