"""A German and a French player at one Spanish table, through Discord: each one's private
answers (the bet receipt, refusals, a Hint) in their client's language, the table message
in the server's.

Alice's German answers are written out. Bob's are the catalog's messages in the language
his French client reads: French once it is registered in ``bot.i18n`` (until then English,
as for any client language the bot does not speak), so this test checks French as soon as
its catalogs land, with no edit."""

from __future__ import annotations

import pytest

from bot.app import BlackjackBot
from bot.i18n import _, language_of
from fakediscord import FakeDiscord
from tests.support.discord_world import World, embed_text, labels_enabled
from tests.support.shoes import SPARE, ShoeQueue
from tests.support.speech import receipt, said

# Alice Ts Th (20) and Bob 9s 7d (16, hits a 2: 18) against the dealer's 9h 8c (17).
ROUND = "Ts 9s 9h Th 7d 8c 2c " + SPARE
LATE = _("The cards are out: bet when the next round opens.")
NO_PAIR = _("You have no pair to split.")


@pytest.fixture
def world(fake_discord: FakeDiscord) -> World:
    """A Spanish server where Alice's client speaks German and Bob's French."""
    return World.speaking(fake_discord, "es-ES", alice="de", bob="fr")


async def test_a_german_and_a_french_player_are_answered_in_their_languages_at_a_spanish_table(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add(ROUND)
    alice, bob = world.alice, world.bob
    assert language_of(alice.user.locale) == "de"
    table = await world.start(alice)
    assert "**Hagan sus apuestas**" in embed_text(table)  # the server's language
    await world.click(bob, table, "Sentarse")

    # German amounts: 2,5k is 2.500 chips, more than Alice has; nothing is staked.
    short = await world.bet(alice, "2,5k")
    assert short == "Dieser Einsatz braucht 2.500 Chips, und du hast 1.000. Versuch /täglich."
    assert await world.bet(alice, "100") == "Einsatz: 100. Kontostand: 900."
    assert await world.bet(bob, "100") == said(bob, receipt(100, 900))
    late = await world.bet(alice, "200")
    assert late == "Die Karten sind schon gegeben: setze, wenn die nächste Runde beginnt."
    assert await world.bet(bob, "200") == said(bob, LATE)

    text = embed_text(table)
    assert "**Tu turno** · todos juegan a la vez" in text
    assert "**Crupier** 9♥ ?? · muestra 9" in text
    assert {"Pedir", "Plantarse", "Doblar", "Consejo"} <= labels_enabled(table)

    hint = await world.fake.click(alice, table, label="Consejo")
    assert hint.ephemeral
    assert (hint.content or "").startswith(
        "Deine Hand 10♠ 10♥ gegen 9♥\nGrundstrategie: halten (ein Paar 10 gegen eine 9)"
    )
    hint = await world.fake.click(bob, table, label="Consejo")
    assert hint.ephemeral
    hand = _("Your hand {cards} against {up}\n{advice}", cards="9♠ 7♦", up="9♥", advice="")
    assert (hint.content or "").startswith(said(bob, hand))

    # Alice's pair of tens lets the table offer Split: Bob has no pair.
    assert await world.refused(bob, table, "Separar") == said(bob, NO_PAIR)
    await world.click(alice, table, "Plantarse")
    assert await world.refused(alice, table, "Pedir") == (
        "Du hast in dieser Runde keine Hand mehr zu spielen."
    )
    await world.click(bob, table, "Pedir")
    assert "Bob pide: 2♣ → 18" in embed_text(table)
    await world.click(bob, table, "Plantarse")

    text = embed_text(table)
    assert "Última ronda" in text
    assert "Alice: 10♠ 10♥ 20 gana · cambio de saldo +100" in text
    assert "Bob: 9♠ 7♦ 2♣ 18 gana · cambio de saldo +100" in text
    assert await world.say(alice, "balance") == "Du hast 1.100 Chips."
    balance = await world.say(bob, "balance")
    assert balance == said(bob, _("You have {amount} chips.", amount=1_100))
    assert await world.ledger(alice) == [("grant", 1_000), ("bet", -100), ("payout", 200)]
