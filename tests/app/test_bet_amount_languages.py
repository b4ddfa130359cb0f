"""A bet is read as the player's language writes numbers and amount words, and what the
bot shows in a language reads back, in that language, as the same amount."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.amount_words import ALL, HALF, MAX, amount_words
from bot.bet_amount import AmbiguousAmount, BetAmountError, balance_word, parse_bet
from bot.i18n import ENGLISH, LANGUAGES, known_language, number

SPANISH, PORTUGUESE, GERMAN, FRENCH = "es-ES", "pt-BR", "de", "fr"
#: How French groups thousands (CLDR): a narrow no-break space.
NARROW = "\N{NARROW NO-BREAK SPACE}"
#: More than any amount shown, so only the reading is tested.
CEILING = 10**15


def bet(text: str, language: str, balance: int | None = None) -> int:
    return parse_bet(text, language=language, balance=balance, min_bet=1, max_bet=CEILING)


def refusal(text: str, language: str) -> str:
    with pytest.raises(BetAmountError) as refused:
        bet(text, language, balance=10_000)
    return refused.value.args[0].in_language(language)


@pytest.mark.parametrize(
    ("text", "language", "amount"),
    [
        ("2,5k", SPANISH, 2_500),
        ("1.000", SPANISH, 1_000),
        ("10.000", SPANISH, 10_000),
        ("1.000.000", SPANISH, 1_000_000),
        ("2 mil", SPANISH, 2_000),
        ("2,5 mil", SPANISH, 2_500),
        ("3 millones", SPANISH, 3_000_000),
        ("1.000,0", SPANISH, 1_000),
        ("2,5k", PORTUGUESE, 2_500),
        ("1.000", PORTUGUESE, 1_000),
        ("2,5 mil", PORTUGUESE, 2_500),
        ("1 mi", PORTUGUESE, 1_000_000),
        ("2.5k", ENGLISH, 2_500),
        ("1,000", ENGLISH, 1_000),
        ("1,000.0", ENGLISH, 1_000),
        ("2 thousand", ENGLISH, 2_000),
        ("2,5k", GERMAN, 2_500),
        ("1.000", GERMAN, 1_000),
        ("2 Tsd", GERMAN, 2_000),
        ("1,5 Mio", GERMAN, 1_500_000),
        ("3 Millionen", GERMAN, 3_000_000),
        ("500", SPANISH, 500),
        ("1000", SPANISH, 1_000),
        # French groups with a narrow no-break space; players type any space, or none.
        (f"1{NARROW}000", FRENCH, 1_000),
        ("1 000", FRENCH, 1_000),
        ("1\N{NO-BREAK SPACE}000", FRENCH, 1_000),
        ("1000", FRENCH, 1_000),
        ("1 000 000", FRENCH, 1_000_000),
        ("2,5k", FRENCH, 2_500),
        ("2,5 mille", FRENCH, 2_500),
        ("3 millions", FRENCH, 3_000_000),
        ("1,5 M", FRENCH, 1_500_000),
        ("1 000,0", FRENCH, 1_000),
        ("2.5k", FRENCH, 2_500),  # a point is no French sign but a decimal's, as Babel reads it
    ],
)
def test_a_number_is_read_as_its_language_writes_it(text: str, language: str, amount: int) -> None:
    assert bet(text, language) == amount


@pytest.mark.parametrize(
    ("text", "language", "meaning"),
    [
        ("mitad", SPANISH, HALF),
        ("Máx", SPANISH, MAX),
        ("todo", SPANISH, ALL),
        ("metade", PORTUGUESE, HALF),
        ("MÁX", PORTUGUESE, MAX),
        ("tudo", PORTUGUESE, ALL),
        ("halb", GERMAN, HALF),
        ("die Hälfte", GERMAN, HALF),
        ("alles", GERMAN, ALL),
        ("maximal", GERMAN, MAX),
        ("half", SPANISH, HALF),  # English's words are read in every language
        ("all-in", PORTUGUESE, ALL),
        ("max", ENGLISH, MAX),
        ("moitié", FRENCH, HALF),
        ("MAX", FRENCH, MAX),
        ("tout", FRENCH, ALL),
        ("tapis", FRENCH, ALL),
    ],
)
def test_the_amount_words_of_each_language_need_the_balance(
    text: str, language: str, meaning: str
) -> None:
    assert balance_word(text, language=language) == meaning
    stakes = {HALF: 5_000, MAX: 10_000, ALL: 10_000}
    assert bet(text, language, balance=10_000) == stakes[meaning]


def test_another_languages_word_is_not_an_amount() -> None:
    assert balance_word("mitad", language=PORTUGUESE) is None
    assert "não é uma quantidade de fichas" in refusal("mitad", PORTUGUESE)


@pytest.mark.parametrize(
    ("text", "language", "said"),
    [
        (
            "1.000",
            ENGLISH,
            "'1.000' could mean 1 or 1,000, so nothing was bet: type 1000 for 1,000.",
        ),
        (
            "2.500",
            ENGLISH,
            "'2.500' could mean 2.5 or 2,500, so nothing was bet: type 2500 for 2,500.",
        ),
        (
            "2.500k",
            ENGLISH,
            "'2.500k' could mean 2,500 or 2,500,000, so nothing was bet: type 2500k for 2,500,000.",
        ),
        (
            "1,000",
            SPANISH,
            "'1,000' puede ser 1 o 1.000, así que no se ha apostado nada: escribe 1000 para 1.000.",
        ),
        (
            "1,000",
            GERMAN,
            "'1,000' kann 1 oder 1.000 heißen, also wurde nichts gesetzt: tippe 1000 für 1.000.",
        ),
        (
            "7,500",
            PORTUGUESE,
            "'7,500' pode ser 7,5 ou 7.500, então nada foi apostado: digite 7500 para 7.500.",
        ),
        (
            "1,000",
            FRENCH,
            f"'1,000' peut vouloir dire 1 ou 1{NARROW}000, donc rien n'a été misé : tape 1000"
            f" pour 1{NARROW}000.",
        ),
        # A point is read as a decimal in French, and French players also group with it.
        (
            "2.500",
            FRENCH,
            f"'2.500' peut vouloir dire 2,5 ou 2{NARROW}500, donc rien n'a été misé : tape 2500"
            f" pour 2{NARROW}500.",
        ),
    ],
)
def test_a_lone_decimal_sign_before_three_digits_is_refused_with_both_readings(
    text: str, language: str, said: str
) -> None:
    with pytest.raises(AmbiguousAmount) as refused:
        bet(text, language, balance=10_000)
    assert refused.value.args[0].in_language(language) == said


@pytest.mark.parametrize(
    ("text", "language"),
    [("0,500", SPANISH), ("1234,567", SPANISH), ("1,5000", PORTUGUESE), ("0.500", ENGLISH)],
)
def test_a_decimal_sign_that_cannot_be_a_group_is_a_decimal(text: str, language: str) -> None:
    with pytest.raises(BetAmountError, match="not a whole number of chips"):
        bet(text, language)


def test_a_number_written_another_languages_way_is_refused_with_what_it_could_be() -> None:
    assert refusal("2.5k", SPANISH) == (
        "'2.5k' no es una cantidad de fichas: ¿querías decir 25k o 2,5k?"
    )
    assert refusal("1,00", ENGLISH) == "'1,00' is not an amount of chips: did you mean 100 or 1?"
    assert refusal("1.2.3", PORTUGUESE) == (
        "'1.2.3' não é uma quantidade de fichas: você quis dizer 123?"
    )


def test_the_help_shows_each_languages_own_examples() -> None:
    assert refusal("abc", SPANISH) == (
        "'abc' no es una cantidad de fichas. Usa un número como 500, 2,5k o 1m, o mitad, máx"
        " o todo."
    )
    assert refusal(" ", PORTUGUESE) == (
        "Digite uma quantidade de fichas: um número como 500, 2,5k ou 1m, ou metade, máx ou tudo."
    )
    assert refusal("abc", FRENCH) == (
        "'abc' n'est pas un montant de jetons. Utilise un nombre comme 500, 2,5k ou 1m, ou moitié,"
        " max ou tout."
    )
    assert refusal("abc", GERMAN) == (
        "'abc' ist keine Anzahl Chips. Nutze eine Zahl wie 500, 2,5k oder 1m, oder halb, max"
        " oder alles."
    )


@pytest.mark.parametrize(
    ("locale", "language"),
    [
        ("es-ES", SPANISH),
        ("es-419", SPANISH),
        ("pt-BR", PORTUGUESE),
        ("fr", FRENCH),
        ("de", GERMAN),
        ("en-US", ENGLISH),
        ("en-GB", ENGLISH),
        ("ja", None),
        (None, None),
    ],
)
def test_a_client_locale_names_the_language_the_bot_speaks_of_it(
    locale: str | None, language: str | None
) -> None:
    assert known_language(locale) == language


@given(st.integers(min_value=1, max_value=10**12), st.sampled_from(LANGUAGES))
def test_every_amount_the_bot_shows_reads_back_as_itself(amount: int, language: str) -> None:
    assert bet(number(amount, language), language) == amount


@given(st.sampled_from(LANGUAGES), st.integers(1, 999), st.integers(0, 999))
def test_the_amount_a_two_way_refusal_says_to_type_reads_as_a_thousands_group(
    language: str, whole: int, thousandths: int
) -> None:
    words = amount_words(language)
    typed = f"{whole}{words.decimal}{thousandths:03}"
    with pytest.raises(AmbiguousAmount) as refused:
        bet(typed, language)
    said = refused.value.args[0]
    assert bet(said.params["plain"], language) == whole * 1_000 + thousandths
    assert said.params["group"] == number(whole * 1_000 + thousandths, language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_examples_and_words_the_help_shows_read_back(language: str) -> None:
    words = amount_words(language)
    assert bet(words.example(2.5, 1_000), language) == 2_500
    assert bet(words.example(1, 1_000_000), language) == 1_000_000
    for meaning, word in words.shown_words.items():
        assert balance_word(word, language=language) == meaning
