"""French through Discord: a French server's table speaks French (its numbers grouped with
a narrow no-break space), a French player's private answers are French, an English
player's at the same table English."""

from __future__ import annotations

import pytest

from bot.app import BlackjackBot
from fakediscord import FakeDiscord
from tests.support.discord_world import World, embed_text, labels_enabled
from tests.support.shoes import SPARE, ShoeQueue

# Alice Ts Th (20) and Bob 9s 7d (16, hits a 2: 18) against the dealer's 9h 8c (17).
ROUND = "Ts 9s 9h Th 7d 8c 2c " + SPARE
NARROW = "\N{NARROW NO-BREAK SPACE}"


@pytest.fixture
def world(fake_discord: FakeDiscord) -> World:
    """A French server where Alice's client speaks French and Bob's English."""
    return World.speaking(fake_discord, "fr", alice="fr", bob="en-US")


async def test_a_french_and_an_english_player_share_a_french_table(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add(ROUND)
    alice, bob = world.alice, world.bob
    assert await world.say(alice, "balance") == f"Tu as 1{NARROW}000 jetons."
    table = await world.start(alice)
    text = embed_text(table)
    assert "**Faites vos jeux**" in text
    assert f"`/miser montant [mains]` · 10–10{NARROW}000 par main, jusqu'à 7 mains" in text
    assert labels_enabled(table) == {"Rejoindre", "Quitter"}

    await world.click(bob, table, "Rejoindre")
    assert await world.bet(alice, "100") == "Mise : 100. Solde : 900."
    assert await world.bet(bob, "100") == "Bet 100. Balance: 900."
    late = "Les cartes sont distribuées : mise quand le prochain tour s'ouvre."
    assert await world.bet(alice, "200") == late

    text = embed_text(table)
    assert "**À vous de jouer** · tout le monde joue en même temps" in text
    assert "**Croupier** 9♥ ?? · montre 9" in text
    assert {"Carte", "Rester", "Doubler", "Conseil"} <= labels_enabled(table)
    hint = await world.fake.click(alice, table, label="Conseil")
    assert (hint.content or "").startswith("Ta main 10♠ 10♥ contre 9♥\nStratégie de base : rester")
    await world.click(alice, table, "Rester")
    refused = await world.refused(alice, table, "Carte")
    assert refused == "Il ne te reste aucune main à jouer à ce tour."
    await world.click(bob, table, "Carte")
    assert "Bob tire : 2♣ → 18" in embed_text(table)
    await world.click(bob, table, "Rester")

    text = embed_text(table)
    assert "Dernier tour" in text
    assert "Croupier : 9♥ 8♣ (17)" in text
    assert "Alice : 10♠ 10♥ 20 gagne · variation du solde +100" in text
    assert "Bob : 9♠ 7♦ 2♣ 18 gagne · variation du solde +100" in text
    assert await world.say(alice, "balance") == f"Tu as 1{NARROW}100 jetons."
    assert await world.say(bob, "balance") == "You have 1,100 chips."
    assert labels_enabled(table) == {
        "Rejouer la mise",
        "Miser 2×",
        "Rejoindre",
        "Quitter",
        "Détails du tour",
    }
