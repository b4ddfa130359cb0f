"""A throwaway PostgreSQL server for tests and benchmarks: initdb, pg_ctl start, stop.

Usage::

    server = PostgresServer.start()          # or find_postgres_bin() is None -> not installed
    url = server.create_database("t1")      # postgresql://postgres@/t1?host=<socket dir>&port=...
    ...
    server.stop()

The server listens only on a unix socket in its own temporary directory. As
root (initdb refuses to run as root) it runs as the ``postgres`` system user,
which Debian's postgresql package creates. Used by the suite-wide ``pg_server``
fixture in tests/conftest.py and by bench/db.py.

The server ends with the process that started it, however that process ends: ``pg_ctl``
detaches the server, so a watcher (this file run as a script) holds a pipe from the
starting process and, at its end of file, stops the server and deletes its files. A
test session killed by a timeout or SIGKILL leaves no server behind.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from glob import glob
from itertools import count
from pathlib import Path
from typing import Final

INSTALL_HINT: Final = (
    "PostgreSQL server binaries (initdb, pg_ctl) were not found on PATH or in"
    " /usr/lib/postgresql/*/bin; install them with"
    " `apt-get update && apt-get install -y postgresql`"
)
_PORT: Final = 5432  # only names the socket file: nothing listens on TCP


def find_postgres_bin() -> Path | None:
    """The folder holding initdb, pg_ctl and postgres, or None if not installed."""
    on_path = shutil.which("initdb")
    if on_path and shutil.which("pg_ctl"):
        return Path(on_path).resolve().parent
    candidates = sorted(
        glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0,
    )
    return Path(candidates[-1]).parent if candidates else None


def _as_postgres_user() -> tuple[Callable[[], None] | None, int | None]:
    """A preexec function that drops to the postgres user when we are root, and its uid."""
    if os.geteuid() != 0:
        return None, None
    try:
        user = pwd.getpwnam("postgres")
    except KeyError as exc:
        raise RuntimeError(
            "running as root, and there is no 'postgres' user to run the server as;"
            " install Debian's postgresql package or run the tests as a normal user"
        ) from exc

    def drop() -> None:
        os.setgid(user.pw_gid)
        os.setuid(user.pw_uid)

    return drop, user.pw_uid


@dataclass
class PostgresServer:
    """A running throwaway server. ``stop()`` shuts it down and deletes its files."""

    bin_dir: Path
    root: Path
    #: The server's options (``pg_ctl start -o``), to start it again after an outage.
    options: str = ""
    #: The watcher that stops the server when its input closes (see the module's doc).
    watcher: subprocess.Popen[bytes] | None = None
    _names: Iterator[int] = field(default_factory=lambda: count(1))

    @property
    def socket_dir(self) -> Path:
        """Where the server's unix socket lives."""
        return self.root

    @classmethod
    def start(cls, *, durable: bool = False) -> PostgresServer:
        """initdb into a new temporary folder and start the server.

        ``durable=False`` turns fsync off: fine for tests, which kill processes
        but never the machine. Benchmarks pass ``durable=True``.
        """
        bin_dir = find_postgres_bin()
        if bin_dir is None:
            raise RuntimeError(INSTALL_HINT)
        drop, uid = _as_postgres_user()
        root = Path(tempfile.mkdtemp(prefix="bj-pg-"))
        watcher = _watch(bin_dir, root)
        if uid is not None:
            os.chown(root, uid, -1)
        data = root / "data"
        run = _runner(drop)
        run([str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust",
             "--encoding=UTF8", "--locale=C.UTF-8", "--no-sync"])  # fmt: skip
        options = f"-c listen_addresses='' -c unix_socket_directories={root} -p {_PORT}"
        options += " -c max_connections=200 -c shared_buffers=64MB"
        if not durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        run([str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(root / "server.log"),
             "-o", options, "-w", "-t", "60", "start"])  # fmt: skip
        return cls(bin_dir, root, options, watcher)

    def go_down(self) -> None:
        """An outage: ``pg_ctl stop -m fast`` (open connections are cut, the files stay)."""
        drop, _ = _as_postgres_user()
        _runner(drop)(
            [str(self.bin_dir / "pg_ctl"), "-D", str(self.root / "data"), "-m", "fast", "-w",
             "stop"]
        )  # fmt: skip

    def come_back(self) -> None:
        """The end of an outage: ``pg_ctl start`` with the same options and files."""
        drop, _ = _as_postgres_user()
        _runner(drop)(
            [str(self.bin_dir / "pg_ctl"), "-D", str(self.root / "data"), "-l",
             str(self.root / "server.log"), "-o", self.options, "-w", "-t", "60", "start"]
        )  # fmt: skip

    def url(self, database: str = "postgres") -> str:
        """A postgresql:// URL for ``database`` on this server (over the unix socket)."""
        return f"postgresql://postgres@/{database}?host={self.socket_dir}&port={_PORT}"

    def create_database(self, prefix: str = "test") -> str:
        """A new empty database; its URL."""
        name = f"{prefix}_{next(self._names)}"
        self.psql(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def psql(self, sql: str, database: str = "postgres") -> str:
        """Run SQL with psql as the superuser; its output."""
        result = subprocess.run(
            [str(self.bin_dir / "psql"), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
             "-h", str(self.socket_dir), "-p", str(_PORT), "-U", "postgres", "-d", database,
             "-c", sql],
            check=True, capture_output=True, text=True,
        )  # fmt: skip
        return result.stdout

    def stop(self) -> None:
        """Stop the server and delete its files (its watcher does, told by its input's end)."""
        if self.watcher is None:
            self.shut_down()
            return
        assert self.watcher.stdin is not None
        self.watcher.stdin.close()
        self.watcher.wait(timeout=120)

    def shut_down(self) -> None:
        """``pg_ctl stop -m immediate`` (if it runs), then delete the server's files."""
        drop, _ = _as_postgres_user()
        with contextlib.suppress(RuntimeError):  # it was not running (an outage left it down)
            _runner(drop)(
                [str(self.bin_dir / "pg_ctl"), "-D", str(self.root / "data"), "-m", "immediate",
                 "-w", "stop"]
            )  # fmt: skip
        shutil.rmtree(self.root, ignore_errors=True)


def _watch(bin_dir: Path, root: Path) -> subprocess.Popen[bytes]:
    """Start this file as the watcher of the server in ``root``.

    In a session of its own, so that a Ctrl-C to the tests' process group does not end
    it before the server it has to stop.
    """
    return subprocess.Popen(
        [sys.executable, __file__, str(bin_dir), str(root)],
        stdin=subprocess.PIPE,
        cwd="/",
        start_new_session=True,
    )


def _runner(preexec: Callable[[], None] | None) -> Callable[[list[str]], None]:
    def run(argv: list[str]) -> None:
        result = subprocess.run(
            argv, preexec_fn=preexec, capture_output=True, text=True, check=False, cwd="/"
        )
        if result.returncode != 0:
            output = result.stdout + result.stderr
            raise RuntimeError(f"{Path(argv[0]).name} failed ({result.returncode}):\n{output}")

    return run


def start_for_tests() -> PostgresServer:
    """Start a server for a test session; without PostgreSQL, skip (or fail when CI is set)."""
    import pytest

    if find_postgres_bin() is None:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set and PostgreSQL is missing: {INSTALL_HINT}", pytrace=False)
        pytest.skip(INSTALL_HINT)
    return PostgresServer.start()


if __name__ == "__main__":  # the watcher: python pgserver.py BIN_DIR ROOT
    sys.stdin.buffer.read()  # until the starting process closes the pipe or ends
    PostgresServer(Path(sys.argv[1]), Path(sys.argv[2])).shut_down()
