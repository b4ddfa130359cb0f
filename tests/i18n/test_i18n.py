"""bot.i18n: a message said in each language, numbers the reader's way, plural forms."""

from __future__ import annotations

import dataclasses

import pytest

from bot.i18n import (
    ENGLISH,
    LANGUAGES,
    Text,
    _,
    language_of,
    n_,
    number,
    speak,
    speaking,
    spoken,
    tr,
)
from cogs.table.language import SETTINGS, language_setting
from cogs.table.restart_text import voided_embed
from db.models import VoidResult


def test_a_message_is_its_english_text_and_says_itself_in_each_language() -> None:
    label = _("Stand")
    assert isinstance(label, Text)
    assert label == "Stand"
    assert label.in_language("es-ES") == "Plantarse"
    assert label.in_language("pt-BR") == "Parar"
    assert tr(label) == "Stand"  # English outside ``speaking``
    with speaking("pt-BR"):
        assert tr(label) == "Parar"
        assert tr("not a message") == "not a message"
        assert speak("Hit") == "Pedir"


def test_numbers_are_written_the_readers_way() -> None:
    assert number(1250, ENGLISH) == "1,250"
    assert number(1250, "pt-BR") == "1.250"
    assert number(12500, "es-ES") == "12.500"
    with speaking("es-ES"):
        assert number(-1000) == "-1.000"


def test_discord_locales_map_to_the_languages_spoken() -> None:
    assert language_of("es-ES") == "es-ES"
    assert language_of("es-419") == "es-ES"
    assert language_of("pt-BR") == "pt-BR"
    assert language_of("fr") == "fr"
    assert language_of("de") == "de"
    assert language_of("ja") == ENGLISH
    assert language_of(None) == ENGLISH
    with speaking("ko"):
        assert spoken() == ENGLISH


def test_plural_forms_follow_each_languages_rule() -> None:
    def hands(count: int) -> Text:
        return n_(
            "`/bet amount [hands]` · {low}–{high} a hand, up to {count} hand",
            "`/bet amount [hands]` · {low}–{high} a hand, up to {count} hands",
            count,
            low=10,
            high=5000,
            count=count,
        )

    assert hands(1) == "`/bet amount [hands]` · 10–5,000 a hand, up to 1 hand"
    assert hands(0).endswith("up to 0 hands")
    assert hands(2).in_language("es-ES").endswith("5.000 por mano, hasta 2 manos")
    assert hands(1).in_language("es-ES").endswith("hasta 1 mano")
    # Brazilian Portuguese says zero in the singular; Spanish does not.
    assert hands(0).in_language("pt-BR").endswith("até 0 mão")
    assert hands(0).in_language("es-ES").endswith("hasta 0 manos")
    assert hands(1000).in_language("pt-BR").endswith("até 1.000 mãos")


def test_a_voided_round_says_why_in_the_tables_language() -> None:
    result = VoidResult(
        round_id=7,
        guild_id=10,
        channel_id=20,
        message_id=30,
        state_json=None,
        reason="the table could not resume: another table is open in its channel",
        already_closed=False,
        status="void",
        refunds={1: 1500},
        balances={1: 2500},
    )
    embed = voided_embed(result, "pt-BR")
    assert embed.title == "Rodada anulada"
    assert "a mesa não pôde continuar: há outra mesa aberta no canal dela" in (
        embed.description or ""
    )
    assert embed.fields[0].value == "<@1> recebe 1.500 de volta (saldo 2.500)"
    restarted = dataclasses.replace(result, reason="the bot restarted")
    assert "voided: the bot restarted." in (voided_embed(restarted).description or "")
    assert "anulado: el bot se ha reiniciado." in (
        voided_embed(restarted, "es-ES").description or ""
    )


def test_the_table_language_setting_takes_the_registered_languages_only() -> None:
    # The store sits below bot and keeps the code as text: the admin command checks it.
    assert ("server", *LANGUAGES) == SETTINGS
    assert all(language_setting(setting) == setting for setting in SETTINGS)
    with pytest.raises(ValueError, match="the table language must be one of") as refused:
        language_setting("xx")
    reason = refused.value.args[0]
    assert isinstance(reason, Text)
    assert reason.in_language("es-ES").startswith("el idioma de la mesa debe ser uno de server")
