"""The card pictures shipped with the bot (``cogs/table/cards/*.png``) and how a table shows them.

The images are drawn by ``scripts/draw_cards.py``. Each becomes an application emoji
named ``bj_{code}_{hash}`` (``bj_AS_3f9a1c``, ``bj_back_07be42``): the hash is of the
image's bytes, so a redrawn card gets a new name and is uploaded again, while an
unchanged one is found by name in any process, on any database.

A *faces* map (card code to emoji markup, ``"AS" -> "<:bj_AS_3f9a1c:1234>"``, plus
``"back"``) is all rendering needs; no map means text cards.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from functools import cache
from importlib import resources
from typing import Final

from bot.tables.snapshot import CardView

#: Card code to emoji markup, with ``"back"`` for the hole card.
Faces = Mapping[str, str]

PREFIX: Final = "bj_"
BACK: Final = "back"
#: Hex digits of the image's SHA-256 in the emoji name: enough to tell a redrawn card.
HASH_DIGITS: Final = 6
HIDDEN_TEXT: Final = "??"
_SUIT_LETTERS: Final = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
#: A card as the service writes it in a line of text ("10♥"), standing alone between spaces.
_CARD_IN_TEXT: Final = re.compile(r"(?<!\S)(?:10|[2-9AJQK])[♠♥♦♣](?!\S)")


@cache
def card_images() -> dict[str, bytes]:
    """The 53 shipped PNGs by code: ``"AS"``, ``"10H"``, ..., ``"back"``."""
    folder = resources.files("cogs.table").joinpath("cards")
    return {
        entry.name.removesuffix(".png"): entry.read_bytes()
        for entry in sorted(folder.iterdir(), key=lambda e: e.name)
        if entry.name.endswith(".png")
    }


def emoji_name(code: str, image: bytes) -> str:
    """``bj_AS_3f9a1c``: letters, digits and underscores, 2-32 long, as Discord wants."""
    return f"{PREFIX}{code}_{hashlib.sha256(image).hexdigest()[:HASH_DIGITS]}"


def wanted_names() -> dict[str, str]:
    """Emoji name to card code, for every shipped image."""
    return {emoji_name(code, image): code for code, image in card_images().items()}


def markup(name: str, emoji_id: int) -> str:
    """How a message shows a custom emoji: ``<:bj_AS_3f9a1c:1234>``."""
    return f"<:{name}:{emoji_id}>"


def code_of(text: str) -> str:
    """``"10♥"`` -> ``"10H"``: the card's code in file and emoji names."""
    return text[:-1] + _SUIT_LETTERS[text[-1]]


def card_row(cards: Iterable[CardView], faces: Faces | None) -> str:
    """``A♠ 10♥`` as text, or the pictures side by side."""
    if faces is None:
        return " ".join(card.text for card in cards)
    return "".join(faces[code_of(card.text)] for card in cards)


def hidden_card(faces: Faces | None) -> str:
    """The dealer's hole card: ``??``, or the card back."""
    return HIDDEN_TEXT if faces is None else faces[BACK]


def cards_in_line(line: str, faces: Faces | None) -> str:
    """A line the service wrote ("alice: 8♠ 3♥ — 11 wins") with its cards as pictures."""
    if faces is None:
        return line
    return _CARD_IN_TEXT.sub(lambda found: faces[code_of(found.group())], line)


def picture_count(text: str) -> int:
    """How many custom emojis a piece of text shows."""
    return text.count("<:")
