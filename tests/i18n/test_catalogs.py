"""The catalogs are complete: every message the code says is in the English template and
translated in every language, with the same placeholders (in every plural form too)."""

from __future__ import annotations

import re
import string

import pytest
from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from bot.i18n import (
    COMMANDS,
    LANGUAGES,
    LOCALES_DIR,
    MESSAGES,
    NATIVE_NAMES,
    babel_code,
    catalog_path,
    translations,
)
from scripts.catalogs import extracted

TRANSLATED = LANGUAGES[1:]


def read(path: str, language: str | None = None) -> Catalog:
    with open(path, "rb") as po:
        return read_po(po, locale=babel_code(language) if language else None)


def ids(catalog: Catalog) -> set[object]:
    return {message.id for message in catalog if message.id}


def placeholders(text: str) -> set[str]:
    """The named fields of a ``str.format`` pattern (ValueError if it is not one)."""
    names = set()
    for _, field, _, _ in string.Formatter().parse(text):
        if field is not None:
            assert field, f"an unnamed placeholder in {text!r}: name it"
            names.add(field.split(".")[0].split("[")[0])
    return names


@pytest.fixture(scope="module")
def code() -> Catalog:
    return extracted()


def test_the_english_template_lists_every_message_of_the_code(code: Catalog) -> None:
    template = read(str(LOCALES_DIR / f"{MESSAGES}.pot"))
    assert ids(template) == ids(code), "run `make catalogs`"


def test_a_plural_message_names_the_same_placeholders_in_both_english_forms(
    code: Catalog,
) -> None:
    for message in code:
        if message.id and message.pluralizable:
            singular, plural = message.id
            assert placeholders(singular) == placeholders(plural), message.id


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated_with_the_same_placeholders(
    code: Catalog, language: str
) -> None:
    catalog = read(str(catalog_path(language)), language)
    missing = ids(code) - ids(catalog)
    assert not missing, f"{language} lacks {sorted(map(str, missing))}: run `make catalogs`"
    for wanted in code:
        if not wanted.id:
            continue
        message = catalog[wanted.id]
        assert message is not None
        assert not message.fuzzy, f"{language}: {message.id!r} is marked fuzzy: review it"
        english = message.id if isinstance(message.id, tuple) else (message.id,)
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.pluralizable:
            assert len(forms) == catalog.num_plurals, f"{language}: {message.id!r}"
        for form in forms:
            assert form, f"{language}: {message.id!r} is not translated"
            assert placeholders(form) == placeholders(english[0]), (
                f"{language}: {form!r} does not name the placeholders of {english[0]!r}"
            )


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_plural_forms_are_the_languages_own(language: str) -> None:
    # Two forms, chosen as CLDR's rule for the language says (its "one" is the first form;
    # the rare third form some languages have for millions is left out, as gettext does).
    catalog = read(str(catalog_path(language)), language)
    assert catalog.num_plurals == 2
    message = next(message for message in catalog if message.id and message.pluralizable)
    singular, plural = message.id
    cldr = Locale.parse(babel_code(language))
    for n in range(0, 1001):
        form = message.string[0 if cldr.plural_form(n) == "one" else 1]
        assert translations(language).ngettext(singular, plural, n) == form, f"{language}: {n}"


#: Discord's rule for a command or option name (in every locale), and its longest text.
COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")
TEXT_MAX = 100


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_command_text_is_translated_within_discords_rules(language: str) -> None:
    template = read(str(LOCALES_DIR / f"{COMMANDS}.pot"))
    catalog = read(str(catalog_path(language, COMMANDS)), language)
    for wanted in template:
        if not wanted.id:
            continue
        message = catalog.get(wanted.id, context=wanted.context)
        assert message is not None, f"{language} lacks {wanted.id!r}: run `make catalogs`"
        assert message.string, f"{language}: {wanted.context} {wanted.id!r} is not translated"
        assert not message.fuzzy, f"{language}: {wanted.id!r} is marked fuzzy: review it"
        if wanted.context == "name":
            assert COMMAND_NAME.match(message.string), message.string
            assert message.string == message.string.lower(), message.string
        else:
            assert len(message.string) <= TEXT_MAX, message.string


def test_every_registered_language_has_both_catalogs_and_every_catalog_is_registered() -> None:
    # Adding a language is one line in bot.i18n.NATIVE_NAMES and one catalog per domain:
    # a catalog nobody registered, or a registered language without one, is a half-added one.
    folders = {path.name for path in LOCALES_DIR.iterdir() if path.is_dir()}
    assert folders == {babel_code(language) for language in TRANSLATED}
    for language in TRANSLATED:
        for domain in (MESSAGES, COMMANDS):
            catalog = read(str(catalog_path(language, domain)), language)
            assert catalog.locale_identifier == babel_code(language), (language, domain)


def test_no_catalog_translates_a_languages_name_in_itself() -> None:
    # The admin's language choices name each language in itself, the same in every
    # language: registering one adds nothing to the other languages' catalogs.
    names = set(NATIVE_NAMES.values())
    for language in TRANSLATED:
        catalog = read(str(catalog_path(language, COMMANDS)), language)
        assert not names & ids(catalog), language
