"""The amount words and short forms each language's catalog lists: every one means one
thing, and a short form cannot be read as part of a number."""

from __future__ import annotations

import pytest

from bot.amount_words import SHORT_FORMS, WORDS, amount_words, listed
from bot.i18n import LANGUAGES


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_word_and_short_form_of_a_language_means_one_thing(language: str) -> None:
    meanings: dict[str, object] = {}
    for meaning, message in [*WORDS.items(), *SHORT_FORMS.items()]:
        words = listed(message, language)
        assert words, f"{message!r} lists no word in {language}"
        for word in words:
            assert meanings.setdefault(word, meaning) == meaning, f"{word!r} in {language}"
    read = amount_words(language)
    assert {word: read.words.get(word, read.units.get(word)) for word in meanings} == meanings


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_short_form_holds_no_digit_or_number_sign(language: str) -> None:
    signs = {amount_words(language).decimal, amount_words(language).group, ".", ","}
    for message in SHORT_FORMS.values():
        for word in listed(message, language):
            assert not any(c.isdigit() or c in signs for c in word), (language, word)
