"""Can the database take a write? A probe rolled back, and a SQLite file's fault in words.

A database that opens and reads may still refuse every write: an immutable file
(``chattr +i``), a read-only mount or folder (SQLite writes its journal beside the
file), a full disk. Start-up and ``python -m bot check`` write one row in a
transaction and roll it back, so such a database is named before the bot takes a
click it cannot store.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path

from db.errors import StoreConfigError, StoreError, StoreUnavailable
from db.statements import Op, Query


class RolledBack(Exception):
    """Raised by :func:`probe` after its write, so the backend rolls the transaction back."""


def probe() -> Op[None]:
    """Write one row and give it up: the backend's transaction rolls back on RolledBack."""
    yield Query(
        "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
        (-1, "write probe, rolled back", 0),
    )
    raise RolledBack


async def check(
    transact: Callable[..., Awaitable[None]], refused: Callable[[Exception], str]
) -> None:
    """Run :func:`probe` in a write transaction of the backend's ``transact`` (straight to
    the backend: the probe is no operation for the observer to count); StoreConfigError
    with ``refused``'s words if the database took no write, nothing if it rolled back."""
    try:
        await transact(probe, write=True)
    except RolledBack:
        return
    except StoreUnavailable as error:  # the database's own refusal, in a backend's words
        raise StoreConfigError(refused(error)) from error
    except StoreError:
        raise
    except Exception as error:
        raise StoreConfigError(refused(error)) from error


def sqlite_fault(path: str, error: sqlite3.Error) -> str:
    """What is wrong with the SQLite file ``path`` or its folder, as one sentence with the fix.

    ``error`` is what SQLite said when opening, configuring or writing it.
    """
    file = Path(path).absolute()
    folder = file.parent
    code = getattr(error, "sqlite_errorname", "")
    where = repr(str(file))
    if file.is_dir():
        return f"DATABASE_URL names the folder {where}, not a file: name the SQLite file in it"
    if code == "SQLITE_NOTADB":
        return f"{where} is not a SQLite database ({error}): check DATABASE_URL"
    if code == "SQLITE_FULL":
        return f"the disk holding {where} is full ({error}): free some space"
    if folder.is_dir() and os.statvfs(folder).f_flag & os.ST_RDONLY:
        return f"{where} is on a read-only mount: the bot must write the file and its journal"
    if file.exists():
        try:
            os.close(os.open(file, os.O_WRONLY | os.O_NONBLOCK))
        except OSError as exc:
            return (
                f"the SQLite file {where} cannot be written ({exc.strerror}):"
                " make it writable (chmod u+w; chattr -i if it is immutable)"
            )
    if folder.is_dir() and not os.access(folder, os.W_OK | os.X_OK):
        return (
            f"the folder {str(folder)!r} cannot be written, and SQLite keeps its journal"
            " beside the file: make the folder writable"
        )
    return f"the SQLite file {where} cannot be used ({error}): check DATABASE_URL"
