"""The words and signs of amounts in each language the bot speaks, read from the catalogs.

A language writes its numbers with CLDR's decimal and group signs (``2.5`` / ``1,000`` in
English, ``2,5`` / ``1.000`` in Spanish and Portuguese), and names amounts with its own
words (``half`` / ``mitad`` / ``metade``) and short forms (``k``, ``mil``). The words and
short forms are catalog messages, each a list of what players type (the first is the one
shown in help), so a new language brings its own in its catalog. English's are read in
every language too: a player may type ``max`` whatever their client speaks.
"""

from __future__ import annotations

import functools
import unicodedata
from dataclasses import dataclass
from decimal import Decimal
from typing import Final

from babel.numbers import format_decimal, get_decimal_symbol, get_group_symbol

from bot.i18n import ENGLISH, Text, _, babel_code

#: The amounts only the balance can tell.
HALF: Final = "half"
MAX: Final = "max"
ALL: Final = "all"

#: The words for each amount only the balance can tell, as catalog messages.
WORDS: Final[dict[str, Text]] = {
    # TRANSLATORS: the words a player may type as a bet of half their chips, separated by
    # commas; the first is the one the bot shows.
    HALF: _("half"),
    # TRANSLATORS: the words a player may type as a bet of as much as the table and their
    # chips allow, separated by commas; the first is the one the bot shows.
    MAX: _("max, maximum"),
    # TRANSLATORS: the words a player may type as a bet of all their chips, separated by
    # commas; the first is the one the bot shows.
    ALL: _("all, all-in, allin"),
}

#: The short forms after a number, by what they multiply it by, as catalog messages.
SHORT_FORMS: Final[dict[int, Text]] = {
    # TRANSLATORS: what a player may type after a number to mean thousands (2.5k), separated
    # by commas; the first is the one the bot shows.
    1_000: _("k, thousand"),
    # TRANSLATORS: what a player may type after a number to mean millions (1m), separated by
    # commas; the first is the one the bot shows.
    1_000_000: _("m, million"),
    # TRANSLATORS: what a player may type after a number to mean thousand millions (1b),
    # separated by commas; the first is the one the bot shows.
    1_000_000_000: _("b, billion"),
}


def folded(text: str) -> str:
    """``text`` as words are compared: composed, case folded, trimmed."""
    return unicodedata.normalize("NFC", text).casefold().strip()


def listed(message: Text, language: str) -> list[str]:
    """The words ``message`` lists in ``language``, as compared (:func:`folded`)."""
    return [word for word in map(folded, message.in_language(language).split(",")) if word]


@dataclass(frozen=True, slots=True)
class AmountWords:
    """How one language writes amounts."""

    language: str
    #: Its decimal and group signs (CLDR's).
    decimal: str
    group: str
    #: Each word a player may type for half, max or all, to what it means.
    words: dict[str, str]
    #: Each short form a player may type after a number, to what it multiplies by.
    units: dict[str, int]
    #: The word shown for each meaning, and the short form for each multiplier.
    shown_words: dict[str, str]
    shown_units: dict[int, str]

    def written(self, value: float | Decimal) -> str:
        """``value`` as the language writes it: ``2.5``, ``1,000`` / ``2,5``, ``1.000``."""
        return format_decimal(value, locale=babel_code(self.language))

    def example(self, value: float, multiplier: int) -> str:
        """``value`` with the short form of ``multiplier``, as help shows it: ``2.5k``."""
        return f"{self.written(value)}{self.shown_units[multiplier]}"


@functools.cache
def amount_words(language: str) -> AmountWords:
    """The words, short forms and signs of ``language`` (a code of ``bot.i18n.LANGUAGES``)."""
    words: dict[str, str] = {}
    units: dict[str, int] = {}
    for source in dict.fromkeys((ENGLISH, language)):  # the language's own win over English's
        for meaning, message in WORDS.items():
            words.update(dict.fromkeys(listed(message, source), meaning))
        for multiplier, message in SHORT_FORMS.items():
            units.update(dict.fromkeys(listed(message, source), multiplier))
    locale = babel_code(language)
    return AmountWords(
        language=language,
        decimal=get_decimal_symbol(locale),
        group=get_group_symbol(locale),
        words=words,
        units=units,
        shown_words={meaning: listed(text, language)[0] for meaning, text in WORDS.items()},
        shown_units={size: listed(text, language)[0] for size, text in SHORT_FORMS.items()},
    )
