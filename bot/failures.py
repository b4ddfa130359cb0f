"""The one answer to a command or click that failed rather than was refused.

A refusal (a ``TableError``, a play gate's no) is answered where it is raised; what is
left is a failure. A chip store outage is not a bug: it is answered as the table
answers it ("the chip store is unavailable... try again in a moment") and logged as one
WARNING line. Anything else is a bug: logged with its traceback, and apologised for.

The command tree's ``on_error`` answers commands through :func:`answer_failure`;
listeners, dynamic items and modals, which discord.py gives no shared error handler,
answer theirs through :func:`failures_answered`.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Mapping
from typing import Any, Final

import discord

import db
from bot.discord_reply import tell
from bot.i18n import _
from bot.tables.opening import NO_STORE

log = logging.getLogger(__name__)

#: A bug's answer: whatever it was, nothing of it was committed.
WENT_WRONG: Final = _("Something went wrong on my side; nothing was changed. Please try again.")


def store_outage(error: BaseException) -> db.StoreUnavailable | None:
    """The chip store outage behind ``error`` (itself, the command's original error, or
    their cause), or None when ``error`` is something else."""
    seen: BaseException | None = error
    for _depth in range(4):  # an invoke error, its original, and their causes
        if seen is None:
            return None
        if isinstance(seen, db.StoreUnavailable):
            return seen
        seen = getattr(seen, "original", None) or seen.__cause__
    return None


async def answer_failure(
    interaction: discord.Interaction[Any],
    error: BaseException,
    what: str,
    *,
    logger: logging.Logger = log,
    extra: Mapping[str, object] | None = None,
) -> None:
    """Answer ``what`` (``"command balance"``, ``"a click on the leaderboard"``) that failed
    with ``error``, ephemerally, and log it to ``logger`` (the caller's, so a line names
    where it failed), with ``extra``: a WARNING line for an outage, a traceback else."""
    outage = store_outage(error)
    if outage is not None:
        logger.warning("%s: the chip store is unavailable (%s)", what, outage, extra=extra)
        text = NO_STORE
    else:
        logger.error("%s failed", what, exc_info=error, extra=extra)
        text = WENT_WRONG
    with contextlib.suppress(discord.HTTPException):  # Discord refuses this one too
        await tell(interaction, text)


@contextlib.asynccontextmanager
async def failures_answered(
    interaction: discord.Interaction[Any], what: str, logger: logging.Logger = log
) -> AsyncIterator[None]:
    """Around a listener's, dynamic item's or modal's work: a failure is answered."""
    try:
        yield
    except Exception as error:
        await answer_failure(interaction, error, what, logger=logger)
