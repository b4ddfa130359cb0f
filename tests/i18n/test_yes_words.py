"""The yes-words of the tournament table's Bet form, in each language's catalog: the form's
question names the first of them, and its default answer (no) is none of them."""

from __future__ import annotations

import pytest

from bot.amount_words import folded, listed
from bot.i18n import ENGLISH, LANGUAGES, _
from cogs.table.bet_form import YES


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_form_asks_with_the_first_yes_word_and_no_is_not_one(language: str) -> None:
    yes = listed(YES, language)
    assert yes, f"{language} lists no yes-word"
    question = folded(_("Your one secret bet? (yes or no)").in_language(language))
    assert f"({yes[0]} " in question, (language, question)
    no = folded(_("no").in_language(language))
    assert no not in {*yes, *listed(YES, ENGLISH)}, language
