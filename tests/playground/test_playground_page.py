"""The playground's server side: the real bot on the local Discord, and the page's routes.

Each test serves a fresh playground (the ``served`` fixture) and talks to the page's
HTTP and websocket routes as the page's script does.
"""

from __future__ import annotations

from pathlib import Path

import aiohttp
import pytest

from bot.__main__ import build_parser
from bot.i18n import LANGUAGES
from playground.command_line import CommandLineError, parse_line
from tests.playground.served import Served, serve_playground
from tests.support.shoes import SPARE, ShoeQueue


async def test_the_command_box_lists_the_commands_the_bot_synced(served: Served) -> None:
    state = await served.get("/api/state")
    paths = [c["path"] for c in state["commands"]]
    assert {"bet", "balance", "blackjack start", "blackjack join", "leaderboard"} <= set(paths)
    assert paths == sorted(paths)
    start = next(c for c in state["commands"] if c["path"] == "blackjack start")
    preset = next(o for o in start["options"] if o["name"] == "preset")
    assert {c["value"] for c in preset["choices"]} >= {"classic", "vegas-shoe"}
    bet = next(c for c in state["commands"] if c["path"] == "bet")
    hands = next(o for o in bet["options"] if o["name"] == "hands")
    assert (hands["min_value"], hands["max_value"], hands["required"]) == (1, 7, False)
    assert [p["name"] for p in state["players"]] == ["Alice", "Bob", "Croupier"]
    assert [c["name"] for c in state["channels"]] == ["blackjack", "high-rollers"]


async def test_a_typed_line_becomes_the_options_a_client_sends(served: Served) -> None:
    playground = served.playground
    entries, guild = playground.commands(playground.players()[0]), playground.guild
    assert parse_line("/bet 100", entries, guild).options == {"amount": "100"}
    parsed = parse_line("/bet hands:2 amount:1k", entries, guild)
    assert (parsed.path, parsed.options) == ("bet", {"amount": "1k", "hands": 2})
    parsed = parse_line("/blackjack start preset:Classic min_bet:10", entries, guild)
    assert (parsed.path, parsed.options) == (
        "blackjack start",
        {"preset": "classic", "min_bet": 10},
    )
    bob = playground.players()[1]
    assert parse_line("/balance member:@bob", entries, guild).options == {"member": bob}
    for line, reason in [
        ("/nothing", "There is no command /nothing here."),
        ("/blackjack", "/blackjack needs a subcommand"),
        ("/balance member:nobody", "There is no member 'nobody' in this server."),
        ("/bet amount:1 amount:2", "Option amount is given twice."),
    ]:
        with pytest.raises(CommandLineError, match=reason):
            parse_line(line, entries, guild)


async def test_bad_input_gets_what_discord_would_answer_and_changes_nothing(
    served: Served,
) -> None:
    alice, _, channel = served.ids()
    # The client refuses these itself (the fake's checks): nothing reaches the bot.
    refused = {
        "/bet amount:100 hands:9": "option 'hands' must be at most 7",
        "/bet hands:2": "requires option 'amount'",
        "/blackjack start preset:nonsense": "option 'preset' must be one of",
        "/bet amount:100 hands:two": "option 'hands' takes a number, got 'two'",
        "/bet amount:100 hands:1.5": "option 'hands' takes a whole number",
    }
    for line, reason in refused.items():
        outcome = await served.command(alice, channel, line)
        assert outcome["ok"] is False
        assert reason in outcome["refused"], outcome
    assert not served.playground.fake.interactions
    # The bot answers what it must judge itself, privately.
    assert (await served.command(alice, channel, "/bet 100"))["ok"] is True
    shown = await served.get(f"/api/messages?channel={channel}&viewer={alice}")
    assert [m["ephemeral"] for m in shown] == [True]
    assert "no table" in shown[0]["content"].lower()
    assert shown[0]["used_by"] == "Alice"
    assert shown[0]["used_command"] == "bet"


async def test_an_ephemeral_reply_reaches_only_its_players_page(served: Served) -> None:
    alice, bob, channel = served.ids()
    async with (
        served.http.ws_connect(served.live(alice)) as alice_ws,
        served.http.ws_connect(served.live(bob)) as bob_ws,
    ):
        assert (await served.command(bob, channel, "/balance"))["ok"] is True
        event = await bob_ws.receive_json(timeout=5)
        assert (event["kind"], event["message"]["content"]) == (
            "create",
            "You have 1,000 chips.",
        )
        assert (await served.command(alice, channel, "/blackjack start"))["ok"] is True
        # Alice's page hears of the table first: Bob's reply never went to it.
        event = await alice_ws.receive_json(timeout=5)
        assert event["kind"] == "create"
        assert event["message"]["ephemeral"] is False
        assert event["message"]["embeds"][0]["title"].startswith("Blackjack")
        # Switching player over the socket switches what it hears.
        await alice_ws.send_json({"viewer": bob})
        assert (await served.command(bob, channel, "/balance"))["ok"] is True
        while (event := await alice_ws.receive_json(timeout=5))["message"]["ephemeral"] is False:
            pass
        assert event["message"]["content"] == "You have 1,000 chips."
    as_alice = await served.get(f"/api/messages?channel={channel}&viewer={alice}")
    as_bob = await served.get(f"/api/messages?channel={channel}&viewer={bob}")
    assert [m["ephemeral"] for m in as_alice] == [False]
    assert [m["ephemeral"] for m in as_bob] == [True, False, True]


async def test_buttons_are_pressed_as_the_chosen_player(served: Served) -> None:
    alice, bob, channel = served.ids()
    await served.command(alice, channel, "/blackjack start")
    (table,) = await served.get(f"/api/messages?channel={channel}&viewer={bob}")
    join = next(b for row in table["components"] for b in row["components"] if b["label"] == "Join")
    status, outcome = await served.post(
        "/api/press", {"viewer": bob, "message": table["id"], "custom_id": join["custom_id"]}
    )
    assert (status, outcome["ok"]) == (200, True)
    (table,) = await served.get(f"/api/messages?channel={channel}&viewer={bob}")
    assert "Bob" in str(table["embeds"][0])
    status, outcome = await served.post(
        "/api/press", {"viewer": bob, "message": table["id"], "custom_id": "no-such-button"}
    )
    assert outcome["ok"] is False
    assert "no button 'no-such-button'" in outcome["refused"]


async def test_players_and_channels_are_added_with_discord_like_names(served: Served) -> None:
    status, created = await served.post("/api/players", {"name": "Carol"})
    assert status == 200
    status, created_channel = await served.post("/api/channels", {"name": "Side Table"})
    assert status == 200
    state = await served.get("/api/state")
    assert [p["name"] for p in state["players"]] == ["Alice", "Bob", "Croupier", "Carol"]
    assert {"id": created_channel["id"], "name": "side-table"} in state["channels"]
    carol = created["id"]
    outcome = await served.command(carol, created_channel["id"], "/balance")
    assert outcome["ok"] is True
    for path, name, error in [
        ("/api/players", "carol", "There is already a player called Carol."),
        ("/api/channels", "blackjack", "There is already a channel #blackjack."),
        ("/api/players", "x" * 33, "A name is 1 to 32 characters"),
        ("/api/players", "new\nline", "A name is 1 to 32 characters"),
        ("/api/channels", "no/slashes", "A name is 2 to 32 letters"),
    ]:
        status, body = await served.post(path, {"name": name})
        assert status == 400
        assert body["error"].startswith(error)


async def test_a_player_may_take_any_name_a_discord_display_name_may_hold(
    served: Served,
) -> None:
    names = ["x", "Dana Ng", "<b>'); DROP TABLE--", "Zoë 🂡 \u200b", "W" * 32]
    for name in names:
        status, _ = await served.post("/api/players", {"name": name})
        assert status == 200, name
    state = await served.get("/api/state")
    assert [p["name"] for p in state["players"]][3:] == names


async def test_admin_commands_are_offered_only_to_members_with_manage_server(
    served: Served,
) -> None:
    alice, _, channel = served.ids()
    croupier = str(served.playground.players()[2].id)
    as_alice = await served.get(f"/api/state?viewer={alice}")
    as_croupier = await served.get(f"/api/state?viewer={croupier}")
    assert not [c for c in as_alice["commands"] if c["path"].startswith("blackjack-admin")]
    assert {"blackjack-admin config", "blackjack-admin grant", "blackjack-admin take"} <= {
        c["path"] for c in as_croupier["commands"]
    }
    outcome = await served.command(alice, channel, "/blackjack-admin grant member:alice amount:50")
    assert outcome["refused"] == "There is no command /blackjack-admin here."
    outcome = await served.command(
        croupier, channel, "/blackjack-admin grant member:alice amount:50"
    )
    assert outcome["ok"] is True
    assert (await served.command(alice, channel, "/balance"))["ok"] is True
    shown = await served.get(f"/api/messages?channel={channel}&viewer={alice}")
    assert shown[-1]["content"] == "You have 1,050 chips."


def test_python_m_bot_playground_takes_a_port_and_a_database() -> None:
    args = build_parser().parse_args(["playground", "--port", "9000", "--db", "chips.sqlite3"])
    assert (args.port, args.db) == (9000, Path("chips.sqlite3"))
    assert build_parser().parse_args(["playground"]).port == 8765


async def test_a_request_naming_no_player_or_channel_is_answered_400(served: Served) -> None:
    alice, _, channel = served.ids()
    for body in (
        {"viewer": "1", "channel": channel, "line": "/balance"},
        {"viewer": alice, "channel": "general", "line": "/balance"},
        {"viewer": alice, "channel": channel},
    ):
        url = served.url + "/api/command"
        async with served.http.post(url, json=body, headers=served.auth) as response:
            assert response.status == 400
            assert (await response.text()).startswith("bad ")
    url = f"{served.url}/api/messages?channel={channel}"
    async with served.http.get(url, headers=served.auth) as response:
        assert response.status == 400
    with pytest.raises(aiohttp.WSServerHandshakeError) as refusal:
        await served.http.ws_connect(served.live("alice"))
    assert refusal.value.status == 400
    assert not served.playground.fake.interactions


async def test_side_bets_can_be_placed_and_are_shown(tmp_path: Path) -> None:
    shoes = ShoeQueue()
    # Alice 7♥ 8♥ with the dealer's 9♥ up: a straight flush for 21+3; Buster still live.
    shoes.add("7h 9h 8h Tc " + SPARE)
    async with serve_playground(tmp_path, shoes) as served:
        alice, _, channel = served.ids()
        await served.command(alice, channel, "/blackjack start")
        bet = "/bet 100 21plus3:10 perfect_pairs:10 buster:10"
        outcome = await served.command(alice, channel, bet)
        assert outcome["ok"] is True, outcome
        (table,) = [
            m
            for m in await served.get(f"/api/messages?channel={channel}&viewer={alice}")
            if not m["ephemeral"]
        ]
        shown = str(table["embeds"][0])
        assert "Alice: 21+3: straight flush, wins 90" in shown  # settled at the deal
        assert "Alice: side bets lost 10" in shown  # Perfect Pairs, summed
        assert "Buster Blackjack: 10 a hand" in shown  # still live


async def test_the_language_switch_sets_what_the_players_client_speaks(served: Served) -> None:
    alice, bob, channel = served.ids()
    state = await served.get(f"/api/state?viewer={alice}")
    assert [language["code"] for language in state["languages"]] == list(LANGUAGES)
    status, answer = await served.post("/api/language", {"viewer": alice, "language": "es-ES"})
    assert (status, answer) == (200, {"language": "es-ES"})
    state = await served.get(f"/api/state?viewer={alice}")
    assert {p["id"]: p["language"] for p in state["players"]}[alice] == "es-ES"
    assert (await served.command(alice, channel, "/balance"))["ok"] is True
    assert (await served.command(bob, channel, "/balance"))["ok"] is True
    as_alice = await served.get(f"/api/messages?channel={channel}&viewer={alice}")
    as_bob = await served.get(f"/api/messages?channel={channel}&viewer={bob}")
    assert as_alice[-1]["content"] == "Tienes 1.000 fichas."
    assert as_bob[-1]["content"] == "You have 1,000 chips."
    status, answer = await served.post("/api/language", {"viewer": alice, "language": "it"})
    assert status == 400
    assert "not 'it'" in answer["error"]
