"""The soak: 50 SIGKILLs of ``python -m bot`` at seeded random moments, players acting throughout.

    .venv/bin/python bench/soak.py                       # 50 kills, SQLite, a reliable Discord
    .venv/bin/python bench/soak.py --faults              # Discord answers 429s and 500s too
    .venv/bin/python bench/soak.py --backend postgres    # on a throwaway PostgreSQL server
    .venv/bin/python bench/soak.py --kills 10 --outages 5  # the chip store goes away 5 times
    .venv/bin/python bench/soak.py --kills 10 --side-bets  # every side bet of the registry on
    .venv/bin/python bench/soak.py --kills 20 --outages 5 --tournament  # tournaments, one by one

An outage stops the PostgreSQL server (``pg_ctl stop -m fast``, then start), or
makes SQLite refuse every write (its own read-only error, tests/outage.py), while
the players go on; half the outages also kill the process.

At the end it asserts (and prints) that every account's balance equals the sum
of its ledger, that every open round belongs to an open table (which resumes
it), that the chips held equal the chips granted less what the house won, that
no bet, payout or refund was recorded twice, that no round was voided (a kill
or an outage cannot void a round: the table resumes, or waits for the store), the
invariants of tests/db/invariants.py (no stake held by a round whose table is not
open, no channel with two open tables), that no player was told of a refund, and
that every settled round paid what the engine pays when it replays the round from
its shoe seed and recorded decisions. Exit status 1 if any of that fails.

With --tournament the players play tournaments in the channel instead, one after another
(tests/deploy/tournament_players.py): a host creates one, everyone enters, bets and plays
each hand, the last is played to its end before the stop. Then every tournament that dealt
a hand must have finished with the whole pool paid as prizes, no hand may have moved an
economy chip or been voided, and every settled hand's journal must replay to its end; the
only round a kill may void is the prize pool of a tournament killed as it was created,
before its board was posted (nothing staked yet).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "deploy")]

from replay_rounds import check_settled_rounds  # noqa: E402
from soak_run import GAME_ROUTES, SoakReport, soak  # noqa: E402
from table_players import Casino, bot_process, describe  # noqa: E402
from tournament_players import TournamentTable, check_tournaments  # noqa: E402

import db  # noqa: E402
from bot.engine import KNOWN_PAY_TABLES, SPECS  # noqa: E402
from fakediscord import FakeDiscord  # noqa: E402
from tests.db.invariants import check_invariants  # noqa: E402
from tests.outage import Outage, PostgresOutage, SQLiteOutage  # noqa: E402
from tests.pgserver import PostgresServer, find_postgres_bin  # noqa: E402
from tests.support.discord_world import embed_text  # noqa: E402

#: The server's side-bet settings with --side-bets, and the /bet options players add.
SIDE_BET_SETTINGS = {
    "side_bets": {
        bet: "100/40/30/10/5" if bet == "21+3" else tables[0]
        for bet, tables in KNOWN_PAY_TABLES.items()
    },
}
SIDE_BET_OPTIONS = {spec.option: 5 for spec in SPECS.values()}


def fake_texts(fake: FakeDiscord) -> list[str]:
    """Everything the players were shown: each answer, and each message as it stands."""
    answers = [interaction.content or "" for interaction in fake.interactions.values()]
    return answers + [embed_text(message) for message in fake.messages.values()]


async def run(
    args: argparse.Namespace, url: str, outage: Outage, env: dict[str, str] | None = None
) -> int:
    """The soak, then its checks; the exit status (1: a check failed)."""
    report, tournaments, told = await _soak(args, url, outage, env)
    try:
        if tournaments is not None:
            totals = await check_tournaments(url, tournaments.started)
            figures = totals.lines()
            refunds = totals.cancelled  # a tournament cancelled as it was created says so
        else:
            figures, refunds = [("rounds replayed", await check_settled_rounds(url))], 0
    except AssertionError as error:
        print(describe(report.economy, report.lines()))
        print(f"FAILED: a settled round differs from its replay, or a tournament: {error}")
        return 1
    print(describe(report.economy, [*report.lines(), *figures]))
    try:
        report.economy.assert_consistent()
        await check_invariants(url)
        assert report.exit_code == 0, f"the last run exited with {report.exit_code}"
        voided = report.economy.totals["void_rounds"]
        assert voided == refunds, f"{voided} round(s) voided"
        assert refunds or not told, f"players were told of refunds that did not happen: {told[:3]}"
    except AssertionError as error:
        print(f"FAILED: {error}")
        return 1
    print(
        "OK: every balance is its ledger, every open round has its table, chips held ="
        " granted - house won, no round voided, no stake stranded, one table per channel,"
        " no refund claimed, every settled round replays to its payouts"
        if tournaments is None
        else "OK: every balance is its ledger, chips held = granted - house won, every"
        " tournament that dealt a hand finished and paid its whole pool, no hand moved an"
        " economy chip or was voided, every settled hand replays to its end, no stake stranded"
    )
    return 0


async def _soak(
    args: argparse.Namespace, url: str, outage: Outage, env: dict[str, str] | None
) -> tuple[SoakReport, TournamentTable | None, list[str]]:
    """Kill and restart the bot while the players play: the report, the tournaments' players
    (--tournament), and what the players were told of refunds."""
    async with FakeDiscord() as fake:
        casino = Casino.build(fake, "Casino", players=args.players)
        if args.side_bets:
            async with db.open_store(url) as store:
                await store.set_guild_settings(casino.guild.id, **SIDE_BET_SETTINGS)
        if args.faults:
            fake.faults.inject_rate_limits(args.share_429, routes=GAME_ROUTES, seed=args.seed)
            fake.faults.inject_errors(args.share_500, routes=GAME_ROUTES, seed=args.seed + 1)
        max_wait = 15.0 if args.faults else 5.0
        tournaments = None
        if args.tournament:
            tournaments = TournamentTable.build(fake, casino, random.Random(args.seed + 1))
            tournaments.max_wait = max_wait

        def progress(kills: int) -> None:
            if kills % 10 == 0:
                print(f"  {kills} kills", flush=True)

        report = await soak(
            fake,
            bot_process(fake, url, **(env or {})),
            casino,
            url,
            kills=args.kills,
            seed=args.seed,
            max_wait=max_wait,
            progress=progress,
            outages=args.outages,
            outage=outage,
            side_bets=SIDE_BET_OPTIONS if args.side_bets else None,
            players=tournaments,
        )
        told = [text for text in fake_texts(fake) if "refunded" in text]
    return report, tournaments, told


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--faults", action="store_true", help="inject 429s and 500s")
    parser.add_argument("--share-429", type=float, default=0.05)
    parser.add_argument("--share-500", type=float, default=0.03)
    parser.add_argument(
        "--outages", type=int, default=0, help="times the chip store goes away (at most --kills)"
    )
    parser.add_argument(
        "--side-bets",
        action="store_true",
        help="turn on 21+3, Perfect Pairs and Buster; players add them to bets at random",
    )
    parser.add_argument(
        "--tournament",
        action="store_true",
        help="play tournaments (one after another) instead of a cash table",
    )
    args = parser.parse_args()
    if args.tournament and args.side_bets:
        parser.error("tournaments take no side bets")
    print(
        f"soak: {args.kills} kills, {args.outages} outages, seed {args.seed}, {args.backend},"
        f" faults {args.faults}, side bets {args.side_bets}, tournament {args.tournament}"
    )
    if args.backend == "postgres":
        if find_postgres_bin() is None:
            print("PostgreSQL server binaries are not installed")
            return 2
        server = PostgresServer.start()
        try:
            return asyncio.run(run(args, server.create_database("soak"), PostgresOutage(server)))
        finally:
            server.stop()
    with tempfile.TemporaryDirectory(prefix="bj-soak-") as folder:
        outage = SQLiteOutage(Path(folder) / "store-fails")
        url = f"sqlite:///{Path(folder) / 'chips.sqlite3'}"
        return asyncio.run(run(args, url, outage, outage.env))


if __name__ == "__main__":
    sys.exit(main())
