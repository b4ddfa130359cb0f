"""The blackjack bot under ``bench/load.py``: its tables opened, then its measured phases
(the closed loop, paced, overload; or the closed loop alternated: ``bench/load_compare.py``)."""

from __future__ import annotations

import argparse
import asyncio
import cProfile
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from load_kit import BenchDiscord, Pacer, profile_summary
from load_phase import Run, current_tables, measured
from load_player import Player, Tally, open_tables, seat_players
from load_process import BotUnderTest, bot_under_test
from table_reading import RULES, shown_embed, without_pictures

import db
from bot.engine import Action, Card
from bot.engine.analysis import advise
from fakediscord.models import FakeChannel, FakeGuild, FakeMember
from fakediscord.records import FakeMessage
from tests.db.invariants import check_invariants

#: Guild settings for the bench: no bet is ever refused for chips, and no timer fires
#: while a round waits for a busy bot (players do everything).
BENCH_SETTINGS = {
    "starting_chips": 1_000_000,
    "bet_timer_s": 3600,
    "action_timer_s": 3600,
    "idle_close_s": 86_400,
}
Seats = list[tuple[FakeChannel, list[FakeMember]]]


@dataclass
class Stage:
    """The bot under test and its open tables: one group of ``--tables`` a layout (one
    group in all unless ``--layouts``), each table's message."""

    args: argparse.Namespace
    fake: BenchDiscord
    under_test: BotUnderTest
    seats: list[Seats]
    messages: list[list[FakeMessage]]

    @property
    def every_message(self) -> list[FakeMessage]:
        return [message for group in self.messages for message in group]

    def players(
        self, tally: Tally, played: range, *, group: int = 0, coach: bool | None = None
    ) -> list[Awaitable[None]]:
        """The players of one group of tables, playing the rounds ``played``; they ask
        ``/blackjack coach`` once a round with ``coach`` (default: ``--coach``)."""
        coach = self.args.coach if coach is None else coach
        return [
            Player(self.fake, tally, member, message, played, coach, self.args.bet_again).run()
            for (_, members), message in zip(self.seats[group], self.messages[group], strict=True)
            for member in members
        ]

    async def closed(
        self, label: str, played: range, *, group: int = 0, coach: bool | None = None
    ) -> Run:
        """A closed-loop phase: every player acts as soon as answered; measured until the
        coach has graded its rounds too (the same for every phase a comparison alternates)."""
        tally = Tally()
        players = self.players(tally, played, group=group, coach=coach)
        run = await measured(label, self.fake, self.under_test, tally, players, graded=True)
        run.rounds = len(self.seats[group]) * len(played)
        run.sample = self.sample(group)
        return run

    async def warm_up(self, played: range, *, group: int = 0) -> None:
        """Rounds played unmeasured (the workers started, the coach's grading done), so that
        the first of alternated phases pays no start-up the others do not."""
        await asyncio.gather(*self.players(Tally(), played, group=group, coach=False))
        await self.under_test.command("graded")

    def sample(self, group: int = 0) -> tuple[dict[str, Any], int]:
        """A table message as the rich floor sends it: (embed, buttons)."""
        message = self.messages[group][0]
        return without_pictures(shown_embed(message)), len(message.buttons())


Phases = Callable[[Stage], Awaitable[list[Run]]]


async def blackjack_run(
    args: argparse.Namespace,
    database_url: str,
    phases: Phases,
    *,
    processes: int = 1,
    layouts: tuple[str, ...] = (),
) -> list[Run]:
    """The blackjack bot in ``processes`` processes: ``--tables`` tables opened for each of
    ``layouts`` (default: ``--layout``; memory measured), then ``phases`` played on them; the
    database's invariants checked at the end."""
    layouts = layouts or (args.layout,)
    profiler = cProfile.Profile() if args.profile else None
    async with BenchDiscord(recommended_shards=processes) as fake:
        if processes > 1:
            guilds = [fake.add_guild(f"Load {n}", shard=n, of=processes) for n in range(processes)]
            seats = [seat_players(fake, guilds, "table", args.tables)]
            await _bench_settings(database_url, [(g, args.layout) for g in guilds])
        else:
            guilds = [fake.add_guild(f"Load {layout}") for layout in layouts]
            seats = [
                seat_players(fake, [g], f"table-{layout}", args.tables)
                for g, layout in zip(guilds, layouts, strict=True)
            ]
            await _bench_settings(database_url, list(zip(guilds, layouts, strict=True)))
        async with bot_under_test(
            fake,
            "blackjack",
            args,
            database_url=database_url,
            processes=processes,
            profiler=profiler,
        ) as under_test:
            await under_test.command("memory-start")
            messages = [await open_tables(fake, group) for group in seats]
            memory = await under_test.command("memory-stop")
            # The basic-strategy chart is built on first use (about a second): not mid-phase.
            nine, ten, six = (Card.parse(card) for card in ("9s", "Tc", "6h"))
            advise(RULES, [nine, ten], six, [Action.HIT, Action.STAND])
            runs = await phases(Stage(args, fake, under_test, seats, messages))
            if len(seats) == 1:
                runs[0].memory = (memory["traced"], memory["rss"])
    if profiler is not None:
        profiler.dump_stats(args.profile)
        runs[0].notes += profile_summary(profiler, args.top)
    await check_invariants(database_url)
    runs[0].notes.append("chips: every balance is its ledger, no bet or payout twice (checked)")
    return runs


async def _bench_settings(database_url: str, layouts: list[tuple[FakeGuild, str]]) -> None:
    store = await db.open_store(database_url)
    try:
        for guild, layout in layouts:
            await store.set_guild_settings(guild.id, **BENCH_SETTINGS, layout=layout)
    finally:
        await store.close()


def goal_phases(paced_rate: float) -> Phases:
    """The closed loop (``--rounds``), then ``--paced-rounds`` at ``paced_rate`` and
    ``--overload-rounds`` at twice the closed loop's rate, each checked for consistency."""

    async def phases(stage: Stage) -> list[Run]:
        args, messages = stage.args, stage.messages[0]
        processes = stage.under_test.processes
        where = f", {processes} processes" if processes > 1 else ""
        closed = await _measured(stage, f"blackjack bot{where}", range(1, args.rounds + 1))
        closed.sample = stage.sample()
        runs, start = [closed], args.rounds + 1
        for phase_rounds, rate, label in (
            (args.paced_rounds, paced_rate, "paced at {:,.0f} interactions/s offered"),
            (args.overload_rounds, 2 * closed.rate, "overload: {:,.0f}/s offered (2x)"),
        ):
            if not phase_rounds:
                continue
            played = range(start, start + phase_rounds)
            run = await _measured(stage, f"blackjack bot, {label.format(rate)}", played, rate)
            run.current = await current_tables(stage.under_test, messages)
            runs.append(run)
            start += phase_rounds
        return runs

    return phases


async def _measured(stage: Stage, label: str, played: range, rate: float | None = None) -> Run:
    """One phase of the goals' run on the one group of tables (paced at ``rate``)."""
    tally = Tally(pacer=Pacer(rate) if rate else None)
    run = await measured(label, stage.fake, stage.under_test, tally, stage.players(tally, played))
    run.rounds = len(stage.seats[0]) * len(played)
    return run
