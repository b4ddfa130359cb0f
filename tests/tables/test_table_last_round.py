"""The last round at a glance, from the table's real settlement: short enough to read in
two seconds at a busy table, within Discord's limits at a full one, in every language the
bot speaks; and each player's shown net is what their balance did."""

from __future__ import annotations

import re

import discord
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import db
from bot.engine import Action
from bot.i18n import LANGUAGES, speaking
from bot.tables import Player, TablePhase, TableService, TableSnapshot
from cogs.table.card_art import markup, wanted_names
from cogs.table.embed_limits import EMBED_TOTAL_LIMIT, embed_size
from cogs.table.render import render_table
from cogs.table.render_results import CONTINUED, LAST_ROUND, escape_line
from cogs.table.round_details import details_embed
from fakediscord.clock import ManualClock
from fakediscord.limits import validate_message
from tests.support.shoes import SPARE, ShoeQueue
from tests.support.tables import ALICE, BOB, CAROL, CHANNEL, GUILD, HOSTILE_PLAYERS, tick

ALL_ON = {"side_bets": {"21+3": "9", "perfect-pairs": "25/12/6", "buster": "2/2/4/12/50/250"}}
EVERY_BET = {"21+3": 10, "perfect-pairs": 10, "buster": 10}
#: The budgets of a table a person reads at a glance (3 players, 3 hands, 3 side bets each).
VISIBLE_BUDGET = 1_800
LAST_ROUND_LINES = 12
#: A shown net at the end of a player's line: +40, -1,000, ±0 (1.000 where so written).
_NET_AT_END = re.compile(r"(?:[+-]\d[\d.,\u00a0]*|±0)$")
#: A card picture as the bot writes it: ``<:name:id>`` (one character to the reader).
_PICTURE = re.compile(r"<a?:\w+:\d+>")
FACES = {
    code: markup(name, 1_310_000_000_000_000_000 + number)
    for number, (name, code) in enumerate(sorted(wanted_names().items()))
}


def visible_size(embed: discord.Embed) -> int:
    """The characters a reader sees: Discord's count, a card picture counted as one."""
    parts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    for field in embed.fields:
        parts += [field.name or "", field.value or ""]
    return sum(len(_PICTURE.sub("?", part)) for part in parts)


def last_round_lines(embed: discord.Embed, language: str) -> list[str]:
    """The Last round section's lines (over as many fields as it takes)."""
    heading = (LAST_ROUND.in_language(language), CONTINUED)
    shown = [f.value or "" for f in embed.fields if f.name in heading]
    return "\n".join(shown).split("\n") if shown else []


async def settled_table(
    service: TableService, clock: ManualClock, players: list[Player], spots: int
) -> TableSnapshot:
    """Everyone bets ``spots`` hands with every side bet; each hand stands at the timer."""
    await service.start(GUILD, CHANNEL, players[0])
    for player in players[1:]:
        await service.join(CHANNEL, player)
    for player in players:
        await service.bet(CHANNEL, player, "10", spots=spots, side=EVERY_BET)
    await tick(clock, 30)
    snapshot = service.table_in(CHANNEL)
    assert snapshot is not None
    assert snapshot.phase is TablePhase.BETTING
    return snapshot


async def test_three_players_of_three_hands_and_three_side_bets_read_at_a_glance(
    service: TableService, store: db.Store, clock: ManualClock, shoes: ShoeQueue
) -> None:
    await store.set_guild_settings(GUILD, **ALL_ON)
    # Nine spots of different cards against the dealer's 9 7, who draws a king and busts.
    firsts, seconds = "Ts Js Qs Kh Th 9s 8d 7c 6h", "9s 8s 7d 9h 8h 7h Tc 9c Ts"
    shoes.add(f"{firsts} 9d {seconds} 7c Kd {SPARE}")
    snapshot = await settled_table(service, clock, [ALICE, BOB, CAROL], spots=3)
    assert len(snapshot.last_summary) == 4  # the dealer, and one line a player
    for language in LANGUAGES:
        for faces in (FACES, None):
            embed = render_table(snapshot, faces, language).embed
            assert visible_size(embed) <= VISIBLE_BUDGET, (language, visible_size(embed))
            assert 4 <= len(last_round_lines(embed, language)) <= LAST_ROUND_LINES, language
            validate_message({"embeds": [embed.to_dict()]}, allowed_flags=64)


async def test_seven_hostile_names_of_four_split_hands_stay_within_discords_limits(
    service: TableService, store: db.Store, clock: ManualClock, shoes: ShoeQueue
) -> None:
    await store.set_guild_settings(GUILD, **ALL_ON, min_bet=1)
    # Each player 8 8 against the dealer's 9 7: split, split the first hand again on an 8,
    # and again: four hands of 8 10 that stand at the timer; the dealer busts on a king.
    splits = " ".join(["8c Td 8d Th Tc Ts"] * 7)
    shoes.add(f"{' '.join(['8s'] * 7)} 9d {' '.join(['8h'] * 7)} 7c {splits} Kd {SPARE}")
    players = HOSTILE_PLAYERS
    await service.start(GUILD, CHANNEL, players[0])
    for player in players[1:]:
        await service.join(CHANNEL, player)
    for player in players:
        snapshot, _ = await service.bet(CHANNEL, player, "10", side=EVERY_BET)
    for player in players:
        for _ in range(3):
            reply = await service.act(snapshot.table_id, snapshot.round_no, player, Action.SPLIT)
            snapshot = reply.snapshot
    assert all(len(seat.hands) == 4 for seat in snapshot.seats)
    await tick(clock, 30)
    settled = service.table_in(CHANNEL)
    assert settled is not None
    assert len(settled.last_summary) == 8
    for language in LANGUAGES:
        for faces in (FACES, None):
            embed = render_table(settled, faces, language).embed
            assert embed_size(embed) <= EMBED_TOTAL_LIMIT
            validate_message({"embeds": [embed.to_dict()]}, allowed_flags=64)
            # Every player's line is shown whole: the net is at its end.
            lines = last_round_lines(embed, language)
            assert len(lines) == 8, language
            assert all(_NET_AT_END.search(line) for line in lines[1:]), (language, lines)
        # Round details, privately: the dealer, then the presser's own lines first, all
        # within an embed's limits (what does not fit is counted, not cut mid-line).
        with speaking(language):
            details = details_embed(settled, players[6].user_id)
        validate_message({"embeds": [details.to_dict()], "flags": 64}, allowed_flags=64)
        account = (details.description or "").split("\n")
        assert account[0] == settled.last_results[0].in_language(language)
        theirs = [
            line.in_language(language)
            for line, owner in zip(settled.last_results, settled.last_owners, strict=True)
            if owner == str(players[6].user_id)
        ]
        assert account[1 : 1 + len(theirs)] == [escape_line(line) for line in theirs]


# -- the shown net is the balance's change ----------------------------------------------------

RANKS = "A23456789TJQK"
SUITS = "shdc"
#: Two decks' worth of cards, any order: enough for three players of three split hands.
_CARDS = st.lists(
    st.sampled_from([rank + suit for rank in RANKS for suit in SUITS]), min_size=104, max_size=104
)
_SIDE = st.dictionaries(st.sampled_from(sorted(EVERY_BET)), st.integers(1, 20), max_size=3)
_SEAT = st.tuples(st.integers(10, 60), st.integers(1, 3), _SIDE)
_channels = iter(range(CHANNEL + 1000, CHANNEL + 10**6))


def shown_net(line: str) -> int:
    """The net at the end of a Last round line (English: ``... · balance change -1,020``)."""
    net = line.rpartition(" · balance change ")[2]
    return 0 if net == "±0" else int(net.replace(",", ""))


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    seats=st.lists(_SEAT, min_size=1, max_size=3),
    cards=_CARDS,
    choices=st.data(),
)
async def test_each_players_shown_net_is_their_balances_change_for_the_round(
    service: TableService,
    store: db.Store,
    clock: ManualClock,
    shoes: ShoeQueue,
    seats: list[tuple[int, int, dict[str, int]]],
    cards: list[str],
    choices: st.DataObject,
) -> None:
    # One table per example (its own channel), played to its settlement with random cards,
    # bets, side bets and decisions (insurance, doubles, splits, surrenders among them).
    await store.set_guild_settings(GUILD, **ALL_ON)
    channel = next(_channels)
    players = [ALICE, BOB, CAROL][: len(seats)]
    shoes.add(" ".join(cards))
    await service.start(GUILD, channel, players[0])
    for player in players[1:]:
        await service.join(channel, player)
    for player in players:  # chips enough for any double or split: the same play each run
        balance = await store.balance(GUILD, player.user_id)
        if balance != 10_000:  # an earlier example may have left exactly that
            await store.adjust(GUILD, player.user_id, 10_000 - balance, 1, "a property's stake")
    before = {p.user_id: await store.balance(GUILD, p.user_id) for p in players}
    for player, (amount, spots, side) in zip(players, seats, strict=True):
        snapshot, _ = await service.bet(channel, player, str(amount), spots=spots, side=side)
    for _ in range(80):
        if snapshot.phase not in (TablePhase.INSURANCE, TablePhase.PLAYING):
            break
        seat = choices.draw(st.sampled_from([seat for seat in snapshot.seats if seat.legal]))
        action = choices.draw(st.sampled_from(sorted(seat.legal)))
        player = next(p for p in players if p.user_id == seat.user_id)
        reply = await service.act(snapshot.table_id, snapshot.round_no, player, action)
        snapshot = reply.snapshot
    settled = service.table_in(channel)
    assert settled is not None
    assert settled.phase is TablePhase.BETTING
    shown = {line.partition(": ")[0]: line for line in settled.last_summary[1:]}
    for player in players:
        change = await store.balance(GUILD, player.user_id) - before[player.user_id]
        assert shown_net(shown[player.name]) == change, shown[player.name]
        seat = next(seat for seat in settled.seats if seat.user_id == player.user_id)
        assert seat.net == change
    await service.stop(channel, players[0], may_manage_channel=True)
