"""The amount words and short forms each language's catalog lists: every one means one
thing, and a short form cannot be read as part of a number."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.amount_words import SHORT_FORMS, WORDS, amount_words, listed
from bot.bet_amount import parse_bet
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


@given(
    st.sampled_from(LANGUAGES),
    st.sampled_from(sorted(SHORT_FORMS)),
    st.integers(min_value=1, max_value=99_999),
)
def test_an_amount_written_with_each_short_form_reads_back_in_every_language(
    language: str, multiplier: int, tenths: int
) -> None:
    # As the help writes its examples (2,5k / 2.5k): the number the language's way, then the
    # short form it shows; a whole number of chips reads back as itself.
    words = amount_words(language)
    typed = words.example(tenths / 10, multiplier)
    amount = parse_bet(typed, language=language, balance=None, min_bet=1, max_bet=10**15)
    assert amount == tenths * multiplier // 10
