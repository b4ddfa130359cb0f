"""Player-facing text in the reader's language: English (the source) and each language
registered in :data:`NATIVE_NAMES` (Spanish, Brazilian Portuguese, German, French).

Every sentence a player sees is a gettext message whose id is the English sentence, with
named ``str.format`` placeholders (``"{player} wins {amount}"``) so a translator may put
them in any order. The translations are the catalogs ``bot/locales/<lang>/LC_MESSAGES/
messages.po``, read with Babel when first needed (no compiled ``.mo`` file is kept or
built). How to add a message: docs/TRANSLATING.md.

Two ways to write a message:

- :func:`_` and :func:`n_` make a :class:`Text`: the English sentence (it *is* a ``str``,
  so code and logs that know nothing of languages keep working) that can also say itself
  in another language. The table service words its notes, refusals and events this way,
  before anyone knows who will read them.
- :func:`speak` and :func:`nspeak` give the sentence at once in the language being spoken
  (:func:`speaking`), for code that writes what one reader sees (a reply, a table embed).

A number given as a placeholder is written the reader's way (1,000 / 1.000), and so is
any :class:`Text` given as one.
"""

from __future__ import annotations

import contextlib
import functools
import gettext
import io
from collections.abc import Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from babel import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import Translations

#: The languages the bot speaks, by Discord's locale codes, each with its name in itself
#: (for a language switch); English is the source. This is the one registration: every
#: other list of languages (commands, admin choices and setting, playground, amount words,
#: ``make catalogs``, tests) reads it. A language is this line and its two catalogs.
ENGLISH: Final = "en-US"
NATIVE_NAMES: Final[dict[str, str]] = {
    ENGLISH: "English",
    "es-ES": "Español (España)",
    "pt-BR": "Português (Brasil)",
    "de": "Deutsch",
    "fr": "Français",
}
LANGUAGES: Final = tuple(NATIVE_NAMES)
#: Discord locales that read one of our languages (Latin American Spanish reads es-ES).
_ALIASES: Final[dict[str, str]] = {"es-419": "es-ES"}
#: Where the catalogs are: ``<lang>/LC_MESSAGES/<domain>.po``, and the English templates.
LOCALES_DIR: Final = Path(__file__).resolve().parent / "locales"
#: The domain of player-facing text; ``commands`` holds the slash commands' metadata.
MESSAGES: Final = "messages"
COMMANDS: Final = "commands"

#: The functions below as Babel's extractor knows them: the message's arguments.
KEYWORDS: Final[dict[str, tuple[int, ...]]] = {
    "_": (1,),
    "speak": (1,),
    "n_": (1, 2),
    "nspeak": (1, 2),
    # Words marked where they are written (a side bet's categories) and said later by ``_``.
    "N_": (1,),
}

_speaking: ContextVar[str] = ContextVar("speaking", default=ENGLISH)


def language_of(locale: object) -> str:
    """The language for a Discord locale (``discord.Locale`` or its code): English unless
    it is one the bot speaks."""
    code = str(locale) if locale is not None else ENGLISH
    code = _ALIASES.get(code, code)
    return code if code in LANGUAGES else ENGLISH


def known_language(locale: object) -> str | None:
    """The language the bot speaks for a Discord locale: its own, the one it reads
    (``es-419``: ``es-ES``) or another form of it (``en-GB``: ``en-US``); None when the
    bot speaks none of it (the caller then picks, as a bet reads the table's language)."""
    code = str(locale) if locale is not None else ""
    code = _ALIASES.get(code, code)
    if code in LANGUAGES:
        return code
    base = code.partition("-")[0]
    return next((language for language in LANGUAGES if language.partition("-")[0] == base), None)


def babel_code(language: str) -> str:
    """Babel's (CLDR's) name for a language: ``es-ES`` is ``es_ES``."""
    return language.replace("-", "_")


def catalog_path(language: str, domain: str = MESSAGES) -> Path:
    """The ``.po`` file of ``language`` for ``domain``."""
    return LOCALES_DIR / babel_code(language) / "LC_MESSAGES" / f"{domain}.po"


@functools.cache
def translations(language: str, domain: str = MESSAGES) -> gettext.NullTranslations:
    """The catalog of ``language`` (read from its ``.po`` once); English has none."""
    if language == ENGLISH:
        return gettext.NullTranslations()
    with catalog_path(language, domain).open("rb") as po:
        catalog = read_po(po, locale=Locale.parse(babel_code(language)), domain=domain)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)  # fuzzy entries are left out: English until reviewed
    compiled.seek(0)
    return Translations(compiled, domain=domain)


@contextlib.contextmanager
def speaking(locale: object) -> Iterator[str]:
    """Within the block, :func:`speak`, :func:`tr` and :func:`number` use ``locale``'s language."""
    language = language_of(locale)
    token = _speaking.set(language)
    try:
        yield language
    finally:
        _speaking.reset(token)


def spoken() -> str:
    """The language being spoken now (English outside :func:`speaking`)."""
    return _speaking.get()


@functools.cache
def _locale(language: str) -> Locale:
    """Babel's locale for ``language``, parsed once (Babel parses a locale name per call)."""
    return Locale.parse(babel_code(language))


@functools.lru_cache(maxsize=4096, typed=True)
def _written(value: float, pattern: str | None, language: str) -> str:
    """``value`` written with ``pattern`` (the locale's own when ``None``) in ``language``:
    the table shows the same few amounts on every render, so each is formatted once."""
    return format_decimal(value, format=pattern, locale=_locale(language))


def number(value: int, language: str | None = None) -> str:
    """A whole number as the reader writes it: ``1,250`` / ``1.250``."""
    return _written(value, None, language or spoken())


class Text(str):
    """An English sentence from the catalog that can also say itself in another language.

    Equal to its English text (``str(text)``); :meth:`in_language` (or :func:`tr`) gives
    the translation, with its placeholders filled in that language too.
    """

    msgid: str
    plural: str | None
    quantity: int
    params: Mapping[str, object]
    #: What ``line_data`` made of it, kept: a table's lines are written again with every
    #: change of its document, and a message never changes.
    data: Any = None

    def __new__(
        cls, msgid: str, plural: str | None, count: int, params: Mapping[str, object]
    ) -> Text:
        text = super().__new__(cls, _said(msgid, plural, count, params, ENGLISH))
        text.msgid, text.plural, text.quantity, text.params = msgid, plural, count, params
        return text

    def filled(self, **params: object) -> Text:
        """This message with ``params``: a message written once as a template
        (``_("{what} needs {needed}")`` with no values yet) and filled where it is said."""
        return Text(self.msgid, self.plural, self.quantity, params)

    def in_language(self, language: str) -> str:
        """This sentence in ``language`` (English where the catalog has no translation)."""
        if language == ENGLISH:
            return str.__str__(self)
        return _said(self.msgid, self.plural, self.quantity, self.params, language)


def signed(amount: int) -> Text:
    """A net amount with its sign, written the reader's way: +1,500, -20, ±0."""
    if not amount:
        return Text("±0", None, 1, {})
    return Text(
        "{sign}{amount}", None, 1, {"sign": "+" if amount > 0 else "-", "amount": abs(amount)}
    )


@dataclass(frozen=True, slots=True)
class Figure:
    """A number with decimals given as a placeholder, written with ``pattern`` (a CLDR
    decimal pattern such as ``"0.00"`` or ``"+0.0;-0.0"``) the reader's way: 0.48 / 0,48."""

    value: float
    pattern: str

    def in_language(self, language: str) -> str:
        return _written(self.value, self.pattern, language)


def line_data(line: str) -> Any:
    """``line`` as JSON-ready data that keeps its message (a ``Text``: its id, plural form
    and parameters, each parameter kept the same way), so a line written to a document is
    said in the reader's language when it is read back (``line_from``); a plain string as is."""
    if isinstance(line, Text):
        if line.data is None:
            params = {name: _value_data(value) for name, value in line.params.items()}
            line.data = {"m": line.msgid, "p": line.plural, "n": line.quantity, "a": params}
        return line.data
    return str(line)


def _value_data(value: object) -> Any:
    if isinstance(value, Text):
        return line_data(value)
    if isinstance(value, Figure):
        return {"f": value.value, "pattern": value.pattern}
    if isinstance(value, bool | int | float | str) or value is None:
        return value
    return str(value)


def line_from(data: Any) -> str:
    """A line ``line_data`` wrote: a ``Text`` again, or the plain string."""
    if isinstance(data, dict):
        params = {str(name): _value_from(value) for name, value in data["a"].items()}
        return Text(str(data["m"]), data["p"], int(data["n"]), params)
    return str(data)


def _value_from(value: Any) -> object:
    if isinstance(value, dict) and "f" in value:
        return Figure(float(value["f"]), str(value["pattern"]))
    if isinstance(value, dict):
        return line_from(value)
    return value


def number_text(value: int) -> Text:
    """A number on its own, written the reader's way when said (``1,250`` / ``1.250``)."""
    return Text("{amount}", None, 1, {"amount": value})


def joined(items: Sequence[str], separator: str = ", ") -> Text:
    """``items`` in a row (``View Channel, Embed Links``), each said in the reader's language."""
    pattern = (
        separator.replace("{", "{{")
        .replace("}", "}}")
        .join(f"{{item{index}}}" for index in range(len(items)))
    )
    return Text(pattern, None, 1, {f"item{index}": item for index, item in enumerate(items)})


def _shown(value: object, language: str) -> object:
    if isinstance(value, Text | Figure):
        return value.in_language(language)
    if isinstance(value, int) and not isinstance(value, bool):
        return number(value, language)
    return value


def _fill(pattern: str, params: Mapping[str, object], language: str) -> str:
    if not params:
        return pattern
    return pattern.format_map({name: _shown(value, language) for name, value in params.items()})


def _said(
    msgid: str, plural: str | None, count: int, params: Mapping[str, object], language: str
) -> str:
    """The message in ``language`` (English where the catalog has no translation), filled."""
    if language == ENGLISH:
        pattern = msgid if plural is None or count == 1 else plural
    elif plural is None:
        pattern = translations(language).gettext(msgid)
    else:
        pattern = translations(language).ngettext(msgid, plural, count)
    return _fill(pattern, params, language)


def _(msgid: str, **params: object) -> Text:
    """The message ``msgid`` (its English text), filled with ``params``; said later."""
    return Text(msgid, None, 1, params)


def n_(singular: str, plural: str, count: int, /, **params: object) -> Text:
    """The message for ``count`` things (the catalog's plural forms), filled with ``params``."""
    return Text(singular, plural, count, params)


def tr(text: str) -> str:
    """``text`` in the language being spoken if it is a catalog message, else as it is."""
    return text.in_language(spoken()) if isinstance(text, Text) else text


def speak(msgid: str, **params: object) -> str:
    """The message ``msgid`` in the language being spoken, filled with ``params``."""
    return _said(msgid, None, 1, params, spoken())


def nspeak(singular: str, plural: str, count: int, /, **params: object) -> str:
    """The message for ``count`` things in the language being spoken."""
    return _said(singular, plural, count, params, spoken())
