"""``python -m bot playground [--port 8765] [--db FILE]``: play in a browser, no Discord account.

Starts a local Discord (the ``fakediscord`` package), the real bot connected to it
the way it connects to discord.com, a SQLite database of its own (a temporary
file unless ``--db`` names one) and a web page on 127.0.0.1 that shows the
server's channels as Discord does. Ctrl-C stops it; open rounds are refunded.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
import tempfile
from pathlib import Path

DEFAULT_PORT = 8765
#: The ports the page may listen on; 0 is any free one (the page's address is printed).
PORTS = range(0, 65536)


def tcp_port(text: str) -> int:
    """``--port``'s value: a whole number from 0 to 65535 (argparse says so otherwise)."""
    try:
        port = int(text)
    except ValueError:
        port = -1
    if port not in PORTS:
        raise argparse.ArgumentTypeError(f"must be {PORTS[0]} to {PORTS[-1]}, not {text!r}")
    return port


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--port",
        type=tcp_port,
        default=DEFAULT_PORT,
        help=f"the page's port, 0 (any free one) to 65535 (default {DEFAULT_PORT})",
    )
    parser.add_argument(
        "--db",
        type=Path,
        default=None,
        help=(
            "SQLite file for the chips (default: a temporary one, deleted at exit); the server,"
            " channels and players are kept beside it (FILE.world.json) for the next run"
        ),
    )


def run(args: argparse.Namespace) -> int:
    """Serve until Ctrl-C."""
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        with tempfile.TemporaryDirectory(prefix="blackjack-playground-") as scratch:
            path = args.db or Path(scratch) / "playground.sqlite3"
            asyncio.run(_serve(path.resolve(), args.port, keep=args.db is not None))
    except KeyboardInterrupt:
        pass
    except OSError as error:
        print(f"error: {error} (another --port?)", file=sys.stderr)
        return 1
    return 0


async def _serve(database: Path, port: int, *, keep: bool) -> None:
    """Serve a playground on ``database``; ``keep``: its server, channels and players are
    kept beside it, so the next run on the same file finds its chips and tables again."""
    # Imported here: the fake Discord, aiohttp's server and the bot load only for this command.
    from playground.running import Playground
    from playground.saved_world import world_file_for
    from playground.web import serving

    world_file = world_file_for(database) if keep else None
    playground = Playground(f"sqlite:///{database}", world_file=world_file)

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):  # not on Windows
            loop.add_signal_handler(signum, stop.set)
    async with serving(playground, port=port) as url:
        print(f"The playground is at {url} (Ctrl-C stops it).", flush=True)
        await stop.wait()
    print("The playground stopped.", flush=True)
