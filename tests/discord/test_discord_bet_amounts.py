"""``/bet`` reads the amount as the player's client writes numbers (1.000 is a thousand in
Spanish, 1,000 in English), refuses what reads two ways with both readings, and stakes
nothing then."""

from __future__ import annotations

from typing import cast

import pytest

from bot.app import BlackjackBot
from cogs.tournament import TournamentCog
from fakediscord import FakeMember
from tests.support.discord_world import World
from tests.support.shoes import SPARE, START_CHIPS, ShoeQueue
from tests.support.speech import receipt, said

# A hard 17 against the dealer's 9 (8 in the hole): no blackjack, the round waits.
SEVENTEEN = "Ts 9h 7d 8c " + SPARE
#: Chips an admin grants each player, so bets of thousands are covered.
GRANT = 5_000
#: How French groups thousands (CLDR).
NARROW = "\N{NARROW NO-BREAK SPACE}"


async def bets_staked(world: World, member: FakeMember) -> list[int]:
    return [-delta for kind, delta in await world.ledger(member) if kind == "bet"]


@pytest.mark.parametrize(
    ("locale", "short", "thousand", "receipts"),
    [
        (
            "es-ES",
            "2,5k",
            "1.000",
            ("Apuesta: 2.500. Saldo: 3.500.", "Apuesta: 1.000. Saldo: 2.500."),
        ),
        (
            "en-US",
            "2.5k",
            "1,000",
            ("Bet 2,500. Balance: 3,500.", "Bet 1,000. Balance: 2,500."),
        ),
        (
            "pt-BR",
            "2,5 mil",
            "1.000",
            ("Aposta: 2.500. Saldo: 3.500.", "Aposta: 1.000. Saldo: 2.500."),
        ),
        # French groups with a narrow no-break space; a player types a plain one.
        (
            "fr",
            "2,5k",
            "1 000",
            (
                f"Mise : 2{NARROW}500. Solde : 3{NARROW}500.",
                f"Mise : 1{NARROW}000. Solde : 2{NARROW}500.",
            ),
        ),
    ],
)
async def test_a_bet_is_read_as_the_players_client_writes_numbers(
    bot: BlackjackBot,
    world: World,
    shoes: ShoeQueue,
    locale: str,
    short: str,
    thousand: str,
    receipts: tuple[str, str],
) -> None:
    shoes.add(SEVENTEEN)
    shoes.add(SEVENTEEN)
    alice = world.alice
    alice.user.locale = locale
    await world.say(world.admin, "blackjack-admin grant", member=alice, amount=GRANT)
    assert await world.balance(alice) == START_CHIPS + GRANT
    await world.start(alice)
    await world.start(alice, world.other_channel)
    assert await world.bet(alice, short) == receipts[0]
    assert await world.bet(alice, thousand, channel=world.other_channel) == receipts[1]
    assert await bets_staked(world, alice) == [2_500, 1_000]


@pytest.mark.parametrize(
    ("locale", "typed", "refusal"),
    [
        (
            "en-US",
            "1.000",
            "'1.000' could mean 1 or 1,000, so nothing was bet: type 1000 for 1,000.",
        ),
        (
            "es-ES",
            "1,000",
            "'1,000' puede ser 1 o 1.000, así que no se ha apostado nada: escribe 1000 para 1.000.",
        ),
        (
            "pt-BR",
            "2,500",
            "'2,500' pode ser 2,5 ou 2.500, então nada foi apostado: digite 2500 para 2.500.",
        ),
        ("es-ES", "2.5k", "'2.5k' no es una cantidad de fichas: ¿querías decir 25k o 2,5k?"),
        (
            "fr",
            "1.000",
            f"'1.000' peut vouloir dire 1 ou 1{NARROW}000, donc rien n'a été misé : tape 1000 pour"
            f" 1{NARROW}000.",
        ),
    ],
)
async def test_an_amount_that_reads_two_ways_is_refused_with_both_and_stakes_nothing(
    bot: BlackjackBot, world: World, locale: str, typed: str, refusal: str
) -> None:
    table = await world.start(world.alice)
    world.bob.user.locale = locale
    await world.click(world.bob, table, "Join")
    before, shown = await world.chips(), (table.embeds, table.edits)
    assert await world.bet(world.bob, typed) == refusal
    assert await world.chips() == before
    assert (table.embeds, table.edits) == shown
    assert await bets_staked(world, world.bob) == []


async def test_the_words_for_half_and_all_are_each_languages_own(
    bot: BlackjackBot, world: World
) -> None:
    world.alice.user.locale = "pt-BR"
    world.bob.user.locale = "es-ES"
    table = await world.start(world.alice)
    await world.click(world.bob, table, "Join")
    assert await world.bet(world.alice, "metade") == "Aposta: 500. Saldo: 500."
    assert await world.bet(world.bob, "todo") == "Apuesta: 1.000. Saldo: 0."
    assert await bets_staked(world, world.alice) == [500]
    assert await bets_staked(world, world.bob) == [START_CHIPS]


async def test_a_client_language_the_bot_does_not_speak_reads_the_tables(
    bot: BlackjackBot, world: World
) -> None:
    await world.say(world.admin, "blackjack-admin config", language="es-ES")  # the table's
    world.alice.user.locale = "ja"  # answered in English, read as the table writes numbers
    world.bob.user.locale = "en-GB"  # English: read as English
    table = await world.start(world.carol)
    await world.click(world.alice, table, "Sentarse")
    await world.click(world.bob, table, "Sentarse")
    assert await world.bet(world.alice, "1.000") == said(world.alice, receipt(1_000, 0))
    assert await world.bet(world.bob, "1,000") == said(world.bob, receipt(1_000, 0))
    assert await bets_staked(world, world.alice) == [1_000]
    assert await bets_staked(world, world.bob) == [1_000]


async def test_a_tournament_bet_is_read_in_the_players_language(
    bot: BlackjackBot, world: World
) -> None:
    tournaments = cast(TournamentCog, bot.get_cog("Tournament"))

    async def ask(member: FakeMember, command: str, **options: object) -> str:
        text = await world.say(member, command, **options)
        await world.settle()
        await tournaments.idle()
        return text

    await world.slash(world.mod, "tournament create", None, hands=2, eliminations="1")
    world.alice.user.locale = "es-ES"
    world.bob.user.locale = "pt-BR"
    for member in (world.alice, world.bob):
        await ask(member, "tournament join")
    assert "started" in await ask(world.mod, "tournament start")
    # /bet in the tournament's channel: Alice's word for half, Bob's two-way amount.
    assert await ask(world.bob, "bet", amount="1,000") == (
        "'1,000' pode ser 1 ou 1.000, então nada foi apostado: digite 1000 para 1.000."
    )
    assert await ask(world.alice, "bet", amount="mitad") == (
        "Tu apuesta de 500 fichas está sellada."
    )
    # The Bet button's form reads Bob's Portuguese number too.
    board = world.fake.last_message(world.channel)
    opened = await world.fake.click(world.bob, board, label="Bet")
    over = await world.fake.submit_modal(world.bob, opened, {"Fichas": "2,5k"})
    assert over.content == "O máximo da mesa é 500; você apostou 2.500."  # 2,500, not 25
    opened = await world.fake.click(world.bob, board, label="Bet")
    two_ways = await world.fake.submit_modal(world.bob, opened, {"Fichas": "2,000"})
    assert two_ways.content == (
        "'2,000' pode ser 2 ou 2.000, então nada foi apostado: digite 2000 para 2.000."
    )
    opened = await world.fake.click(world.bob, board, label="Bet")
    sealed = await world.fake.submit_modal(world.bob, opened, {"Fichas": "0,4k"})
    assert sealed.content == "Sua aposta de 400 fichas está selada."
