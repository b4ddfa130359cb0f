"""``python -m bot [SUBCOMMAND]``: the one entry point.

With no subcommand it starts the Discord bot. The subcommands are small tools
that use the same engine: ``play`` (a terminal table), ``verify`` (check a
revealed shoe seed), ``strategy``, ``edge``, ``ev``, ``simulate``, ``side-bets``,
``check`` (the health check), ``backup`` and ``copy-db`` (for hosts), and
``playground`` (the bot on a local Discord, in a browser).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

#: subcommand -> (module under bot.cli, one-line help)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "run": ("bot.cli.run", "start the Discord bot (the default)"),
    "play": ("bot.cli.play", "play blackjack at a terminal table, 1 to 7 hands"),
    "verify": ("bot.cli.verify", "print a seed's commitment and the shoe it shuffles to"),
    "strategy": ("bot.cli.strategy", "print basic strategy for a set of rules"),
    "edge": ("bot.cli.edge", "compute the house edge of basic strategy"),
    "ev": ("bot.cli.ev", "what each action is worth for one exact hand (decision values)"),
    "simulate": ("bot.cli.simulate", "simulate rounds and measure the house edge"),
    "side-bets": ("bot.cli.side_bets", "the exact house edge of the side bets' pay tables"),
    "check": ("bot.cli.check", "check configuration and database, for health checks"),
    "backup": ("bot.cli.backup", "copy the SQLite database consistently, while the bot runs"),
    "copy-db": ("bot.cli.copy_db", "copy the SQLite database into an empty PostgreSQL one"),
    "playground": ("bot.cli.playground", "play in a browser on a local Discord, no account"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="The Blackjack table bot. With no command it starts the Discord bot; the "
        "commands below are tools that use the same engine.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        module = importlib.import_module(module_name)
        command = sub.add_parser(name, help=help_text, description=help_text)
        module.add_arguments(command)
        command.set_defaults(run=module.run)
    return parser


#: Exit statuses as a shell reports a signal: 128 + SIGINT, 128 + SIGPIPE.
INTERRUPTED = 130
BROKEN_PIPE = 141


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv) or ["run"])
    try:
        code: int = args.run(args)
        sys.stdout.flush()
    except KeyboardInterrupt:
        # Ctrl-C in a tool: what it printed so far stands; no traceback.
        print("\nStopped (Ctrl-C).", file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:
        # The reader went away (``verify ... | head``): nothing more to say to it.
        # Point stdout at /dev/null so the interpreter's final flush cannot fail again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return BROKEN_PIPE
    return code


if __name__ == "__main__":
    sys.exit(main())
