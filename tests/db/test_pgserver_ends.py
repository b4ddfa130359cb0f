"""The test session's PostgreSQL server ends with the session, however the session ends."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.bot_command import ROOT
from tests.pgserver import PostgresServer
from tests.processes import Running, gone_within, in_group, within

#: A session that starts a server, says where, and waits to be killed.
SESSION = """
from tests.pgserver import PostgresServer
server = PostgresServer.start()
print(server.root, flush=True)
input()
"""


def test_a_server_ends_and_its_files_go_when_its_session_is_sigkilled(
    pg_server: PostgresServer,  # the same need (and absence policy) as every PostgreSQL test
) -> None:
    session = subprocess.Popen(
        [sys.executable, "-c", SESSION],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert session.stdout is not None
    root = Path(session.stdout.readline().strip())
    postmaster = int((root / "data" / "postmaster.pid").read_text().split()[0])
    group = os.getpgid(postmaster)
    assert in_group(group)

    session.send_signal(signal.SIGKILL)
    session.wait()

    assert gone_within(30, lambda: _server(group)) == []
    assert within(30, lambda: not root.exists())  # the watcher deletes them next


def _server(group: int) -> list[Running]:
    """The server's processes (the postmaster leads their group)."""
    return in_group(group)
