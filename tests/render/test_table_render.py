"""The table message, a pure function of a snapshot: what players see, inside Discord's limits."""

from __future__ import annotations

from dataclasses import replace

import discord
import pytest

import db
from bot.engine.actions import Action
from bot.i18n import LANGUAGES, _
from bot.tables.results import result_blocks
from bot.tables.snapshot import DealerView, TablePhase
from cogs.table.buttons import BUTTON_ACTIONS, ButtonRef, custom_id, parse_custom_id
from cogs.table.embed_limits import (
    BUTTONS_PER_ROW,
    CUSTOM_ID_LIMIT,
    EMBED_TOTAL_LIMIT,
    FIELD_VALUE_LIMIT,
    ROWS_LIMIT,
    embed_size,
    field_count,
)
from cogs.table.render import COLOURS, RenderedTable, render_table
from cogs.table.render_results import CONTINUED, LAST_ROUND
from cogs.table.restart_text import voided_embed
from db.models import VoidResult
from fakediscord.limits import validate_message
from tests.support.render_snapshots import NOW, cards, hand, seat, table, worst_case


def enabled(rendered: RenderedTable) -> set[str]:
    """Labels of the buttons a player can press."""
    return {b.label for b in rendered.buttons if not b.disabled}


def field_named(embed: discord.Embed, name: str) -> str:
    """The value of the embed field with this name."""
    for field in embed.fields:
        if field.name == name:
            return str(field.value)
    raise AssertionError(f"no field {name!r} in {[f.name for f in embed.fields]}")


def test_dealer_hole_card_is_hidden_until_the_dealer_plays() -> None:
    hidden = render_table(table(TablePhase.PLAYING, seat(1, "alice", hand("10♠ 7♥", 17))))
    assert "**Dealer** 9♠ ?? · shows 9" in (hidden.embed.description or "")
    revealed = table(
        TablePhase.PLAYING,
        seat(1, "alice", hand("10♠ 7♥", 17)),
        dealer=DealerView(cards=cards("9♠ 8♦"), hole_hidden=False, total=17, soft=False),
    )
    description = render_table(revealed).embed.description or ""
    assert "9♠ 8♦" in description
    assert "??" not in description


def test_hand_to_act_is_marked_with_its_deadline_as_a_discord_timestamp() -> None:
    alice = seat(
        1,
        "alice",
        hand("8♠ 8♥ 3♦", 19, status="standing"),
        hand("8♦ 10♣", 18, is_current=True),
        legal=frozenset({Action.HIT, Action.STAND}),
        deadline=NOW + 30,
    )
    value = field_named(render_table(table(TablePhase.PLAYING, alice)).embed, "alice")
    first, second = value.splitlines()
    assert first == "• 8♠ 8♥ 3♦ · **19** · 100 · stood"
    assert second == f"▶ 8♦ 10♣ · **18** · 100 · <t:{int(NOW + 30)}:R>"


def test_soft_totals_blackjacks_and_busts_read_like_a_dealer_says_them() -> None:
    alice = seat(
        1,
        "alice",
        hand("A♠ 6♥", 17, soft=True),
        hand("A♦ K♣", 21, status="blackjack"),
        hand("10♠ 9♥ 5♦", 24, status="bust"),
    )
    lines = field_named(render_table(table(TablePhase.PLAYING, alice)).embed, "alice").splitlines()
    assert lines == [
        "• A♠ 6♥ · **soft 17** · 100",
        "• A♦ K♣ · **BJ** · 100",
        "• 10♠ 9♥ 5♦ · **bust 24** · 100",
    ]


def test_an_action_is_enabled_when_at_least_one_player_may_take_it() -> None:
    alice = seat(1, "alice", hand("10♠ 6♥", 16), legal=frozenset({Action.HIT, Action.STAND}))
    bob = seat(2, "bob", hand("8♠ 8♥", 16), legal=frozenset({Action.SPLIT, Action.STAND}))
    rendered = render_table(table(TablePhase.PLAYING, alice, bob))
    assert enabled(rendered) == {"Hit", "Stand", "Split", "Hint", "Join", "Leave"}
    assert rendered.button("Double").disabled
    assert rendered.button("Surrender").disabled


def test_nobody_to_act_leaves_only_join_and_leave() -> None:
    done = seat(1, "alice", hand("10♠ 8♥", 18, status="standing"))
    assert enabled(render_table(table(TablePhase.PLAYING, done))) == {"Join", "Leave"}


def test_insurance_is_asked_with_its_own_buttons() -> None:
    dealer = DealerView(cards=cards("A♠"), hole_hidden=True, total=11, soft=True)
    alice = seat(
        1,
        "alice",
        hand("10♠ 9♥", 19),
        legal=frozenset({Action.INSURANCE, Action.NO_INSURANCE}),
    )
    rendered = render_table(table(TablePhase.INSURANCE, alice, dealer=dealer, deadline=NOW + 20))
    assert enabled(rendered) == {"Insurance", "No insurance", "Join", "Leave"}
    assert "Hit" not in {b.label for b in rendered.buttons}
    assert f"**Insurance?** The dealer shows an ace · <t:{int(NOW + 20)}:R>" in (
        rendered.embed.description or ""
    )
    assert rendered.embed.colour is not None
    assert rendered.embed.colour.value == COLOURS[TablePhase.INSURANCE]


def test_betting_shows_the_bet_buttons_limits_deadline_and_last_results() -> None:
    snapshot = table(
        TablePhase.BETTING,
        seat(1, "alice", bet=500, spots=2),
        seat(2, "bob"),
        dealer=None,
        deadline=NOW + 30,
        last_results=("alice: win +500", "bob: loss -100"),
        rebets=(True, True),
    )
    rendered = render_table(snapshot)
    assert enabled(rendered) == {"Bet again", "Bet 2×", "Join", "Leave"}
    description = rendered.embed.description or ""
    assert f"**Place your bets** · <t:{int(NOW + 30)}:R>" in description
    assert "10–10,000 a hand, up to 7 hands" in description
    assert field_named(rendered.embed, "alice") == "Bet 500 a hand on 2 hands, 1,000 in all"
    assert field_named(rendered.embed, "bob") == "No bet yet"
    assert field_named(rendered.embed, "Last round") == "alice: win +500\nbob: loss -100"


def test_settled_hands_show_outcome_payout_and_net() -> None:
    alice = seat(
        1,
        "alice",
        hand(
            "A♦ K♣",
            21,
            stake=101,
            status="blackjack",
            outcome="blackjack",
            payout=252,
            rounded_down=True,
        ),
        hand("10♠ 9♥", 19, stake=100, status="standing", outcome="loss"),
        insurance=0,
        net=51,
    )
    lines = field_named(render_table(table(TablePhase.PLAYING, alice)).embed, "alice").splitlines()
    assert lines == [
        "• A♦ K♣ · **BJ** · 101 · blackjack → 252 (½ rounded down)",
        "• 10♠ 9♥ · **19** · 100 · loss → 0",
        "No insurance",
        "Net **+51**",
    ]


def test_the_shuffle_is_announced_with_each_players_action_and_standing() -> None:
    notice = ("New shoe: the cards were shuffled.", "alice: action 1,200, standing +300")
    rendered = render_table(table(TablePhase.BETTING, seat(1, "alice"), shuffle_notice=notice))
    assert field_named(rendered.embed, "Shuffled") == "\n".join(notice)


@pytest.mark.parametrize("phase", list(TablePhase))
def test_each_phase_has_its_colour(phase: TablePhase) -> None:
    rendered = render_table(table(phase, seat(1, "alice")))
    assert rendered.embed.colour is not None
    assert rendered.embed.colour.value == COLOURS[phase]


def test_a_closed_table_has_no_buttons_and_says_why() -> None:
    rendered = render_table(table(TablePhase.CLOSED, closed_reason="the host closed the table"))
    assert rendered.buttons == ()
    assert rendered.components() == []
    assert "**Table closed** · the host closed the table" in (rendered.embed.description or "")


def test_player_names_cannot_restyle_the_table_or_ping_anyone() -> None:
    rendered = render_table(table(TablePhase.BETTING, seat(1, "*bold* @everyone")))
    name = rendered.embed.fields[0].name or ""
    assert name.startswith("\\*bold\\*")
    assert "@everyone" not in name


def test_every_button_carries_table_round_and_action_in_its_custom_id() -> None:
    rendered = render_table(table(TablePhase.PLAYING, seat(1, "alice", hand("10♠ 6♥", 16))))
    for spec in rendered.buttons:
        assert parse_custom_id(spec.custom_id) == ButtonRef("a1b2c3d4", 3, spec.action)
    assert parse_custom_id("lb:next:2") is None
    assert parse_custom_id("bj:a1b2c3d4:3:steal") is None
    for action in BUTTON_ACTIONS:
        longest = custom_id("f" * 40, 10**15 - 1, action)
        assert len(longest) <= CUSTOM_ID_LIMIT


@pytest.mark.parametrize("phase", list(TablePhase))
async def test_the_buttons_are_a_stopped_view_of_discord_ui_buttons(phase: TablePhase) -> None:
    """The table's buttons are a discord.ui.View of one Button per spec, persistent (no
    timeout, custom ids) and stopped, so discord.py sends it and never stores it: clicks
    are routed by custom id (the table cog)."""
    legal = frozenset({Action.HIT, Action.STAND, Action.INSURANCE})
    rendered = render_table(
        table(phase, replace(seat(1, "alice", hand("10♠ 6♥", 16)), legal=legal), seat(2, "bob"))
    )
    sent = rendered.view()
    assert isinstance(sent, discord.ui.View)
    buttons = [item for item in sent.children if isinstance(item, discord.ui.Button)]
    assert len(buttons) == len(sent.children) == len(rendered.buttons)
    for button, spec in zip(buttons, rendered.buttons, strict=True):
        assert (button.label, button.custom_id, button.style, button.disabled, button.row) == (
            spec.label,
            spec.custom_id,
            spec.style,
            spec.disabled,
            spec.row,
        )
    assert sent.to_components() == rendered.components()
    if phase is TablePhase.PLAYING:  # both kinds of button: Hit enabled, Split not
        assert {spec.disabled for spec in rendered.buttons} == {True, False}
    assert sent.is_persistent()
    assert sent.is_finished()
    assert not sent.has_components_v2()


def test_the_embed_is_measured_as_discord_counts_it() -> None:
    """embed_size counts what Discord counts toward the 6000 limit, read here from the
    payload discord.py sends (title, description, fields, footer, author)."""
    embed = render_table(worst_case()).embed
    embed.set_author(name="An author counts too")
    sent = embed.to_dict()
    counted = len(sent.get("title", "")) + len(sent.get("description", ""))
    counted += sum(len(f["name"]) + len(f["value"]) for f in sent.get("fields", []))
    counted += len(sent.get("footer", {}).get("text", ""))
    counted += len(sent.get("author", {}).get("name", ""))
    assert embed_size(embed) == counted > 5000
    assert field_count(embed) == len(sent["fields"]) > 7
    empty = discord.Embed(title="no fields, footer or author")
    assert embed_size(empty) == len("no fields, footer or author")
    assert field_count(empty) == 0


@pytest.mark.parametrize("language", LANGUAGES)
def test_seven_players_with_four_split_hands_each_stay_inside_discords_limits(
    language: str,
) -> None:
    snapshot = worst_case()
    rendered = render_table(snapshot, language=language)
    embed = rendered.embed
    assert embed_size(embed) <= EMBED_TOTAL_LIMIT
    assert all(len(field.value or "") <= FIELD_VALUE_LIMIT for field in embed.fields)
    # Every seat and every hand is still on the table; only the extras may be cut.
    names = [f"\\*\\*{'W' * 28}{n}…" for n in range(7)]
    assert [field.name for field in embed.fields][:7] == [
        _("{player} (leaving)", player=name).in_language(language) for name in names
    ]
    for field in embed.fields[:7]:
        assert (field.value or "").count("2♠ 2♥ A♦") == 4
        assert "Buster Blackjack" in (field.value or "")  # every live side bet stays too
    # The fake Discord's own validator (Discord's limits) accepts the whole message.
    payload = {"embeds": [embed.to_dict()], "components": rendered.components()}
    validate_message(payload, allowed_flags=64)
    for phase in TablePhase:
        again = render_table(replace(snapshot, phase=phase), language=language)
        validate_message(
            {"embeds": [again.embed.to_dict()], "components": again.components()},
            allowed_flags=64,
        )
        assert embed_size(again.embed) <= EMBED_TOTAL_LIMIT
        rows = again.components()
        assert len(rows) <= ROWS_LIMIT
        assert all(len(row["components"]) <= BUTTONS_PER_ROW for row in rows)  # type: ignore[arg-type]


def test_lines_stay_short_enough_for_a_phone() -> None:
    alice = seat(1, "alice", hand("A♠ 10♥", 21, status="blackjack"), hand("9♦ 7♣", 16))
    value = field_named(render_table(table(TablePhase.PLAYING, alice)).embed, "alice")
    assert max(len(line) for line in value.splitlines()) <= 40


def test_a_voided_round_says_stakes_were_refunded_to_whom() -> None:
    result = VoidResult(
        round_id=12,
        guild_id=10,
        channel_id=20,
        message_id=30,
        state_json=None,
        reason="the bot restarted",
        already_closed=False,
        status="void",
        refunds={1: 500, 2: 100},
        balances={1: 1000, 2: 900},
    )
    embed = voided_embed(result)
    assert embed.title == "Round voided"
    assert "the bot restarted" in (embed.description or "")
    assert embed.fields[0].value == "<@1> 500 back (balance 1,000)\n<@2> 100 back (balance 900)"


def test_a_last_round_too_long_for_the_message_shows_each_players_net_instead() -> None:
    names = [f"player{n}" for n in range(7)]
    details = tuple(
        f"{name} (hand {h}): {'2♠ ' * 40}— wins 10, 20 back" for name in names for h in range(7)
    )
    summary = ("Dealer busts: 9♦ 7♣ K♦ (26)", *(f"{name}: net +70 on 7 hands" for name in names))
    seats = [seat(n, name, net=70) for n, name in enumerate(names)]
    snapshot = table(
        TablePhase.BETTING,
        *seats,
        last_results=("Dealer busts: 9♦ 7♣ K♦ (26)", *details),
        last_summary=summary,
        events=(),
    )
    embed = render_table(snapshot).embed
    assert embed_size(embed) <= EMBED_TOTAL_LIMIT
    assert field_named(embed, "Last round") == "\n".join(summary)
    validate_message({"embeds": [embed.to_dict()]}, allowed_flags=64)


def test_a_last_round_over_several_fields_keeps_each_players_hands_together() -> None:
    names = [f"player{n}" for n in range(7)]
    dealer = "Dealer: 9♦ 7♣ 2♦ (18)"
    blocks = {
        name: [
            *(f"{name} (hand {h}): 10♠ 8♣ 2♥ 3♦ — 23 busts: loses 1,000" for h in range(1, 5)),
            f"{name}: insurance of 500 loses",
            f"{name}: net -4,500",
        ]
        for name in names
    }
    last_results = (dealer, *(line for lines in blocks.values() for line in lines))
    snapshot = table(
        TablePhase.BETTING,
        *(seat(n, name) for n, name in enumerate(names)),
        last_results=last_results,
        events=(),
    )
    embed = render_table(snapshot).embed
    results = [field for field in embed.fields if field.name in (LAST_ROUND, CONTINUED)]
    assert len(results) > 1
    # One heading; the fields that carry on have a blank name, not a new section's.
    assert [field.name for field in results] == [LAST_ROUND] + [CONTINUED] * (len(results) - 1)
    shown = [(field.value or "").split("\n") for field in results]
    assert [line for lines in shown for line in lines] == list(last_results)
    for lines in blocks.values():
        assert any(lines == value[i : i + len(lines)] for value in shown for i in range(len(value)))
    validate_message({"embeds": [embed.to_dict()]}, allowed_flags=64)


def test_result_blocks_keep_the_chip_limit_line_with_its_player() -> None:
    not_paid = f"bob: 5 not paid: it would pass the chip limit of {db.MAX_BALANCE:,}"
    lines = ["Dealer: 10♦ 8♣ (18)", "alice: 10♠ 9♣ — 19 beats 18: wins 10, 20 back",
             "alice: net +10", "bob: A♠ K♣ — blackjack: wins 15, 25 back", "bob: net +15",
             not_paid, "carol: net ±0 on 2 hands"]  # fmt: skip
    assert result_blocks(lines) == [lines[:1], lines[1:3], lines[3:6], lines[6:]]


def test_bet_buttons_are_left_out_while_no_bet_could_be_repeated() -> None:
    # Before anyone's first bet there is nothing to repeat.
    first = render_table(table(TablePhase.BETTING, seat(1, "alice"), dealer=None))
    assert enabled(first) == {"Join", "Leave"}
    # reno-1972's 2–2: a last bet can be repeated but never doubled.
    reno = table(TablePhase.BETTING, seat(1, "alice"), dealer=None, rebets=(True, False))
    assert enabled(render_table(reno)) == {"Bet again", "Join", "Leave"}
