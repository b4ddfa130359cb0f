"""Languages through Discord: each player's private answers in their client's language,
the table message in the server's (or the one an admin sets), numbers written each
language's way (French groups them with a narrow no-break space), and the synced commands
localized."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from babel.messages.pofile import read_po

from bot.app import BlackjackBot
from bot.command_translator import command_texts
from bot.i18n import (
    COMMANDS,
    LANGUAGES,
    LOCALES_DIR,
    Text,
    _,
    joined,
    n_,
    signed,
)
from fakediscord import FakeDiscord
from tests.support.discord_world import World, embed_text, labels_enabled
from tests.support.shoes import SPARE, START_CHIPS, ShoeQueue
from tests.support.speech import receipt, said

# Alice Ts Th (20) and Bob 9s 7d (16, hits a 2: 18) against the dealer's 9h 8c (17).
ROUND = "Ts 9s 9h Th 7d 8c 2c " + SPARE
NARROW = "\N{NARROW NO-BREAK SPACE}"


@dataclass(frozen=True)
class Speakers:
    """A server's language, Alice's and Bob's clients', and two of Alice's answers as her
    language writes them (its numbers and its words, not only the catalog's)."""

    server: str
    alice: str
    bob: str
    balance: str
    hint: str


PORTUGUESE_SERVER = Speakers(
    "pt-BR",
    "es-ES",
    "pt-BR",
    "Tienes 1.000 fichas.",
    "Tu mano 10♠ 10♥ contra 9♥\nEstrategia básica: plantarse",
)
FRENCH_SERVER = Speakers(
    "fr",
    "fr",
    "en-US",
    f"Tu as 1{NARROW}000 jetons.",
    "Ta main 10♠ 10♥ contre 9♥\nStratégie de base : rester",
)


@pytest.fixture
def speakers() -> Speakers:
    """A Brazilian server where Alice's client speaks Spanish and Bob's Portuguese."""
    return PORTUGUESE_SERVER


@pytest.fixture
def world(fake_discord: FakeDiscord, speakers: Speakers) -> World:
    return World.speaking(fake_discord, speakers.server, speakers.alice, speakers.bob)


def balance(amount: int) -> Text:
    return _("You have {amount} chips.", amount=amount)


def won(player: str, cards: str, total: int, net: int) -> Text:
    """The Last round's line of a player who won with one hand."""
    hand = _("{cards} {result}", cards=cards, result=_("{total} wins", total=total))
    return _(
        "{player}: {results} · balance change {net}",
        player=player,
        results=joined([hand]),
        net=signed(net),
    )


@pytest.mark.parametrize("speakers", [PORTUGUESE_SERVER, FRENCH_SERVER], ids=["pt-BR", "fr"])
async def test_two_players_share_a_table_in_the_servers_language_each_answered_in_their_own(
    bot: BlackjackBot, world: World, shoes: ShoeQueue, speakers: Speakers
) -> None:
    shoes.add(ROUND)
    alice, bob = world.alice, world.bob
    table_says = world.guild.preferred_locale

    def on_table(text: Text) -> str:
        return text.in_language(table_says)

    assert await world.say(alice, "balance") == speakers.balance
    assert await world.say(bob, "balance") == said(bob, balance(1_000))

    table = await world.start(alice)
    text = embed_text(table)
    assert on_table(_("**Place your bets**")) in text  # the server's language, whoever opened it
    bets = n_(
        "`/bet amount [hands]` · {low}–{high} a hand, up to {count} hand",
        "`/bet amount [hands]` · {low}–{high} a hand, up to {count} hands",
        7,
        low=10,
        high=10_000,
        count=7,
    )
    assert on_table(bets) in text
    assert labels_enabled(table) == {on_table(_("Join")), on_table(_("Leave"))}  # nothing to repeat

    joined_table = await world.click(bob, table, on_table(_("Join")))
    assert joined_table.response_type == 7
    assert await world.bet(alice, "100") == said(alice, receipt(100, 900))
    assert await world.bet(bob, "100") == said(bob, receipt(100, 900))
    # Both bet: the cards are out. A refusal is private, in the player's language.
    late = _("The cards are out: bet when the next round opens.")
    assert await world.bet(alice, "200") == said(alice, late)

    text = embed_text(table)
    assert on_table(_("**Your move** · everyone plays at once")) in text
    assert on_table(_("**Dealer** {cards} · shows {total}", cards="9♥ ??", total=9)) in text
    buttons = {on_table(_(label)) for label in ("Hit", "Stand", "Double", "Hint")}
    assert buttons <= labels_enabled(table)

    hint = await world.fake.click(alice, table, label=on_table(_("Hint")))
    assert hint.ephemeral
    assert (hint.content or "").startswith(speakers.hint)
    await world.click(alice, table, on_table(_("Stand")))
    refused = await world.refused(alice, table, on_table(_("Hit")))
    assert refused == said(alice, _("You have no hand left to play this round."))
    await world.click(bob, table, on_table(_("Hit")))
    hit = _("{player} hits: {cards} → {total}", player="Bob", cards="2♣", total=18)
    assert on_table(hit) in embed_text(table)
    await world.click(bob, table, on_table(_("Stand")))

    text = embed_text(table)
    assert on_table(_("Last round")) in text
    assert on_table(_("Dealer: {cards} ({total})", cards="9♥ 8♣", total=17)) in text
    assert on_table(won("Alice", "10♠ 10♥", 20, 100)) in text
    assert on_table(won("Bob", "9♠ 7♦ 2♣", 18, 100)) in text
    assert await world.say(alice, "balance") == said(alice, balance(1_100))
    assert await world.say(bob, "balance") == said(bob, balance(1_100))
    # Bets to repeat now: the Bet buttons, in the server's language.
    after = ("Bet again", "Bet 2×", "Join", "Leave", "Round details")
    assert labels_enabled(table) == {on_table(_(label)) for label in after}


async def test_an_admin_sets_the_table_language_and_english_stays_the_default(
    bot: BlackjackBot, world: World
) -> None:
    table = await world.start(world.alice)
    assert "**Façam suas apostas**" in embed_text(table)
    changed = await world.say(world.admin, "blackjack-admin config", language="es-ES")
    assert "Table language: Español (España)" in changed  # the admin's client: English
    await world.click(world.bob, table, "Entrar")  # the next update speaks Spanish
    assert "**Hagan sus apuestas**" in embed_text(table)
    assert "Levantarse" in labels_enabled(table)
    await world.say(world.admin, "blackjack-admin config", language="en-US")
    await world.click(world.bob, table, "Levantarse")
    assert "**Place your bets**" in embed_text(table)
    assert await world.say(world.carol, "balance") == "You have 1,000 chips."


async def test_side_bet_refusals_and_settings_answer_in_the_readers_language(
    bot: BlackjackBot, world: World
) -> None:
    await world.start(world.alice)
    # Buster is off: Alice (Spanish) and Bob (Portuguese) are refused in their own words,
    # and nothing is staked.
    refused = await world.say(world.alice, "bet", amount="100", buster=10)
    assert refused == "Esta mesa no ofrece Buster Blackjack."
    refused = await world.say(world.bob, "bet", amount="100", buster=10)
    assert refused == "Esta mesa não oferece Buster Blackjack."
    assert await world.ledger(world.alice) == [("grant", START_CHIPS)]
    # An admin whose client speaks Spanish reads the side-bet settings in Spanish.
    world.admin.user.locale = "es-ES"
    shown = await world.say(world.admin, "blackjack-admin side-bets", max_bet=5_000)
    assert "Buster Blackjack: desactivada" in shown
    assert "Apuestas laterales: de 1 a 5.000 fichas por mano" in shown
    refused = await world.say(
        world.admin, "blackjack-admin side-bets", bet="perfect-pairs", pay_table="25/15/12"
    )
    assert refused == (
        "No ha cambiado nada: Perfect Pairs pagando 25/15/12 da al jugador una ventaja del "
        "22,83% con 6 barajas, así que no se puede ofrecer."
    )
    refused = await world.say(
        world.admin, "blackjack-admin side-bets", bet="perfect-pairs", pay_table="25/12"
    )
    assert refused == (
        "No ha cambiado nada: Perfect Pairs: '25/12' no es una tabla de pagos suya: da un pago "
        "a 1 para todas las jugadas ganadoras, o uno para cada una de sus 3 (pareja perfecta, "
        "pareja del mismo color, pareja mixta), como 25/15/5."
    )


async def test_a_spanish_player_on_a_break_and_a_brazilians_limits_are_told_in_their_language(
    bot: BlackjackBot, world: World
) -> None:
    await world.start(world.bob)
    assert "En pausa: hasta <t:" in await world.say(world.alice, "limits break", period="7d")
    refused = await world.bet(world.alice, "100")
    assert refused.startswith("Estás en una pausa del juego hasta <t:")
    assert refused.endswith("No se ha cambiado nada.")
    assert (await world.say(world.alice, "daily")).startswith("Estás en una pausa del juego")
    assert await world.ledger(world.alice) == []  # nothing staked, nothing claimed

    changed = await world.say(world.bob, "limits set", daily_loss=1_500, session_minutes=45)
    assert changed.endswith(
        "Limites menores valem na hora; limites maiores, ou nenhum, valem 24 horas depois do"
        " pedido."
    )
    lines = (await world.say(world.bob, "limits show")).split("\n")
    assert lines[0] == "Limite diário de perdas: 1.500 fichas"
    assert lines[1].startswith("Perdido hoje: 0 fichas (o dia reinicia <t:")
    assert lines[2:] == [
        "Lembrete de tempo de jogo após: 45 min",
        "Em pausa: não",
        "Estes limites valem em todos os servidores onde você joga blackjack comigo.",
    ]


async def test_an_unreadable_or_too_small_bet_is_refused_in_the_players_language(
    bot: BlackjackBot, world: World
) -> None:
    await world.start(world.bob)
    assert await world.bet(world.bob, "abc") == (
        "'abc' não é uma quantidade de fichas. Use um número como 500, 2,5k ou 1m, ou metade,"
        " máx ou tudo."
    )
    assert await world.bet(world.bob, "0") == "A aposta precisa ser um número positivo de fichas."
    assert await world.bet(world.alice, "5") == "El mínimo de la mesa es 10; has apostado 5."
    assert await world.ledger(world.alice) == []  # nothing staked
    assert await world.ledger(world.bob) == [("grant", START_CHIPS)]
    assert await world.say(world.bob, "balance") == "Você tem 1.000 fichas."


async def test_a_brazilians_hint_names_the_hand_total_in_portuguese(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add("Ts 9h 4d 8c " + SPARE)  # Bob 14 (hard) against the dealer's 9
    table = await world.start(world.bob)
    assert await world.bet(world.bob, "100") == "Aposta: 100. Saldo: 900."
    hint = await world.fake.click(world.bob, table, label="Dica")
    assert "(14 duro contra um 9)" in (hint.content or "")


async def test_a_pocket_table_speaks_its_hosts_language_and_its_board_is_translated(
    bot: BlackjackBot, world: World
) -> None:
    fake = world.fake
    alice, bob = world.alice.user, world.bob.user  # Spanish and Portuguese clients
    fake.install_app(alice)
    fake.install_app(bob)
    group = fake.add_group_dm(alice, bob)
    start = await fake.slash(alice, "blackjack start", group)
    table = start.original
    assert table is not None
    await world.settle()
    assert "**Hagan sus apuestas**" in embed_text(table)
    # Outside servers there are no seasons: Bob is told so in Portuguese.
    refused = await fake.slash(bob, "leaderboard", group, season="current")
    assert refused.content == (
        "Temporadas pertencem a um servidor, e fora dos servidores não há nenhuma. "
        "Deixe de fora `temporada` para se ver entre as pessoas com quem jogou."
    )


async def test_synced_commands_carry_spanish_and_portuguese_names_and_descriptions(
    bot: BlackjackBot, world: World
) -> None:
    synced = [command.data for command in world.fake.commands[None]]
    bet = next(command for command in synced if command["name"] == "bet")
    assert set(bet["name_localizations"]) == set(LANGUAGES[1:])  # each registered language's
    assert bet["name_localizations"]["es-ES"] == bet["name_localizations"]["pt-BR"] == "apostar"
    assert bet["description_localizations"]["pt-BR"] == "Aposte nesta rodada na mesa do canal"
    amount = bet["options"][0]
    assert amount["name_localizations"]["es-ES"] == "cantidad"
    assert amount["name_localizations"]["pt-BR"] == "quantia"
    assert bet["name_localizations"]["fr"] == "miser"
    assert amount["name_localizations"]["fr"] == "montant"
    # Every name, description and choice the bot syncs is in the commands catalog.
    with (LOCALES_DIR / f"{COMMANDS}.pot").open("rb") as pot:
        template = {(message.context, message.id) for message in read_po(pot) if message.id}
    assert set(command_texts(synced)) == template, "run `make catalogs`"
    # A language's name in itself is said the same everywhere: no catalog holds it.
    admin = next(command for command in synced if command["name"] == "blackjack-admin")
    config = next(option for option in admin["options"] if option["name"] == "config")
    language = next(option for option in config["options"] if option["name"] == "language")
    choices = {choice["value"]: choice for choice in language["choices"]}
    assert set(choices) == {"server", *LANGUAGES}
    assert choices["es-ES"]["name"] == "Español (España)"
    assert not any(choices[code].get("name_localizations") for code in LANGUAGES)
    assert choices["server"]["name_localizations"]["es-ES"] == "Idioma del servidor"
    # And each description is translated into every language (names may stay English).
    for language in LANGUAGES[1:]:
        for command in synced:
            assert language in (command.get("description_localizations") or {}), command["name"]
