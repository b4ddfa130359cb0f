"""A member's name made safe to show in any text the bot writes: one function, used everywhere.

Display names are chosen by anyone, so a name is untrusted input inside our own
sentences. ``shown_name`` keeps it readable exactly as written while making it
harmless in Discord's Markdown:

- every Markdown character is escaped with a backslash (Discord shows ``\\*`` as
  ``*``), which also breaks masked links ``[text](url)``, bare links (``https\\://``),
  headings, quotes, lists, spoilers and code spans;
- ``<`` is escaped, so ``<@id>``, ``<#id>``, ``<@&id>`` and ``<t:…>`` stay text, and
  ``@`` is followed by a zero-width space (as discord.py's ``escape_mentions``
  does), so ``@everyone`` cannot ping from message content;
- bidirectional controls (U+202A–U+202E, U+2066–U+2069, marks) and other control
  characters are removed; a name written in a right-to-left script is wrapped in
  an isolate (U+2068 … U+2069) so it cannot reorder the rest of its line;
- whitespace runs become one space (a name cannot add lines), and the name is cut
  to ``NAME_LIMIT`` characters.

discord.utils.escape_markdown leaves URLs, ``#``, ``-``, ``<`` and ``:`` alone, and
neither it nor escape_mentions touches bidi controls, newlines or length; this
module does not import discord, so the table service can use it too.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Final

#: Discord's own limit for a display name; longer names (from elsewhere) are cut.
NAME_LIMIT: Final = 32
#: Shown when nothing visible is left of a name.
NO_NAME: Final = "player"

_BIDI_CONTROLS: Final = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
_FIRST_STRONG_ISOLATE: Final = "\u2068"
_POP_DIRECTIONAL_ISOLATE: Final = "\u2069"
#: Characters with a meaning in Discord's Markdown (or in mentions, timestamps and links).
_MARKDOWN: Final = re.compile(r"([\\*_~`|>#\-\[\]()<:])")


def _cleaned(char: str) -> str:
    """A bidi control goes; a control character or line break becomes a space."""
    if char in _BIDI_CONTROLS:
        return ""
    return " " if unicodedata.category(char) in ("Cc", "Zl", "Zp") else char


#: Characters that print as nothing though they are not controls: format characters
#: (category Cf: zero-width spaces and joiners, the word joiner, U+FEFF) and the blank
#: letters Discord accepts in a name (Hangul fillers, the braille blank).
_BLANK_LETTERS: Final = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e")


def _invisible(text: str) -> bool:
    """Whether ``text`` would show as blank: only spaces and characters that print nothing."""
    return all(
        char.isspace() or char in _BLANK_LETTERS or unicodedata.category(char) == "Cf"
        for char in text
    )


def _right_to_left(text: str) -> bool:
    return any(unicodedata.bidirectional(char) in ("R", "AL") for char in text)


@functools.lru_cache(maxsize=4096)
def shows_blank(name: str) -> bool:
    """Whether nothing of ``name`` would be seen (zero-width characters, controls, spaces):
    the caller shows the account's name instead, where it has one. Cached: every /bet and
    click reads its presser's name."""
    return _invisible("".join(_cleaned(char) for char in name))


@functools.lru_cache(maxsize=4096)
def shown_name(name: str, limit: int = NAME_LIMIT) -> str:
    """``name`` as written, harmless in Discord Markdown, on one line, at most ``limit``
    characters (a display name's limit unless told: an admin's reason may be longer)."""
    # Cached: every render of a table shows every seated name again.
    cleaned = "".join(_cleaned(char) for char in name)
    cleaned = " ".join(cleaned.split())
    if _invisible(cleaned):  # empty, or zero-width characters only: a blank in a sentence
        return NO_NAME
    if len(cleaned) > limit:
        cleaned = cleaned[: limit - 1].rstrip() + "…"
    shown = _MARKDOWN.sub(r"\\\1", cleaned).replace("@", "@\u200b")
    if _right_to_left(shown):
        shown = f"{_FIRST_STRONG_ISOLATE}{shown}{_POP_DIRECTIONAL_ISOLATE}"
    return shown
