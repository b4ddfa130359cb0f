"""Discord's limits on a message, and the helpers that keep text inside them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import discord

# https://discord.com/developers/docs/resources/message#embed-object-embed-limits
EMBED_TOTAL_LIMIT: Final = 6000
TITLE_LIMIT: Final = 256
DESCRIPTION_LIMIT: Final = 4096
FIELD_LIMIT: Final = 25
FIELD_NAME_LIMIT: Final = 256
FIELD_VALUE_LIMIT: Final = 1024
FOOTER_LIMIT: Final = 2048
CUSTOM_ID_LIMIT: Final = 100
ROWS_LIMIT: Final = 5
BUTTONS_PER_ROW: Final = 5


def clip_lines(lines: Sequence[str], limit: int) -> str:
    """Join lines, dropping whole lines from the end (with an ellipsis) to stay within limit."""
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    kept: list[str] = []
    used = 1  # the ellipsis line
    for line in lines:
        cost = len(line) + (1 if kept else 0)
        if used + cost + 1 > limit:
            break
        kept.append(line)
        used += cost
    if not kept:
        return lines[0][: limit - 1] + "…" if lines else ""
    return "\n".join([*kept, "…"])


def clip(text: str, limit: int) -> str:
    """Cut a single line to ``limit`` characters, with an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def embed_size(embed: discord.Embed) -> int:
    """Characters Discord counts toward the 6000 limit (title, description, fields' names
    and values, footer, author): ``len(embed)``, as discord.py documents it."""
    return len(embed)


def field_count(embed: discord.Embed) -> int:
    """How many fields the embed has."""
    return len(embed.fields)
