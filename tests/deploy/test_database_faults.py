"""A database file or folder that cannot serve the bot (issue 27, part 3), and secrets in URLs.

``python -m bot``, ``check`` and ``copy-db`` each say in one line what is wrong (no
traceback) and exit non-zero. Start-up and ``check`` write a row in a transaction and
roll it back, so an immutable file is found before the first click. The files are real:
an immutable file and a folder that cannot be written (``chattr +i``, which needs root
on ext4, as the tests run in CI; root ignores a folder's mode bits, so ``chattr +i``
stands for a read-only folder), a text file, ``/dev/full`` as a full disk.
"""

from __future__ import annotations

import asyncio
import socket
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import db
from tests.bot_command import bot_command
from tests.pgserver import PostgresServer

#: Nothing listens here: a Discord that is never reached, a PostgreSQL that is never reached.
CLOSED = "127.0.0.1:9"
START = {"DISCORD_TOKEN": "a-token", "DISCORD_API_BASE": f"http://{CLOSED}/api/v10"}
CONFIG_EXIT = 2


def one_line(result: subprocess.CompletedProcess[str]) -> str:
    """The one line a failed command printed (and nothing on stdout but the passed checks)."""
    assert "Traceback" not in result.stderr, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    return lines[0]


def start(tmp_path: Path, url: str) -> str:
    """``python -m bot`` on ``url``: it must refuse to start; its one line."""
    result = bot_command(tmp_path, DATABASE_URL=url, LOG_LEVEL="WARNING", **START)
    assert result.returncode == CONFIG_EXIT, result.stderr
    return one_line(result)


def check(tmp_path: Path, url: str) -> str:
    """``python -m bot check --no-token`` on ``url``: it must fail; its one line."""
    result = bot_command(tmp_path, "check", "--no-token", DATABASE_URL=url)
    assert result.returncode == 1, result.stderr
    assert result.stdout == "config: ok\n"
    return one_line(result)


def copy_db(tmp_path: Path, url: str, to: str = f"postgresql://bot@{CLOSED}/blackjack") -> str:
    """``python -m bot copy-db --to TO`` from ``url``: it must fail; its one line."""
    result = bot_command(tmp_path, "copy-db", "--to", to, DATABASE_URL=url)
    assert result.returncode != 0, result.stderr
    assert result.stdout == ""
    return one_line(result)


def created_by_the_bot(path: Path) -> str:
    """A database as the bot leaves it on its first start; its URL."""
    url = f"sqlite:///{path}"

    async def create() -> None:
        async with db.open_store(url):
            pass

    asyncio.run(create())
    return url


@contextmanager
def immutable(path: Path) -> Iterator[None]:
    """``chattr +i path`` for the block: not even root may write it (or, a folder, add to it)."""
    subprocess.run(["chattr", "+i", str(path)], check=True)
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def test_an_immutable_file_fails_check_and_start_up_instead_of_every_write(
    tmp_path: Path,
) -> None:
    url = created_by_the_bot(tmp_path / "chips.sqlite3")
    before = (tmp_path / "chips.sqlite3").read_bytes()
    with immutable(tmp_path / "chips.sqlite3"):
        said = (
            f"the SQLite file '{tmp_path}/chips.sqlite3' cannot be written"
            " (Operation not permitted): make it writable"
        )
        assert check(tmp_path, url).startswith(f"database: FAILED: {said}")
        assert start(tmp_path, url).startswith(f"error: {said}")
    assert (tmp_path / "chips.sqlite3").read_bytes() == before
    passed = bot_command(tmp_path, "check", "--no-token", DATABASE_URL=url)
    assert passed.returncode == 0, passed.stderr  # the probe's row was rolled back


def test_a_folder_that_cannot_be_written_is_named(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    url = created_by_the_bot(folder / "chips.sqlite3")
    said = f"the folder '{folder}' cannot be written, and SQLite keeps its journal beside the file"
    with immutable(folder):
        assert check(tmp_path, url) == f"database: FAILED: {said}: make the folder writable"
        assert start(tmp_path, url) == f"error: {said}: make the folder writable"
        assert (
            copy_db(tmp_path, url)
            == f"copy-db: FAILED, nothing was copied: {said}: make the folder writable"
        )


def test_a_file_that_is_not_sqlite_is_named(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("shopping list: milk, eggs, more chips than anyone needs\n" * 20)
    url = f"sqlite:///{text}"
    said = f"'{text}' is not a SQLite database (file is not a database): check DATABASE_URL"
    assert check(tmp_path, url) == f"database: FAILED: {said}"
    assert start(tmp_path, url) == f"error: {said}"
    assert copy_db(tmp_path, url) == f"copy-db: FAILED, nothing was copied: {said}"
    assert text.read_text().startswith("shopping list")


def test_a_read_only_postgresql_database_is_named(
    tmp_path: Path, pg_server: PostgresServer
) -> None:
    url = pg_server.create_database("readonly")
    name = url.split("?")[0].rsplit("/", 1)[1]

    async def create() -> None:
        async with db.open_store(url):
            pass

    asyncio.run(create())
    passed = bot_command(tmp_path, "check", "--no-token", DATABASE_URL=url)
    assert passed.returncode == 0, passed.stderr  # the probe's write passes and leaves nothing
    assert pg_server.psql("SELECT count(*) FROM schema_version WHERE version < 0", name) == "0\n"
    pg_server.psql(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
    said = "the database refused a write (ReadOnlySQLTransactionError: cannot execute {} in a"
    # check writes its probe row; start-up's migration writes first, and is refused as well.
    assert (
        check(tmp_path, url) == f"database: FAILED: {said.format('INSERT')} read-only transaction)"
    )
    assert start(tmp_path, url) == f"error: {said.format('CREATE TABLE')} read-only transaction)"


@pytest.fixture
def dev_full() -> Iterator[str]:
    """``sqlite:////dev/full``, a disk that is always full; SQLite's journal beside it
    (in /dev) is removed afterwards."""
    journal = Path("/dev/full-journal")
    existed = journal.exists()
    yield "sqlite:////dev/full"
    if not existed:
        journal.unlink(missing_ok=True)


def test_a_full_disk_is_named(tmp_path: Path, dev_full: str) -> None:
    said = "the disk holding '/dev/full' is full (database or disk is full): free some space"
    assert check(tmp_path, dev_full) == f"database: FAILED: {said}"
    assert start(tmp_path, dev_full) == f"error: {said}"
    assert (
        copy_db(tmp_path, dev_full)
        == "error: there is no SQLite file at '/dev/full' (DATABASE_URL)"
    )


def test_a_folder_as_the_database_is_one_line_every_time(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    url = f"sqlite:///{tmp_path}/data"
    said = (
        f"DATABASE_URL names the folder '{tmp_path}/data', not a file: name the SQLite file in it"
    )
    assert check(tmp_path, url) == f"database: FAILED: {said}"
    # aiosqlite's thread once reported this failure to the closed event loop as well, in
    # about half the runs: several runs show the one line alone.
    for _ in range(4):
        assert start(tmp_path, url) == f"error: {said}"


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        pytest.param(
            f"postgresql://bot:s3cret-pw@{CLOSED}/blackjack",
            f"postgresql://bot:***@{CLOSED}/blackjack",
            id="user-password",
        ),
        pytest.param(
            f"postgresql://bot@{CLOSED}/blackjack?password=s3cret-pw&sslmode=disable",
            f"postgresql://bot@{CLOSED}/blackjack?password=***&sslmode=disable",
            id="parameter",
        ),
        pytest.param(
            "postgresql://bot:s3cret-pw@[::1/blackjack",
            "postgresql://bot:***@[::1/blackjack",
            id="does-not-parse",
        ),
    ],
)
def test_a_password_in_a_database_url_is_never_printed(
    tmp_path: Path, url: str, shown: str
) -> None:
    checked = bot_command(tmp_path, "check", "--no-token", DATABASE_URL=url)
    started = bot_command(tmp_path, DATABASE_URL=url, LOG_LEVEL="WARNING", **START)
    source = created_by_the_bot(tmp_path / "chips.sqlite3")
    copied = bot_command(tmp_path, "copy-db", "--to", url, DATABASE_URL=source)
    for result in (checked, started, copied):
        assert result.returncode != 0
        line = one_line(result)
        assert "s3cret-pw" not in line
        assert shown in line


def test_a_password_in_a_mistyped_database_url_is_never_printed(tmp_path: Path) -> None:
    url = "postgressql://bot:s3cret-pw@localhost/blackjack"
    for command in (("check", "--no-token"), ()):
        result = bot_command(tmp_path, *command, DATABASE_URL=url, **START)
        assert result.returncode != 0
        line = one_line(result)
        assert "s3cret-pw" not in line
        assert line.endswith("not 'postgressql://bot:***@localhost/blackjack'")


def test_a_busy_metrics_port_is_named_before_discord_is_tried(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = bot_command(
            tmp_path,
            DATABASE_URL=f"sqlite:///{tmp_path}/chips.sqlite3",
            METRICS_PORT=str(port),
            LOG_LEVEL="WARNING",
            **START,
        )
    assert result.returncode == CONFIG_EXIT
    assert one_line(result).startswith(
        f"error: cannot serve metrics on 127.0.0.1:{port} (Address already in use): "
        "set METRICS_PORT to a free port"
    )
