"""The slash commands in each language: discord.py's :class:`~discord.app_commands.Translator`
reading the ``commands`` catalogs (``bot/locales/<lang>/LC_MESSAGES/commands.po``).

A synced command then carries ``name_localizations`` and ``description_localizations``
for each language of ``bot.i18n.LANGUAGES`` (Discord shows es-ES to Latin American
Spanish clients too), so a player's client lists the commands, their options and choices
in the player's language. The interactions still name the commands and options in English.

Each entry's context (``msgctxt``) says what the text is: a ``name`` (a command's, a
group's or an option's: lowercase, no spaces, at most 32 characters), a ``description``
(at most 100 characters) or a ``choice`` (at most 100 characters). A language's name in
itself (the admin's language choices) is said the same in every language: no catalog holds
it, so registering a language adds nothing to the other languages' catalogs.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Final

import discord
from discord import app_commands

from bot.i18n import COMMANDS, ENGLISH, LANGUAGES, NATIVE_NAMES, translations

NAME: Final = "name"
DESCRIPTION: Final = "description"
CHOICE: Final = "choice"
#: The choices no catalog translates: each language's name in itself.
_NAMED_IN_ITSELF: Final = frozenset(NATIVE_NAMES.values())

_KINDS: Final[dict[app_commands.TranslationContextLocation, str]] = {
    app_commands.TranslationContextLocation.command_name: NAME,
    app_commands.TranslationContextLocation.group_name: NAME,
    app_commands.TranslationContextLocation.parameter_name: NAME,
    app_commands.TranslationContextLocation.command_description: DESCRIPTION,
    app_commands.TranslationContextLocation.group_description: DESCRIPTION,
    app_commands.TranslationContextLocation.parameter_description: DESCRIPTION,
    app_commands.TranslationContextLocation.choice_name: CHOICE,
}


def translated(language: str, kind: str, text: str) -> str | None:
    """``text`` (a command's ``kind`` of text) in ``language``; None where the catalog has
    nothing else to say (Discord ignores a localization equal to the default)."""
    if language == ENGLISH or language not in LANGUAGES or _in_itself(kind, text):
        return None
    said = translations(language, COMMANDS).pgettext(kind, text)
    return None if said == text else said


def _in_itself(kind: str, text: str) -> bool:
    """Whether ``text`` is a language's name in itself, offered as a choice."""
    return kind == CHOICE and text in _NAMED_IN_ITSELF


class CatalogTranslator(app_commands.Translator):
    """Command metadata from the ``commands`` catalogs, for the languages the bot speaks."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        kind = _KINDS.get(context.location)
        if kind is None:
            return None
        return translated(locale.value, kind, string.message)


def command_texts(commands: list[Mapping[str, Any]]) -> Iterator[tuple[str, str]]:
    """Every text of synced commands (Discord's JSON, as sent to ``PUT .../commands``) that
    a localization may carry: ``(kind, English text)``."""
    for command in commands:
        yield NAME, command["name"]
        if command.get("description"):
            yield DESCRIPTION, command["description"]
        yield from command_texts(command.get("options") or [])
        for choice in command.get("choices") or []:
            if not _in_itself(CHOICE, choice["name"]):
                yield CHOICE, choice["name"]
