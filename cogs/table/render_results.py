"""The table's last round and its news, packed into embed fields within Discord's limits."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Final

import discord

from bot.i18n import _, tr
from bot.tables.snapshot import TableSnapshot
from cogs.table.card_art import Faces, cards_in_line, picture_count
from cogs.table.embed_limits import (
    EMBED_TOTAL_LIMIT,
    FIELD_LIMIT,
    FIELD_VALUE_LIMIT,
    clip,
    embed_size,
    field_count,
)

LAST_ROUND: Final = _("Last round")
#: The name of a field that carries on the one above it: blank to the reader (Discord
#: needs a name), so it does not read as a new section.
CONTINUED: Final = "\u200b"
#: Kept free for the shuffle notice and the latest events when the last round is long.
EXTRAS_ROOM: Final = 400


def newest_lines(lines: Sequence[str], limit: int) -> str:
    """The newest lines (the last ones) that fit in ``limit``: older news gives way first."""
    kept: list[str] = []
    used = 0
    for line in reversed(lines):
        cost = len(line) + (1 if kept else 0)
        if used + cost > limit:
            break
        kept.append(line)
        used += cost
    if not kept and lines:
        return clip(lines[-1], limit)
    return "\n".join(reversed(kept))


def add_last_round(
    embed: discord.Embed, snapshot: TableSnapshot, faces: Faces | None = None
) -> int | None:
    """The last round at a glance (the dealer's line, one line per player) over as many
    fields as it takes: with ``faces``, its cards as pictures first, then as text.

    The number of pictures shown, or None if nothing fits (the caller then clips what it
    can into one field).
    """
    lines = [escape_line(tr(line)) for line in snapshot.last_summary]
    choices = [lines]
    if faces is not None:
        choices.insert(0, [cards_in_line(line, faces) for line in lines])
    for shown in choices:
        chunks = field_chunks([[line] for line in shown])
        names = [CONTINUED if index else tr(LAST_ROUND) for index in range(len(chunks))]
        size = sum(len(name) + len(chunk) for name, chunk in zip(names, chunks, strict=True))
        fits = field_count(embed) + len(chunks) < FIELD_LIMIT
        if chunks and fits and embed_size(embed) + size <= EMBED_TOTAL_LIMIT - EXTRAS_ROOM:
            for name, chunk in zip(names, chunks, strict=True):
                embed.add_field(name=name, value=chunk, inline=False)
            return sum(picture_count(chunk) for chunk in chunks)
    return None


def field_chunks(blocks: Sequence[Sequence[str]]) -> list[str]:
    """Whole blocks of lines packed into field values of at most FIELD_VALUE_LIMIT each;
    a block too long for a field of its own is packed line by line."""
    lines: list[str] = []
    for block in blocks:
        text = "\n".join(block)
        if len(text) <= FIELD_VALUE_LIMIT:
            lines.append(text)
        else:
            lines += block
    chunks: list[str] = []
    current: list[str] = []
    size = 0
    for line in (clip(line, FIELD_VALUE_LIMIT) for line in lines):
        cost = len(line) + (1 if current else 0)
        if current and size + cost > FIELD_VALUE_LIMIT:
            chunks.append("\n".join(current))
            current, size, cost = [], 0, len(line)
        current.append(line)
        size += cost
    if current:
        chunks.append("\n".join(current))
    return chunks


@functools.lru_cache(maxsize=4096)
def escape_line(line: str) -> str:
    """A service-written line may hold player names: keep mentions from pinging.

    Remembered: a table shows its latest lines again after every change."""
    return discord.utils.escape_mentions(line)
