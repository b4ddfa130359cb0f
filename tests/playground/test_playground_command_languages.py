"""The page's command box in the player's language, as Discord's client offers it: the
commands, options and choices the bot synced are listed by their localized names, and a
line naming them so (or by their default names) is sent as Discord sends it."""

from __future__ import annotations

import pytest

from playground.command_line import CommandLineError, parse_line
from tests.playground.served import Served


async def _speaking(served: Served, viewer: str, language: str) -> None:
    status, _ = await served.post("/api/language", {"viewer": viewer, "language": language})
    assert status == 200


async def test_the_list_shows_the_commands_options_and_choices_in_the_players_language(
    served: Served,
) -> None:
    alice, bob, _ = served.ids()
    await _speaking(served, alice, "es-ES")
    as_alice = (await served.get(f"/api/state?viewer={alice}"))["commands"]
    as_bob = (await served.get(f"/api/state?viewer={bob}"))["commands"]
    paths = [c["path"] for c in as_alice]
    assert {"apostar", "saldo", "blackjack abrir", "blackjack sentarse"} <= set(paths)
    assert "bet" not in paths
    assert paths == sorted(paths)  # as the client lists them: by the name it shows
    bet = next(c for c in as_alice if c["path"] == "apostar")
    assert bet["description"] == "Apuesta en esta ronda en la mesa del canal"
    assert [o["name"] for o in bet["options"]][:2] == ["cantidad", "manos"]
    start = next(c for c in as_alice if c["path"] == "blackjack abrir")
    preset = next(o for o in start["options"] if o["name"] == "reglas")
    assert {"name": "una baraja", "value": "single-deck"} in preset["choices"]
    # Bob's client speaks English: the same commands, by their default names.
    assert {"bet", "balance", "blackjack start"} <= {c["path"] for c in as_bob}
    assert len(as_bob) == len(as_alice)


async def test_a_line_in_the_players_language_is_sent_by_the_default_names(
    served: Served,
) -> None:
    playground = served.playground
    alice = playground.players()[0]
    playground.set_language(alice, "fr")
    entries, guild = playground.commands(alice), playground.guild
    parsed = parse_line("/miser montant:250 mains:2", entries, guild)
    assert (parsed.path, parsed.options) == ("bet", {"amount": "250", "hands": 2})
    assert parse_line("/miser 1 000", entries, guild).options == {"amount": "1 000"}
    parsed = parse_line("/blackjack ouvrir règles:un seul jeu mise_min:10", entries, guild)
    assert (parsed.path, parsed.options) == (
        "blackjack start",
        {"preset": "single-deck", "min_bet": 10},
    )
    # The default names are the client's too, whatever its language.
    parsed = parse_line("/bet amount:100 mains:2", entries, guild)
    assert (parsed.path, parsed.options) == ("bet", {"amount": "100", "hands": 2})
    with pytest.raises(CommandLineError, match=r"Option amount is given twice\."):
        parse_line("/miser montant:1 amount:2", entries, guild)
    with pytest.raises(CommandLineError, match=r"needs a subcommand: .*blackjack ouvrir"):
        parse_line("/blackjack", entries, guild)
    # Another language's names are not this client's.
    with pytest.raises(CommandLineError, match=r"There is no command /apostar here\."):
        parse_line("/apostar 100", entries, guild)


async def test_a_spanish_player_bets_with_the_names_the_table_tells_them(served: Served) -> None:
    alice, bob, channel = served.ids()
    await _speaking(served, alice, "es-ES")
    assert (await served.command(alice, channel, "/blackjack abrir"))["ok"] is True
    outcome = await served.command(alice, channel, "/apostar cantidad:1.000 manos:1")
    assert outcome["ok"] is True, outcome
    replies = await served.get(f"/api/messages?channel={channel}&viewer={alice}")
    assert replies[-1]["ephemeral"] is True
    assert replies[-1]["content"] == "Apuesta: 1.000. Saldo: 0."
    # An English client does not know the Spanish names: nothing reaches the bot.
    sent = len(served.playground.fake.interactions)
    outcome = await served.command(bob, channel, "/apostar 100")
    assert (outcome["ok"], outcome["refused"]) == (False, "There is no command /apostar here.")
    assert len(served.playground.fake.interactions) == sent
