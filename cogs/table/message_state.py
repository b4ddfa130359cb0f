"""What the bot knows of one table's message: where it is, what it shows, and the edits
and answers on their way to it (kept by :class:`cogs.table.messages.TableMessages`)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from bot.tables.snapshot import TableSnapshot


@dataclass
class TableMessage:
    """One table's message and its upkeep."""

    channel_id: int
    host_id: int
    guild_id: int = 0
    message_id: int | None = None
    #: When the message was posted (the bot's clock); None if unknown.
    posted_at: float | None = None
    latest: TableSnapshot | None = None
    shown: int = -1
    holds: int = 0
    task: asyncio.Task[None] | None = None
    lost: bool = False
    #: Whether the message last showed the table between rounds (betting open).
    between_rounds: bool = False
    #: The layout of the table's message (None: not known yet, as after a restart).
    layout: str | None = None
    #: A click was answered while an edit was in flight: which one Discord applied
    #: last is unknown, so the newest snapshot must be sent again.
    uncertain: bool = False
    #: Answers (type 7 with the table) whose requests are in flight.
    answering: int = 0
    #: The newest version any answer or edit has sent.
    sent: int = -1
    #: Its table's id; and whether it is a pocket table (kept up through interaction tokens).
    table_id: str = ""
    pocket: bool = False
